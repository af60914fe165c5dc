// reduce9 (seed 004): reduce7, but the last 64 values are summed by the first warp through register
// shuffles (shfl_down): no shared memory and no barrier in the final steps.
#include "reduction/block_reduce.cuh"
#include "reduction/grid_stride_blocks.h"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

template <int kBlock>
__global__ void reduce9_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = load_grid_stride<kBlock>(in, n);
  cg::sync(cta);
  tree_reduce_unrolled<kBlock, 64>(sdata, tid, cta);
  const int sum = finish_shfl_down<kBlock>(sdata, tid, cta);
  if (tid == 0) out[blockIdx.x] = sum;
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce9_kernel<kBlockSize><<<blocks, kBlockSize, 0, stream>>>(in, n, out);
}

}  // namespace

void reduce9_shfl_down_last_warp(const Args& args, cudaStream_t stream) {
  reduce_in_passes({grid_stride_blocks, launch}, args, stream);
}

}  // namespace gpuperf::reduction
