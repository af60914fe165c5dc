// The library variant: CUB's DeviceReduce::Sum, the yardstick our own kernels are measured against.
#include <cub/device/device_reduce.cuh>

#include "common/cuda_check.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {

std::size_t cub_storage_bytes(std::int64_t n) {
  std::size_t bytes = 0;
  GPUPERF_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const int*>(nullptr),
                                            static_cast<int*>(nullptr), n));
  return bytes;
}

void cub_device_reduce_sum(const Args& args, cudaStream_t stream) {
  std::size_t bytes = args.workspace->cub_storage.size();
  GPUPERF_CUDA_CHECK(cub::DeviceReduce::Sum(args.workspace->cub_storage.get(), bytes, args.in, args.out, args.n,
                                            stream));
}

}  // namespace gpuperf::reduction
