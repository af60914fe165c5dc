#pragma once
// The CUPTI capture that fills a Fingerprint: every kernel launched between begin() and end(), with the
// machine code it ran, and every copy and set of memory issued in between (CUPTI_ACTIVITY_KIND_MEMCPY and
// _MEMSET records: kind, bytes, and the number of kernel launches before it by correlation ID). Two CUPTI sources, each for what it gets right (checked on an H100, CUDA 13, CUPTI
// API 130001, build/fingerprint/probe):
//   - the module-load callback (CUPTI_CBID_RESOURCE_MODULE_LOADED) hands over each module's cubin, byte for
//     byte the one nvcc wrote; cubin_kernels() reads from it the SASS hash, the registers and the stack frame;
//   - the kernel activity record (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) gives the mangled name, grid, block
//     and the dynamic and static shared memory. Its registersPerThread is the allocated count (16 for a kernel
//     that uses 10) and its localMemoryPerThread was 0 for kernels with 256 and 1584 bytes of stack frame, so
//     neither is taken from it.
// A kernel is matched to its module by mangled name. A kernel whose module loaded before instance() was
// first called, or whose cubin could not be read, has an unknown (empty) sass_hash and 0 registers and
// local memory.
//
// Needs libcupti.so at run time (linked, not loaded on demand). Keep begin() and end() outside any timed
// region: while recording, CUPTI adds work to every launch.

#include <map>
#include <string>

#include "formats/fingerprint.h"

namespace gpuperf::fingerprint {

class LaunchCapture {
 public:
  // The one capture of this process (CUPTI allows one subscriber). The first call subscribes to module
  // loads; call it before the first CUDA call so that no module's cubin is missed (with
  // CUDA_MODULE_LOADING=EAGER, modules load when the context is created).
  static LaunchCapture& instance();

  // False when CUPTI could not be set up; begin() then does nothing and end() returns a fingerprint whose
  // capture_status is status().
  bool available() const;
  // kCapturedByCupti when available, else why not: "another profiler holds CUPTI: ..." (Nsight Systems,
  // Nsight Compute or cuda-gdb attached), "CUPTI error in cuptiSubscribe: ...".
  const std::string& status() const;
  // Library -> version ("cublas" -> "13.0.0"), copied into every fingerprint end() returns.
  void set_libraries(std::map<std::string, std::string> libraries);

  // From now on, record kernel launches, copies and sets on every device and stream. begin() and end() are called from one
  // thread; a second begin() before end() starts the window again.
  void begin();
  // Waits for the current device (device_wait.h; kernels still running on another device may be
  // missed), stops recording and returns
  // what launched since begin(), in launch order, consecutive identical launches merged, and the copies and
  // sets issued since begin() (Fingerprint::copies, covers_copies true). Linked into the capture library,
  // it does not wait (device_wait_none.cpp). A CUDA or CUPTI failure is not thrown: it gives a fingerprint
  // without kernels whose capture_status names the failing call and its error.
  formats::Fingerprint end();

  LaunchCapture(const LaunchCapture&) = delete;
  LaunchCapture& operator=(const LaunchCapture&) = delete;

 private:
  LaunchCapture();
  struct State;   // the CUPTI side, in cupti_capture.cpp, so that this header needs no CUPTI headers
  State* state_;  // never freed: CUPTI may call back into it until the process exits
};

}  // namespace gpuperf::fingerprint
