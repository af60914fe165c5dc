#pragma once
// Writing output files so that a reader never sees half of one, and updating one that several processes
// share without losing an update.

#include <string>

namespace gpuperf::gate {

// Writes `content` to `path` + ".tmp", then renames it over `path` (atomic on one file system): a crash
// or a full disk leaves the old file intact. InputError, naming the file, when writing fails.
void write_file_atomically(const std::string& path, const std::string& content);

// Holds an exclusive lock (flock) on `path` + ".lock", created if missing, from construction to
// destruction: two gates updating one file in turn, never at once. Blocks while another holds it.
// InputError, naming the file, when it cannot be opened or locked.
class FileLock {
 public:
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace gpuperf::gate
