#pragma once
// The grid of a grid-stride kernel that fills every SM exactly: the kernel's occupancy (blocks per SM
// at this block size, as the runtime reports it) times the SM count. Callers cache it per kernel
// (a function-local static), since it cannot change within a process.

#include <cstddef>

#include "common/cuda_check.cuh"
#include "common/device_info.h"

namespace gpuperf {

template <typename Kernel>
int full_gpu_blocks(Kernel kernel, int threads_per_block, std::size_t dynamic_shared_bytes = 0) {
  int per_sm = 0;
  GPUPERF_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads_per_block, dynamic_shared_bytes));
  return per_sm * device_sm_count();
}

}  // namespace gpuperf
