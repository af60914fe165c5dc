#include "gate/driver/gpu_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/runtime_folder.h"
#include "gate/driver/driver_stop.h"

namespace gpuperf::gate::driver {
namespace {

// How often a waiting run tries the lock again [ms]: a run waits minutes for another, so 0.1 s of delay
// after its release costs nothing.
constexpr int kRetryMs = 100;

// A GPU UUID as the bench reports it ("GPU-5c6e0a1b-..."): letters, digits and '-'; it names the lock file.
bool is_uuid(const std::string& uuid) {
  if (uuid.empty() || uuid.size() > 96) return false;
  for (const char c : uuid) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

GpuLock::GpuLock(const std::string& gpu_uuid, int wait_s) {
  if (!is_uuid(gpu_uuid)) {
    throw DriverStop(formats::kExitInvalidInput, "the GPU's UUID '" + formats::escape_console(gpu_uuid) +
                                                     "' is not one (letters, digits and '-'): check the "
                                                     "benchmark binary's --gpu-info");
  }
  // The host's shared lock file, where root made one for every user of the GPU (docs/runner_setup.md):
  // opened first, then checked, so that what is locked is the file checked, whatever the path names
  // meanwhile; a file of anyone else's is never waited on.
  file_ = formats::temporary_folder() + "/" + formats::gpu_lock_name(gpu_uuid);
  fd_ = ::open(file_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  struct stat info {};
  if (fd_ >= 0 && (::fstat(fd_, &info) != 0 || !S_ISREG(info.st_mode) || info.st_uid != 0)) {
    ::close(fd_);
    fd_ = -1;
  }
  if (fd_ < 0) {
    try {
      file_ = formats::private_lock_folder() + "/" + formats::gpu_lock_name(gpu_uuid);
    } catch (const formats::InputError& e) {
      throw DriverStop(formats::kExitInvalidInput, e.what());
    }
    // O_CLOEXEC: the benchmark processes must not inherit the lock, or one left running would hold the
    // GPU after the run ended.
    fd_ = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  }
  if (fd_ < 0) {
    throw DriverStop(formats::kExitInvalidInput,
                     "cannot open the GPU's lock file " + file_ + ": " + std::strerror(errno));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_s);
  while (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const std::string why = std::strerror(errno);
      ::close(fd_);
      throw DriverStop(formats::kExitInvalidInput, "cannot lock " + file_ + ": " + why);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::close(fd_);
      throw DriverStop(formats::kExitInvalidInput, "another perf run has held GPU " + gpu_uuid + " for more than " +
                                                       std::to_string(wait_s) + " s (lock file " + file_ +
                                                       "). Wait for it to finish, or raise --lock-wait.");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(kRetryMs));
  }
}

GpuLock::~GpuLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace gpuperf::gate::driver
