#pragma once
// Writing output files so that a reader never sees half of one.

#include <string>

namespace gpuperf::gate {

// Writes `content` to `path` + ".tmp", then renames it over `path` (atomic on one file system): a crash
// or a full disk leaves the old file intact. InputError, naming the file, when writing fails.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace gpuperf::gate
