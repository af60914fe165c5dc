#pragma once
// Evicts the L2 cache before a sample by writing a buffer twice its size, so every sample starts cold
// and a benchmark whose data would fit in L2 measures memory, not the previous sample's leftovers.
// (Measured on an H200: without it a 40 us reduction varied by 3% between processes; with it, 0.7%.)

#include <cuda_runtime.h>

#include "common/device_buffer.cuh"

namespace gpuperf {

class L2Flush {
 public:
  L2Flush();
  void enqueue(cudaStream_t stream) const;

 private:
  DeviceBuffer<unsigned char> scratch_;
};

}  // namespace gpuperf
