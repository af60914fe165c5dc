// grid_stride_shared_tree_one_atomic_per_block (seed, optimised): instead of one atomic per match,
//  - a grid-stride loop: each thread counts its own matches over many elements;
//  - the block's counts are added by a tree reduction in (dynamic) shared memory, with a barrier after
//    every step;
//  - thread 0 adds the block's count to the global counter: one atomicAdd per block.
// Grid: enough 256-thread blocks to fill every SM (8 per SM on Hopper), as the reduction family's
// grid-stride variants; the seed leaves the grid size open.
#include <algorithm>

#include "common/cuda_check.cuh"
#include "common/device_info.h"
#include "count_equal/count_equal.cuh"

namespace gpuperf::count_equal {
namespace {

constexpr int kThreads = 256;  // a power of two: the tree halves it
constexpr int kBlocksPerSm = 8;

__global__ void grid_stride_tree_kernel(const int* a, const int* b, std::int64_t n, int* count) {
  extern __shared__ int counts[];
  const unsigned tid = threadIdx.x;
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;

  int mine = 0;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + tid; i < n; i += stride) {
    if (a[i] == b[i]) ++mine;
  }
  counts[tid] = mine;
  __syncthreads();

  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) counts[tid] += counts[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(count, counts[0]);
}

}  // namespace

void grid_stride_shared_tree_one_atomic_per_block(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  const std::int64_t blocks = std::min<std::int64_t>((args.n + kThreads - 1) / kThreads,
                                                     std::int64_t{device_sm_count()} * kBlocksPerSm);
  grid_stride_tree_kernel<<<static_cast<unsigned>(blocks), kThreads, kThreads * sizeof(int), stream>>>(
      args.a, args.b, args.n, args.count);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::count_equal
