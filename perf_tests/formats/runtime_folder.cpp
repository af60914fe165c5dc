#include "formats/runtime_folder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <system_error>

#include "formats/fnv1a.h"
#include "formats/input_error.h"

namespace gpuperf::formats {
namespace {

// The readable part of a lock's name: at most this many bytes of the file's name [bytes]. Far below
// NAME_MAX (255) with the prefix and the hash, and enough to recognise "nvidia-h100-80gb-hbm3.ncu.json".
constexpr std::size_t kLockNameBytes = 64;

bool kept_in_lock_name(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

}  // namespace

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
    throw InputError("cannot create the lock folder " + folder + ": " + std::strerror(errno) +
                     " - set TMPDIR to a writable folder");
  }
  if (const std::string why = why_not_private_folder(folder); !why.empty()) {
    throw InputError("the lock folder is not private: " + why +
                     ". Remove it if it is not yours (another user may have made it to stall the perf runs), "
                     "or set TMPDIR to a folder of your own.");
  }
  return folder;
}

std::string gpu_lock_name(const std::string& uuid) { return "gpuperf-" + uuid + ".lock"; }

std::string canonical_path(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  if (error) return path;
  fs::path canonical = fs::weakly_canonical(absolute, error);
  if (error) canonical = absolute.lexically_normal();
  std::string text = canonical.string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();  // "dir/" names what "dir" names
  return text;
}

std::string file_lock_name(const std::string& canonical) {
  const std::size_t slash = canonical.find_last_of('/');
  std::string name = slash == std::string::npos ? canonical : canonical.substr(slash + 1);
  if (name.size() > kLockNameBytes) name.resize(kLockNameBytes);
  for (char& c : name) {
    if (!kept_in_lock_name(c)) c = '_';
  }
  return "file-" + name + "-" + hex16(fnv1a64(canonical)) + ".lock";
}

std::string file_lock_path(const std::string& target) {
  return private_lock_folder() + "/" + file_lock_name(canonical_path(target));
}

}  // namespace gpuperf::formats
