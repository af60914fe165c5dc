// The fingerprint of any CUDA program, captured from outside it: a library CUDA loads into the process
// at cuInit when CUDA_INJECTION64_PATH names it (CUPTI's injection: the driver calls InitializeInjection).
// It records every kernel launch, copy and set of the whole process with LaunchCapture (cupti_capture.h),
// and at the process's exit writes what ran to the file GPUPERF_FINGERPRINT_OUT names: the distinct
// launches (process_fingerprint.h: a count that depends on time is not the code), and the NVIDIA libraries
// the process loaded. The gate runs a team's benchmark binary under it, one benchmark a process, timing
// nothing (gate/driver/team_fingerprints.h). Without GPUPERF_FINGERPRINT_OUT it does nothing.
//
// Where CUPTI cannot be had (another profiler attached), the file says why (capture_status) and holds no
// kernel. Where the process never initializes CUDA, or dies before its exit handlers run, no file is
// written: the gate says so.
#include <limits.h>
#include <link.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/atomic_file.h"
#include "harness/fingerprint/cupti_capture.h"
#include "harness/fingerprint/process_fingerprint.h"

namespace {

constexpr const char* kOutputVariable = "GPUPERF_FINGERPRINT_OUT";

std::string& output_path() {
  static std::string path;
  return path;
}

// The real files of the shared objects loaded now (symbolic links resolved: libcublas.so.13 ->
// libcublas.so.13.0.2.14, whose name holds the whole version).
std::vector<std::string> loaded_objects() {
  std::vector<std::string> paths;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;
        char real[PATH_MAX];
        const char* resolved = realpath(info->dlpi_name, real);
        static_cast<std::vector<std::string>*>(data)->push_back(resolved != nullptr ? real : info->dlpi_name);
        return 0;
      },
      &paths);
  return paths;
}

// At exit every kernel of the process has ended (its benchmark waited for them to time them), so the
// capture ends without waiting for the device, whose runtime may already be torn down (device_wait_none.cpp).
void write_fingerprint_at_exit() {
  try {
    gpuperf::formats::Fingerprint captured = gpuperf::fingerprint::LaunchCapture::instance().end();
    captured.libraries = gpuperf::fingerprint::nvidia_library_versions(loaded_objects());
    const gpuperf::formats::Fingerprint written = captured.capture_status == gpuperf::formats::kCapturedByCupti
                                                      ? gpuperf::fingerprint::distinct_launches(captured)
                                                      : captured;
    gpuperf::formats::write_file_atomically(output_path(), nlohmann::json(written).dump(1) + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpuperf fingerprint: cannot write %s: %s\n", output_path().c_str(), e.what());
  }
}

}  // namespace

// Called by the CUDA driver once, in cuInit, before any module of the process loads. 1: success (a 0
// is ignored by the driver; the program runs either way).
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  static bool initialized = false;
  const char* out = std::getenv(kOutputVariable);
  if (initialized || out == nullptr || out[0] == '\0') return 1;
  initialized = true;
  output_path() = out;
  gpuperf::fingerprint::LaunchCapture& capture = gpuperf::fingerprint::LaunchCapture::instance();
  capture.begin();  // unavailable: does nothing, and end() gives the reason
  std::atexit(write_fingerprint_at_exit);
  return 1;
}
