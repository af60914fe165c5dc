// reduce10 (ours): what the seed's steps lead to on a GPU with 3-5 TB/s of memory bandwidth.
//  - 16-byte loads (int4), four of them in flight per thread before the first add;
//  - a grid sized to fill the GPU exactly (occupancy x SMs), each thread striding over the input;
//  - warp shuffles for the block's sum (one shared-memory word per warp);
//  - a single launch: the last block to finish (counted with an atomic after a fence) adds the block
//    sums and resets the counter for the next run, so there is no second pass and no memset.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

namespace cg = cooperative_groups;

constexpr int kThreads = 512;
constexpr int kUnroll = 4;

__device__ int block_sum(int value) {
  __shared__ int warp_sums[kThreads / 32];
  const cg::thread_block cta = cg::this_thread_block();
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cta);
  value = cg::reduce(warp, value, cg::plus<int>());
  if (warp.thread_rank() == 0) warp_sums[warp.meta_group_rank()] = value;
  cg::sync(cta);
  value = threadIdx.x < kThreads / 32 ? warp_sums[threadIdx.x] : 0;
  if (warp.meta_group_rank() == 0) value = cg::reduce(warp, value, cg::plus<int>());
  return value;  // valid in thread 0
}

__global__ void __launch_bounds__(kThreads) reduce10_kernel(const int* __restrict__ in, std::int64_t n,
                                                             int* __restrict__ partials,
                                                             unsigned int* blocks_done, int* out) {
  const std::int64_t threads = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;
  const auto* in4 = reinterpret_cast<const int4*>(in);
  const std::int64_t n4 = n / 4;

  int sum = 0;
  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * threads < n4; i += kUnroll * threads) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = in4[i + u * threads];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += threads) {
    const int4 v = in4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  if (thread < n - n4 * 4) sum += in[n4 * 4 + thread];  // the last n % 4 elements

  sum = block_sum(sum);

  __shared__ bool is_last_block;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();  // publish this block's sum before counting it as done
    is_last_block = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return;

  __threadfence();  // see every other block's published sum
  int total = 0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kThreads) total += __ldcg(&partials[b]);
  total = block_sum(total);
  if (threadIdx.x == 0) {
    *out = total;
    *blocks_done = 0;  // ready for the next launch on this stream
  }
}

int grid_blocks(std::int64_t n) {
  static const int full_gpu = full_gpu_blocks(reduce10_kernel, kThreads);
  const std::int64_t needed = (n / 4 + kThreads - 1) / kThreads;
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(needed, full_gpu)));
}

}  // namespace

void reduce10_vec4_single_pass(const Args& args, cudaStream_t stream) {
  Workspace& ws = *args.workspace;
  reduce10_kernel<<<grid_blocks(args.n), kThreads, 0, stream>>>(args.in, args.n, ws.partials_a.get(),
                                                                 ws.blocks_done.get(), args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::reduction
