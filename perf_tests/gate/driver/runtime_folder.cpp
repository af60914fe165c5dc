#include "gate/driver/runtime_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "formats/exit_codes.h"
#include "gate/driver/driver_stop.h"

namespace gpuperf::gate::driver {

std::string temporary_folder() {
  const char* value = std::getenv("TMPDIR");
  return value == nullptr || *value == '\0' ? "/tmp" : value;
}

std::string why_not_private_folder(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return path + " cannot be read: " + std::strerror(errno);
  if (S_ISLNK(info.st_mode)) return path + " is a symbolic link";
  if (!S_ISDIR(info.st_mode)) return path + " is not a folder";
  if (info.st_uid != ::getuid()) return path + " belongs to another user (uid " + std::to_string(info.st_uid) + ")";
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    std::ostringstream mode;
    mode << std::oct << (info.st_mode & 07777);
    return path + " is writable by group or others (mode " + mode.str() + ")";
  }
  return "";
}

std::string private_lock_folder() {
  const std::string folder = temporary_folder() + "/gpuperf-locks-" + std::to_string(::getuid());
  // 0700 from the start: never a moment in which another user could write into it. One made meanwhile
  // by someone else is checked below.
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    throw DriverStop(formats::kExitInvalidInput, "cannot create the GPU lock folder " + folder + ": " +
                                                     std::strerror(errno) + " - set TMPDIR to a writable folder");
  }
  if (const std::string why = why_not_private_folder(folder); !why.empty()) {
    throw DriverStop(formats::kExitInvalidInput,
                     "the GPU lock folder is not private: " + why +
                         ". Remove it if it is not yours (another user may have made it to stall the perf runs), "
                         "or set TMPDIR to a folder of your own.");
  }
  return folder;
}

}  // namespace gpuperf::gate::driver
