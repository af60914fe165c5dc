// block_size_sweep (seeds 000/001 "threads per block", 002 "a multiple of 32, 128-256 to start"): one
// memory-bound kernel, y[i] = a*x[i] + b, one scalar element per thread, grid = ceil(n / block),
// launched at every block size from one warp (32) to the most a block may hold (1024). Nothing in the
// kernel changes with the block size; what changes is how many warps an SM can hold: an SM takes at
// most 32 blocks, so 32-thread blocks fill only half of its 64 warp slots, and a memory-bound kernel
// with one load per thread needs many warps' loads in flight to cover the memory latency.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "occupancy/occupancy.cuh"

namespace gpuperf::occupancy {
namespace {

__global__ void axpb_kernel(const float* __restrict__ x, float* __restrict__ y, std::int64_t n, float a, float b) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaf(a, x[i], b);
}

}  // namespace

Residency axpb_plain_prepare(int block) { return residency_of(reinterpret_cast<const void*>(axpb_kernel), block, 0); }

void axpb_plain(const AxpbArgs& args, int block, cudaStream_t stream) {
  if (args.n <= 0) return;
  const std::int64_t blocks = (args.n + block - 1) / block;
  axpb_kernel<<<static_cast<unsigned>(blocks), block, 0, stream>>>(args.x, args.y, args.n, args.a, args.b);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::occupancy
