// reduce8 (seed 004): reduce7, but once 64 values are left the first warp finishes alone, synchronising
// through a 32-thread cooperative-groups tile instead of the whole block.
#include "reduction/block_reduce.cuh"
#include "reduction/grid_stride_blocks.h"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

template <int kBlock>
__global__ void reduce8_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = load_grid_stride<kBlock>(in, n);
  cg::sync(cta);
  tree_reduce_unrolled<kBlock, 64>(sdata, tid, cta);
  finish_tile32_sync<kBlock>(sdata, tid, cta);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce8_kernel<kBlockSize><<<blocks, kBlockSize, 0, stream>>>(in, n, out);
}

}  // namespace

void reduce8_tile32_sync_last_warp(const Args& args, cudaStream_t stream) {
  reduce_in_passes({grid_stride_blocks, launch}, args, stream);
}

}  // namespace gpuperf::reduction
