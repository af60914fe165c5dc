// reduce10 (ours): what the seed's steps lead to on a GPU with 3-5 TB/s of memory bandwidth.
//  - the read ceiling's loads (common/vec4_grid_stride_sum.cuh, shared with ceiling/read_only_stream):
//    16-byte loads (int4), four of them in flight per thread before the first add, a grid sized to fill
//    the GPU exactly (occupancy x SMs), each thread striding over the input;
//  - warp sums for the block's sum (one shared-memory word per warp);
//  - a single launch: the last block to finish (counted with an atomic after a fence) adds the block
//    sums and resets the counter for the next run, so there is no second pass and no memset.
#include "common/block_sum.cuh"
#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"
#include "common/vec4_grid_stride_sum.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

constexpr int kThreads = 512;
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kThreads) reduce10_kernel(const int* __restrict__ in, std::int64_t n,
                                                             int* __restrict__ partials,
                                                             unsigned int* blocks_done, int* out) {
  const int sum = block_sum<kThreads>(vec4_grid_stride_thread_sum<kThreads, kUnroll>(in, n));

  __shared__ bool is_last_block;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();  // publish this block's sum before counting it as done
    is_last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();  // also ends block_sum's reads of its per-warp words before the second block_sum
  if (!is_last_block) return;

  __threadfence();  // see every other block's published sum
  int total = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&partials[b]);
  total = block_sum<kThreads>(total);
  if (threadIdx.x == 0) {
    *out = total;
    *blocks_done = 0;  // ready for the next launch on this stream
  }
}

int grid_blocks(std::int64_t n) {
  static const int full_gpu = full_gpu_blocks(reduce10_kernel, kThreads);
  return static_cast<int>(vec4_grid_stride_blocks(n, kThreads, full_gpu));
}

}  // namespace

void reduce10_vec4_single_pass(const Args& args, cudaStream_t stream) {
  Workspace& ws = *args.workspace;
  reduce10_kernel<<<grid_blocks(args.n), kThreads, 0, stream>>>(args.in, args.n, ws.partials_a.get(),
                                                                 ws.blocks_done.get(), args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::reduction
