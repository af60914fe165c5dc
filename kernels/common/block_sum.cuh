#pragma once
// The sum of one 32-bit integer per thread over a block: warp sums (common/warp_sum.cuh), one
// shared-memory word per warp, one barrier, and a last warp sum in warp 0. The read ceiling, reduce10
// and count_equal's warp_shuffle_vec4 add their per-thread values with it.

#include "common/warp_sum.cuh"

namespace gpuperf {

// The sum of `value` over the block's kThreads threads, valid in thread 0. Every thread of the block
// must call it. A second call in the same kernel needs a __syncthreads() between the two: they share the
// per-warp words, and warp 0 may still be reading the first call's.
template <int kThreads, typename T>
__device__ __forceinline__ T block_sum(T value) {
  static_assert(kThreads % 32 == 0 && kThreads <= 32 * 32, "whole warps, at most one word per lane of warp 0");
  constexpr int kWarps = kThreads / 32;
  __shared__ T warp_sums[kWarps];
  value = warp_sum(value);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x < 32) {
    value = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : T{0};
    value = warp_sum(value);
  }
  return value;
}

}  // namespace gpuperf
