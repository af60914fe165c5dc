#pragma once
// Building blocks shared by the seed's later reduction variants (reduce4..reduce9), which differ only
// in how a thread loads its elements and how the last warp finishes the block's sum.

#include <cooperative_groups.h>

#include <cstdint>

namespace gpuperf::reduction {

namespace cg = cooperative_groups;

// reduce4, reduce6: each thread adds two elements of its block's tile of 2 * kBlock while loading.
template <int kBlock>
__device__ int load_two_per_thread(const int* in, std::int64_t n) {
  const std::int64_t i = std::int64_t{blockIdx.x} * (kBlock * 2) + threadIdx.x;
  int sum = i < n ? in[i] : 0;
  if (i + kBlock < n) sum += in[i + kBlock];
  return sum;
}

// reduce7..reduce9: a grid-stride loop, two elements per step, so few blocks cover any n.
template <int kBlock>
__device__ int load_grid_stride(const int* in, std::int64_t n) {
  const std::int64_t grid_size = std::int64_t{kBlock} * 2 * gridDim.x;
  int sum = 0;
  for (std::int64_t i = std::int64_t{blockIdx.x} * (kBlock * 2) + threadIdx.x; i < n; i += grid_size) {
    sum += in[i];
    if (i + kBlock < n) sum += in[i + kBlock];
  }
  return sum;
}

// Sequential-addressing tree in shared memory, unrolled for a compile-time block size, from kBlock
// values down to kStop values, with a block barrier after every step.
template <int kBlock, int kStop>
__device__ void tree_reduce_unrolled(int* sdata, unsigned tid, const cg::thread_block& cta) {
#pragma unroll
  for (int s = kBlock / 2; s >= kStop; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }
}

// reduce8: the last 64 values, synchronised per 32-thread tile instead of per block (the safe
// successor of the seed's dropped reduce5, which relied on implicit warp-synchronous execution).
template <int kBlock>
__device__ void finish_tile32_sync(int* sdata, unsigned tid, const cg::thread_block& cta) {
  const cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() >= 32) return;
#pragma unroll
  for (int s = (kBlock >= 64 ? 32 : kBlock / 2); s >= 1; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    tile32.sync();
  }
}

// reduce9: the last warp adds through register shuffles; no shared memory, no barrier. Returns the
// block's sum in thread 0.
template <int kBlock>
__device__ int finish_shfl_down(const int* sdata, unsigned tid, const cg::thread_block& cta) {
  const cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  int sum = 0;
  if (cta.thread_rank() < 32) {
    sum = sdata[tid];
    if (kBlock >= 64) sum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) sum += tile32.shfl_down(sum, offset);
  }
  return sum;
}

}  // namespace gpuperf::reduction
