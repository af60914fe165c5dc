#include "harness/l2_flush.cuh"

namespace gpuperf {
namespace {

std::size_t flush_bytes() {
  int device = 0;
  int l2 = 0;
  GPUPERF_CUDA_CHECK(cudaGetDevice(&device));
  GPUPERF_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  return 2 * static_cast<std::size_t>(l2);
}

}  // namespace

L2Flush::L2Flush() : scratch_(flush_bytes()) {}

void L2Flush::enqueue(cudaStream_t stream) const {
  GPUPERF_CUDA_CHECK(cudaMemsetAsync(scratch_.get(), 0, scratch_.bytes(), stream));
}

}  // namespace gpuperf
