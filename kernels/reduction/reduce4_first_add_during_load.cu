// reduce4 (seed 004): each thread adds two elements while loading, so no thread idles in the first
// step and half as many blocks are launched. Then reduce3's sequential tree.
#include "reduction/block_reduce.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

__global__ void reduce4_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  extern __shared__ int sdata[];
  const unsigned tid = threadIdx.x;
  sdata[tid] = load_two_per_thread<kBlockSize>(in, n);
  cg::sync(cta);
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce4_kernel<<<blocks, kBlockSize, kBlockSize * sizeof(int), stream>>>(in, n, out);
}

std::int64_t blocks_for(std::int64_t n) { return blocks_for_tiles(n, 2); }

}  // namespace

void reduce4_first_add_during_load(const Args& args, cudaStream_t stream) {
  reduce_in_passes({blocks_for, launch}, args, stream);
}

}  // namespace gpuperf::reduction
