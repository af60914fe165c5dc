// shared_memory_limited: the work of block_size_sweep at 256 threads per block, with 100 KiB of
// dynamic shared memory per block. An SM has 228 KiB of shared memory (1 KiB of it reserved per
// block): 2 blocks fit, 16 of its 64 warps (25% occupancy), the same residency register_limited gets
// from registers. Each thread passes its result through its own word of the allocation (words spread
// over all of it, an odd stride apart so that no two threads of a warp share a bank), so the
// allocation is used, not merely requested; no two threads touch the same word, so no barrier.
#include <cstddef>
#include <cstdint>

#include "common/cuda_check.cuh"
#include "occupancy/occupancy.cuh"

namespace gpuperf::occupancy {
namespace {

constexpr std::size_t kSharedBytes = 100 * 1024;  // per block, above the 48 KiB default limit

__global__ void axpb_shared_heavy_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n,
                                         float a, float b, int stride_words) {
  extern __shared__ float staging[];
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  volatile float* slot = staging + threadIdx.x * stride_words;
  *slot = fmaf(a, x[i], b);
  y[i] = *slot;
}

}  // namespace

Residency axpb_shared_memory_limited_prepare(int block) {
  GPUPERF_CUDA_CHECK(cudaFuncSetAttribute(axpb_shared_heavy_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(kSharedBytes)));
  GPUPERF_CUDA_CHECK(cudaFuncSetAttribute(axpb_shared_heavy_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
  return residency_of(reinterpret_cast<const void*>(axpb_shared_heavy_kernel), block, kSharedBytes);
}

void axpb_shared_memory_limited(const AxpbArgs& args, int block, cudaStream_t stream) {
  if (args.n <= 0) return;
  // Thread t's word: t * stride, stride odd (conflict-free) and at most words / block (inside).
  const int words_per_thread = static_cast<int>(kSharedBytes / sizeof(float)) / block;
  const int stride_words = words_per_thread % 2 == 1 ? words_per_thread : words_per_thread - 1;
  const std::int64_t blocks = (args.n + block - 1) / block;
  axpb_shared_heavy_kernel<<<static_cast<unsigned>(blocks), block, kSharedBytes, stream>>>(
      args.x, args.y, args.n, args.a, args.b, stride_words);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::occupancy
