// What the runtime reports about a kernel's residency on the current device. Local to this family:
// common/device_info.h has only the SM count.
#include "common/cuda_check.cuh"
#include "occupancy/occupancy.cuh"

namespace gpuperf::occupancy {

int max_threads_per_sm() {
  static const int threads = [] {
    int device = 0;
    int value = 0;
    GPUPERF_CUDA_CHECK(cudaGetDevice(&device));
    GPUPERF_CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerMultiProcessor, device));
    return value;
  }();
  return threads;
}

Residency residency_of(const void* kernel, int block, std::size_t dynamic_shared_bytes) {
  Residency r;
  GPUPERF_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&r.active_blocks_per_sm, kernel, block,
                                                                   dynamic_shared_bytes));
  cudaFuncAttributes attributes{};
  GPUPERF_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  constexpr int kWarp = 32;
  const int warps_per_block = (block + kWarp - 1) / kWarp;
  r.occupancy_pct = 100.0 * r.active_blocks_per_sm * warps_per_block / (max_threads_per_sm() / kWarp);
  r.registers_per_thread = attributes.numRegs;
  r.shared_bytes_per_block = attributes.sharedSizeBytes + dynamic_shared_bytes;
  return r;
}

}  // namespace gpuperf::occupancy
