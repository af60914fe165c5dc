#include "harness/launch_gate.cuh"

#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"

namespace gpuperf {
namespace {

__device__ unsigned long long global_timer_ns() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void wait_until_open(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long start = global_timer_ns();
  while (flags[0] == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      flags[1] = 1;
      return;
    }
  }
}

}  // namespace

LaunchGate::LaunchGate(double timeout_seconds) : timeout_seconds_(timeout_seconds) {
  int* flags = nullptr;
  GPUPERF_CUDA_CHECK(cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped));
  flags_ = flags;
  flags_[0] = 1;
  flags_[1] = 0;
  GPUPERF_CUDA_CHECK(cudaHostGetDevicePointer(&device_flags_, flags, 0));
}

LaunchGate::~LaunchGate() { GPUPERF_CUDA_CHECK_NOTHROW(cudaFreeHost(const_cast<int*>(flags_))); }

LaunchGate::Held LaunchGate::hold(cudaStream_t stream) {
  // The previous sample has finished (its stop event was waited for), so no kernel reads the flags now.
  flags_[0] = 0;
  flags_[1] = 0;
  wait_until_open<<<1, 1, 0, stream>>>(device_flags_, static_cast<unsigned long long>(timeout_seconds_ * 1e9));
  const cudaError_t launched = cudaGetLastError();
  if (launched != cudaSuccess) {
    open();
    throw std::runtime_error(std::string("could not launch the launch-gate kernel: ") + cudaGetErrorString(launched));
  }
  return Held(*this);
}

void LaunchGate::open() noexcept { flags_[0] = 1; }

void LaunchGate::check() const {
  if (flags_[1] != 0) {
    throw std::runtime_error("the host took more than " + std::to_string(timeout_seconds_) +
                             " s to enqueue one sample, so its time would include host time: is the machine "
                             "overloaded?");
  }
}

}  // namespace gpuperf
