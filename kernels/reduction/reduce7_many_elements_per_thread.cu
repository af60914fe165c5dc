// reduce7 (seed 004): reduce6 plus a grid-stride loop: each thread sums many elements sequentially
// before the tree, and the grid is sized to the GPU (grid_stride_blocks.h) instead of to the input.
#include "reduction/block_reduce.cuh"
#include "reduction/grid_stride_blocks.h"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

template <int kBlock>
__global__ void reduce7_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = load_grid_stride<kBlock>(in, n);
  cg::sync(cta);
  tree_reduce_unrolled<kBlock, 1>(sdata, tid, cta);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce7_kernel<kBlockSize><<<blocks, kBlockSize, 0, stream>>>(in, n, out);
}

}  // namespace

void reduce7_many_elements_per_thread(const Args& args, cudaStream_t stream) {
  reduce_in_passes({grid_stride_blocks, launch}, args, stream);
}

}  // namespace gpuperf::reduction
