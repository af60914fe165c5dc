#pragma once
// Holds a stream's GPU work until the host has enqueued all of a sample, as nvbench's blocking kernel
// does. Without it the GPU can reach the start event before the host has launched the timed kernels
// (cuBLAS spends microseconds on the host per call), and the sample then times the host: a 14 us
// cuBLAS case measured 14.0 us in most processes but 15-18 us medians, with 52 us samples, in others.
//
//   {
//     const LaunchGate::Held held = gate.hold(stream);
//     ...enqueue the flush, start event, work, stop event...
//   }                              // the work runs from here on, back to back
//   ...wait for the stop event...; gate.check();
//
// If the host takes longer than the timeout to enqueue, the kernel stops waiting (so nothing hangs) and
// check() throws: that sample's time would have included host time.

#include <cuda_runtime.h>

namespace gpuperf {

class LaunchGate {
 public:
  static constexpr double kDefaultTimeoutSeconds = 10.0;

  explicit LaunchGate(double timeout_seconds = kDefaultTimeoutSeconds);
  ~LaunchGate();
  LaunchGate(const LaunchGate&) = delete;
  LaunchGate& operator=(const LaunchGate&) = delete;

  // Opens the gate when it goes out of scope, exception or not.
  class [[nodiscard]] Held {
   public:
    explicit Held(LaunchGate& gate) : gate_(gate) {}
    ~Held() { gate_.open(); }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;

   private:
    LaunchGate& gate_;
  };

  Held hold(cudaStream_t stream);
  // After the held work has finished: throws if the kernel gave up waiting for the host.
  void check() const;

 private:
  void open() noexcept;

  // Pinned host memory mapped into the device: [0] open (host writes), [1] timed out (device writes).
  volatile int* flags_ = nullptr;
  int* device_flags_ = nullptr;
  double timeout_seconds_;
};

}  // namespace gpuperf
