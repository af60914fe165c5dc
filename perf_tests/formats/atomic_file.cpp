#include "formats/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/input_error.h"
#include "formats/runtime_folder.h"

namespace gpuperf::formats {
namespace {

std::string error_text() { return std::strerror(errno); }

// The folder of `path` ("." for a bare name) and its last component.
std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string name_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The permission bits a new file gets: what open(2) with 0666 would give under this process's umask
// (mkstemp creates 0600, and a baseline or report must stay readable by others as before).
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return static_cast<mode_t>(0666 & ~mask);
}

// False, errno saying why, when a write fails.
bool write_all(int fd, const std::string& content) {
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

// A temporary file next to `path`, open, with the mode a new file gets: its name and descriptor.
// InputError when it cannot be made.
std::pair<std::string, int> temporary_beside(const std::string& path) {
  std::string name = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0) {
    throw InputError("cannot write a temporary file beside '" + path + "': " + error_text() +
                     " - check that the folder exists and is writable; '" + path + "' was left unchanged");
  }
  if (::fchmod(fd, new_file_mode()) != 0) {
    const std::string why = error_text();
    ::close(fd);
    ::unlink(name.c_str());
    throw InputError("cannot write a temporary file beside '" + path + "': " + why + "; '" + path +
                     "' was left unchanged");
  }
  return {name, fd};
}

[[noreturn]] void fail_writing(const std::string& path, int error) {
  throw InputError("writing '" + path + "' failed: " + std::strerror(error) + " - is the disk full? '" + path +
                   "' was left unchanged");
}

// A temporary file next to `path` holding `content`, synced to disk; its name. InputError when it fails
// (nothing left behind).
std::string stage(const std::string& path, const std::string& content) {
  const auto [name, fd] = temporary_beside(path);
  int error = 0;
  if (!write_all(fd, content) || ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    ::unlink(name.c_str());
    fail_writing(path, error);
  }
  return name;
}

// Closes a streamed output's temporary file `staged` and syncs it to disk. InputError when a write to the
// stream failed or the sync does (the caller removes the file).
void finish_streamed(const std::string& path, const std::string& staged, std::ofstream& stream) {
  stream.flush();
  const bool written = stream.good();
  stream.close();
  if (!written || stream.fail()) fail_writing(path, errno != 0 ? errno : EIO);
  const int fd = ::open(staged.c_str(), O_WRONLY | O_CLOEXEC);
  int error = fd < 0 || ::fsync(fd) != 0 ? errno : 0;
  if (fd >= 0 && ::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) fail_writing(path, error);
}

// Makes the renames in `folder` survive a power loss; a folder that cannot be synced still holds them.
void sync_folder(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

std::string describe_file_type(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG:
      return "a regular file";
    case S_IFDIR:
      return "a folder";
    case S_IFLNK:
      return "a symbolic link";
    case S_IFCHR:
      return "a character device";
    case S_IFBLK:
      return "a block device";
    case S_IFIFO:
      return "a named pipe (FIFO)";
    case S_IFSOCK:
      return "a socket";
    default:
      return "not a regular file";
  }
}

std::string resolved_path(const std::string& path) {
  char folder[PATH_MAX];
  if (::realpath(folder_of(path).c_str(), folder) == nullptr) return path;
  const std::string resolved = folder;
  return (resolved == "/" ? "" : resolved) + "/" + name_of(path);
}

void check_output_path(const std::string& path) {
  if (path.empty()) throw InputError("an output path is empty - name the file to write");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      throw InputError("refusing to write '" + path + "': it is " + describe_file_type(st.st_mode) +
                       ", and an output is written as a new regular file that would replace it - name a "
                       "regular file or a new one; '" + path + "' was left unchanged");
    }
  } else if (errno != ENOENT) {
    throw InputError("cannot write '" + path + "': " + error_text() +
                     " - check that the folder exists and is writable");
  }
  const std::string folder = folder_of(path);
  if (::stat(folder.c_str(), &st) != 0) {
    throw InputError("cannot write '" + path + "': its folder '" + folder + "' " +
                     (errno == ENOENT ? std::string("does not exist") : "cannot be read (" + error_text() + ")") +
                     " - create it first");
  }
  if (!S_ISDIR(st.st_mode)) {
    throw InputError("cannot write '" + path + "': '" + folder + "' is " + describe_file_type(st.st_mode) +
                     ", not a folder - name a file in a folder");
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    throw InputError("cannot write '" + path + "': the folder '" + folder + "' is not writable (" + error_text() +
                     ") - write the file elsewhere or make the folder writable");
  }
}

