#include "gate/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "gate/input_error.h"

namespace gpuperf::gate {

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw InputError("cannot write '" + temporary + "': " + std::strerror(errno) +
                       " - check that the folder exists and is writable");
    }
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      const std::string why = std::strerror(errno);
      out.close();
      std::remove(temporary.c_str());
      throw InputError("writing '" + temporary + "' failed: " + why + " - is the disk full? '" + path +
                       "' was left unchanged");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    throw InputError("cannot rename '" + temporary + "' to '" + path + "': " + why + " - '" + path +
                     "' was left unchanged");
  }
}

FileLock::FileLock(const std::string& path) {
  const std::string lock_path = path + ".lock";
  fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw InputError("cannot open the lock file '" + lock_path + "': " + std::strerror(errno) +
                     " - check that the folder exists and is writable");
  }
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const std::string why = std::strerror(errno);
    ::close(fd_);
    throw InputError("cannot lock '" + lock_path + "': " + why);
  }
}

FileLock::~FileLock() { ::close(fd_); }  // closing releases the lock

}  // namespace gpuperf::gate
