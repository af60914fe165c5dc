#pragma once
// Writing output files so that a reader never sees half of one, several outputs of one call all or none,
// and updating a file that several processes share without losing an update.

#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gpuperf::formats {

// Refuses an output path that writing would damage or cannot serve, before anything is written: the
// path must be absent or a regular file (not a symbolic link, folder, device or named pipe, which an
// atomic write would replace with a regular file), in an existing folder this process may write to.
// InputError naming the path, what it is, and what to do.
void check_output_path(const std::string& path);

// The outputs of one call, written all or nothing: each file is staged in a temporary file of its own
// folder (a unique name, mkstemp; written and synced to disk), and only once every one is staged are they
// renamed over their targets (a rename is atomic within one file system). A full disk or an unwritable
// folder leaves every target as it was and no temporary file behind. A temporary file survives only a
// process killed between staging and renaming: "<target>.tmp.XXXXXX", safe to delete.
class OutputFiles {
 public:
  OutputFiles() = default;
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;
  // Removes the temporary files of streamed outputs that were not written.
  ~OutputFiles();
  // Checks `path` (check_output_path) and that no other output of this call names the same file.
  void add(const std::string& path, std::string content);
  // An output too large to hold in memory, written as it is produced: checked as add() checks it, staged
  // at once in its temporary file, whose stream is returned; write() syncs it and renames it with the
  // others. InputError when the temporary file cannot be made; a failed write to the stream is one at write().
  std::ostream& add_streamed(const std::string& path);
  // InputError, naming the file, when staging or a rename fails.
  void write();

 private:
  struct File {
    std::string path;
    std::string content;                   // add(): the file's content
    std::string staged;                    // add_streamed(): the temporary file the stream writes
    std::unique_ptr<std::ofstream> stream;  // add_streamed(): null for add()
  };
  void check_new(const std::string& path) const;
  std::vector<File> files_;
};

// One output written atomically (an OutputFiles of one file).
void write_file_atomically(const std::string& path, const std::string& content);

// Holds an exclusive lock (flock) on the lock file of `path`, created if missing, from construction to
// destruction: two processes updating one file take turns, and a reader of the file that holds the lock
// across its read and its write loses no update. Blocks while another holds it; a process that dies
// releases it. The lock file is in this user's lock folder, never beside `path` (formats/runtime_folder.h:
// file_lock_path, named by the hash of `path`'s canonical path, so that two names of one file share one
// lock and two files never do); it stays there (removing it would let a waiting process lock a file
// nobody else opens). scripts/lib/common.sh's lock_file takes the same lock. InputError, naming the lock
// file, when the lock folder is not private or the file cannot be opened or locked.
class FileLock {
 public:
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  // The lock file held.
  const std::string& file() const { return lock_path_; }

 private:
  std::string lock_path_;
  int fd_ = -1;
};

// The locks of several files (FileLock each), taken in one order (by lock file, each file once), so
// that two processes locking some of the same files never wait on each other.
class FileLocks {
 public:
  explicit FileLocks(const std::vector<std::string>& paths);

 private:
  std::vector<std::unique_ptr<FileLock>> locks_;
};

// "a folder", "a symbolic link", "a character device", "a named pipe (FIFO)", ... of a stat st_mode: for
// messages that say what a path is instead of a regular file.
std::string describe_file_type(unsigned mode);

// `path` with its folder resolved (symbolic links, "..", "."): two names of one file give one string.
// The folder must exist; the file need not.
std::string resolved_path(const std::string& path);

}  // namespace gpuperf::formats
