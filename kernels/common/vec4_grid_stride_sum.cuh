#pragma once
// The int32 sum that streams at the read ceiling, written once: the ceiling's read kernel
// (ceiling/read_only_stream.cu) and our best reduction (reduction/reduce10_vec4_single_pass.cu) both
// call it, so "reduce10 issues the ceiling's loads" holds by construction, not by keeping two copies
// alike. The block size stays each kernel's own (256 and 512 threads, as before this helper): the
// loop takes it as a template parameter, so each kernel's loads are what they were.
//  - vec4_grid_stride_blocks: a grid that fills the GPU exactly (occupancy x SMs), or fewer blocks
//    where n is too small to give each thread one int4;
//  - vec4_grid_stride_thread_sum: 16-byte loads (int4), kUnroll of them issued per thread before the
//    first add, each thread striding over the input by the whole grid; the last n % 4 elements are read
//    as ints by the first n % 4 threads of the grid;
// The block's sum of the thread sums is common/block_sum.cuh's.
// The int4 view needs `in` 16-byte aligned: cudaMalloc's 256-byte alignment gives it, and both kernels
// read whole allocations. There is no path for a misaligned pointer.
//
// One block sum for both (common/block_sum.cuh): integer addition gives the same sum in any order, so the choice cannot change
// a result, and there is no speed to choose by either: warp_sum and the cooperative-groups reduce that
// reduce10 used before both compile to one redux.sync per warp on sm_80 and later, once per thread per
// launch. warp_sum is the project's one warp sum (count_equal uses it too).

#include <algorithm>
#include <cstdint>

#include "common/block_sum.cuh"

namespace gpuperf {

// Blocks of threads_per_block threads for n elements: enough for one int4 per thread, at most
// full_gpu_blocks (the kernel's occupancy x SMs, see common/full_gpu_grid.cuh), at least one.
inline std::int64_t vec4_grid_stride_blocks(std::int64_t n, int threads_per_block, int full_gpu_blocks) {
  const std::int64_t needed = (n / 4 + threads_per_block - 1) / threads_per_block;
  return std::max<std::int64_t>(1, std::min<std::int64_t>(needed, full_gpu_blocks));
}

// This thread's share of the sum of in[0, n) over a grid of gridDim.x blocks of kThreads threads:
// the grid's shares add up to the whole sum, each element counted once.
template <int kThreads, int kUnroll>
__device__ __forceinline__ int vec4_grid_stride_thread_sum(const int* __restrict__ in, std::int64_t n) {
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
  return sum;
}

}  // namespace gpuperf
