#pragma once
// The GPU lock: a perf run holds one GPU (by UUID) to itself from before its first process to its end,
// so that two runs started at once (two ctest invocations, a CI job and a developer) never time kernels
// side by side. An exclusive flock on ${TMPDIR:-/tmp}/gpuperf-<uuid>.lock where root made that file for
// every user of the GPU (docs/runner_setup.md), else on <this user's lock folder>/gpuperf-<uuid>.lock
// (formats/runtime_folder.h): the file scripts/lib/common.sh's lock_gpu locks, so that the scripts that stay bash
// wait for the driver and the driver for them. A process that dies releases it.

#include <string>

namespace gpuperf::gate::driver {

class GpuLock {
 public:
  // Waits up to `wait_s` seconds for the lock. DriverStop (exit 2) when another run held it all that
  // time ("another perf run has held GPU <uuid> for more than <wait_s> s ..."), when the UUID is no UUID
  // (it names a file), or when the lock file cannot be opened.
  GpuLock(const std::string& gpu_uuid, int wait_s);
  ~GpuLock();
  GpuLock(const GpuLock&) = delete;
  GpuLock& operator=(const GpuLock&) = delete;

  const std::string& file() const { return file_; }

 private:
  int fd_ = -1;
  std::string file_;
};

}  // namespace gpuperf::gate::driver