OutputFiles::~OutputFiles() {
  for (const File& file : files_) {
    if (!file.staged.empty()) ::unlink(file.staged.c_str());
  }
}

void OutputFiles::check_new(const std::string& path) const {
  check_output_path(path);
  const std::string resolved = resolved_path(path);
  for (const File& other : files_) {
    if (resolved_path(other.path) == resolved) {
      throw InputError("'" + path + "' is named as two outputs of one call ('" + other.path +
                       "' is the same file) - give each output its own file");
    }
  }
}

void OutputFiles::add(const std::string& path, std::string content) {
  check_new(path);
  files_.push_back(File{path, std::move(content), "", nullptr});
}

std::ostream& OutputFiles::add_streamed(const std::string& path) {
  check_new(path);
  const auto [name, fd] = temporary_beside(path);
  ::close(fd);
  files_.push_back(File{path, "", name, std::make_unique<std::ofstream>(name, std::ios::binary | std::ios::trunc)});
  if (!*files_.back().stream) fail_writing(path, errno != 0 ? errno : EIO);  // the destructor removes it
  return *files_.back().stream;
}

void OutputFiles::write() {
  for (const File& file : files_) check_output_path(file.path);  // nothing changed it since add()
  std::vector<std::string> staged;
  try {
    for (File& file : files_) {
      if (file.stream) {
        finish_streamed(file.path, file.staged, *file.stream);
        staged.push_back(file.staged);
      } else {
        staged.push_back(stage(file.path, file.content));
      }
    }
  } catch (const InputError& e) {
    for (const std::string& name : staged) ::unlink(name.c_str());
    throw InputError(std::string(e.what()) + (files_.size() > 1 ? "; no output of this call was written" : ""));
  }
  for (File& file : files_) file.staged.clear();  // each is in `staged` now: renamed or removed below
  std::set<std::string> folders;
  for (std::size_t i = 0; i < files_.size(); ++i) {
    const std::string& path = files_[i].path;
    if (::rename(staged[i].c_str(), path.c_str()) != 0) {
      const std::string why = error_text();
      for (std::size_t j = i; j < staged.size(); ++j) ::unlink(staged[j].c_str());
      std::string written;
      for (std::size_t j = 0; j < i; ++j) written += (j == 0 ? "" : ", ") + files_[j].path;
      throw InputError("cannot rename '" + staged[i] + "' to '" + path + "': " + why + " - '" + path +
                       "' was left unchanged" + (written.empty() ? "" : " (already written: " + written + ")"));
    }
    folders.insert(folder_of(path));
  }
  for (const std::string& folder : folders) sync_folder(folder);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  OutputFiles files;
  files.add(path, content);
  files.write();
}

FileLock::FileLock(const std::string& path) : lock_path_(file_lock_path(path)) {
  fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd_ < 0) {
    throw InputError("cannot open the lock file '" + lock_path_ + "' of '" + path + "': " + error_text() +
                     " - set TMPDIR to a folder of your own");
  }
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const std::string why = error_text();
    ::close(fd_);
    throw InputError("cannot lock '" + lock_path_ + "' (the lock of '" + path + "'): " + why);
  }
}

FileLock::~FileLock() { ::close(fd_); }  // closing releases the lock

FileLocks::FileLocks(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::string>> order;  // lock file, as given
  for (const std::string& path : paths) order.emplace_back(file_lock_path(path), path);
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < order.size(); ++i) {
    // One file twice: a second flock on another descriptor of the same lock file would wait on itself.
    if (i > 0 && order[i].first == order[i - 1].first) continue;
    locks_.push_back(std::make_unique<FileLock>(order[i].second));
  }
}

}  // namespace gpuperf::formats
