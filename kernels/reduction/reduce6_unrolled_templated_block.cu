// reduce6 (seed 004): reduce4 with the block size a template parameter, so the tree loop is fully
// unrolled and its bounds are compile-time constants.
#include "reduction/block_reduce.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

template <int kBlock>
__global__ void reduce6_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ int sdata[kBlock];
  const unsigned tid = threadIdx.x;
  sdata[tid] = load_two_per_thread<kBlock>(in, n);
  cg::sync(cta);
  tree_reduce_unrolled<kBlock, 1>(sdata, tid, cta);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce6_kernel<kBlockSize><<<blocks, kBlockSize, 0, stream>>>(in, n, out);
}

std::int64_t blocks_for(std::int64_t n) { return blocks_for_tiles(n, 2); }

}  // namespace

void reduce6_unrolled_templated_block(const Args& args, cudaStream_t stream) {
  reduce_in_passes({blocks_for, launch}, args, stream);
}

}  // namespace gpuperf::reduction
