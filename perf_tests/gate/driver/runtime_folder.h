#pragma once
// Where the GPU locks live: a folder only this user can write, so that another user of the machine can
// neither hold a lock file in our place (and stall every perf run) nor plant one. The same rule as
// scripts/lib/common.sh's lock_gpu, which the scripts that stay bash take the same locks with:
// ${TMPDIR:-/tmp}/gpuperf-locks-<uid>, created 0700 where missing. A folder that exists is used only when
// it is a folder (not a symbolic link), owned by this user and writable by no one else; otherwise it is
// refused (DriverStop, exit 2) with what to do. (A lock file root made for every user of a GPU comes
// first: gpu_lock.h.)

#include <string>

namespace gpuperf::gate::driver {

// The folder, created where missing and checked; its path.
std::string private_lock_folder();

// "" when `path` is a folder this user may keep locks in (the checks above); else why not, in words
// that start with the path ("<path> is writable by group or others (mode 777)"), as private_dir's.
std::string why_not_private_folder(const std::string& path);

// ${TMPDIR:-/tmp}.
std::string temporary_folder();

}  // namespace gpuperf::gate::driver
