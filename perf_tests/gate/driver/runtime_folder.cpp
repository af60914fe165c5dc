#include "gate/driver/runtime_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "gate/driver/driver_stop.h"

namespace gpuperf::gate::driver {
namespace {

std::string environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

}  // namespace

std::string why_not_private_folder(const std::string& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return std::string("cannot be read: ") + std::strerror(errno);
  if (!S_ISDIR(info.st_mode)) return "is " + formats::describe_file_type(info.st_mode) + ", not a folder";
  if (info.st_uid != ::getuid()) {
    return "is owned by user " + std::to_string(info.st_uid) + ", not by this user (" + std::to_string(::getuid()) +
           ")";
  }
  if ((info.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    std::ostringstream mode;
    mode << std::oct << (info.st_mode & 07777);
    return "is writable by other users (mode 0" + mode.str() + ")";
  }
  return "";
}

std::string private_runtime_folder() {
  std::string folder = environment_value("XDG_RUNTIME_DIR");
  std::string made_by = "XDG_RUNTIME_DIR";
  if (folder.empty()) {
    std::string temporary = environment_value("TMPDIR");
    if (temporary.empty()) temporary = "/tmp";
    folder = temporary + "/gpuperf-" + std::to_string(::getuid());
    made_by = "the temporary folder";
    // 0700 from the start: never a moment in which another user could write into it.
    if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
      throw DriverStop(formats::kExitInvalidInput, "cannot create the lock folder " + folder + ": " +
                                                       std::strerror(errno) + " - set TMPDIR to a writable folder");
    }
  }
  if (const std::string why = why_not_private_folder(folder); !why.empty()) {
    throw DriverStop(formats::kExitInvalidInput,
                     "the lock folder " + folder + " (from " + made_by + ") " + why +
                         ": another user could hold or replace the GPU's lock there. Remove it, or point TMPDIR or "
                         "XDG_RUNTIME_DIR at a folder of your own (mode 0700)");
  }
  return folder;
}

}  // namespace gpuperf::gate::driver
