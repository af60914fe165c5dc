#pragma once
// Where the harness keeps its locks: in the user's runtime folder, never beside the files it writes (a
// lock left in a team's baselines/ would be committed with `git add baselines/`). One folder only this
// user can write, so that another user of the machine can neither hold a lock file in our place (and
// stall every perf run or recording) nor plant one: ${TMPDIR:-/tmp}/gpuperf-locks-<uid>, created 0700
// where missing. A folder that exists is used only when it is a folder (not a symbolic link), owned by
// this user and writable by no one else; otherwise it is refused (InputError) with what to do.
//
// It holds the GPU locks (gate/driver/gpu_lock.h, which prefers a file root made for every user of a GPU)
// and the locks of files read and rewritten (FileLock, formats/atomic_file.h), each named here. The same
// rule, names and all, in bash: scripts/lib/common.sh (lock_folder, lock_gpu, lock_file), so that a script
// and perf_gate locking one GPU or one file take one lock. The locks of two users are two files: two
// users writing one shared file do not exclude each other (a file that two users write is no case of
// ours; giving them one lock would need a folder every user can write, which is what the rule refuses).

#include <string>

namespace gpuperf::formats {

// ${TMPDIR:-/tmp}.
std::string temporary_folder();

// "" when `path` is a folder this user may keep locks in (the checks above); else why not, in words
// that start with the path ("<path> is writable by group or others (mode 777)"), as scripts/lib/common.sh's
// private_dir says it.
std::string why_not_private_folder(const std::string& path);

// The folder, created where missing and checked; its path. InputError when it cannot be made or is not
// private.
std::string private_lock_folder();

// The name of a GPU's lock file, "gpuperf-<uuid>.lock": in the temporary folder where root made it for
// every user of the GPU (docs/runner_setup.md), else in private_lock_folder(). `uuid` is checked by the
// caller (letters, digits and '-').
std::string gpu_lock_name(const std::string& uuid);

// `path` absolute, with "." and ".." and every symbolic link of it resolved (as `realpath -m`): two names
// of one file give one string. No part of it need exist.
std::string canonical_path(const std::string& path);

// The name of the lock file of the file whose canonical path is `canonical`:
// "file-<its last component>-<FNV-1a 64 of `canonical`, 16 hex digits>.lock". The component is kept
// readable (bytes other than letters, digits, '.', '_' and '-' become '_'; at most 64 of them), the hash
// tells apart two files of one name in different folders. Pure: scripts/tests check bash's against it.
std::string file_lock_name(const std::string& canonical);

// Where the lock of `target` is: private_lock_folder() / file_lock_name(canonical_path(target)).
std::string file_lock_path(const std::string& target);

}  // namespace gpuperf::formats
