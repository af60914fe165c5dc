#pragma once
// A pair of CUDA events around a region of a stream: device time, not host time.

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

namespace gpuperf {

class EventTimer {
 public:
  EventTimer() {
    GPUPERF_CUDA_CHECK(cudaEventCreate(&start_));
    GPUPERF_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    GPUPERF_CUDA_CHECK_NOTHROW(cudaEventDestroy(start_));
    GPUPERF_CUDA_CHECK_NOTHROW(cudaEventDestroy(stop_));
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t stream) { GPUPERF_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  void stop(cudaStream_t stream) { GPUPERF_CUDA_CHECK(cudaEventRecord(stop_, stream)); }

  // Waits for the stop event. [microseconds]
  double elapsed_us() {
    GPUPERF_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.0f;
    GPUPERF_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) * 1e3;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace gpuperf
