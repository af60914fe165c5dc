// reduce3 (seed 004): sequential addressing: step s adds sdata[tid + s] for tid < s, halving s from
// blockDim/2. Contiguous threads read contiguous words: no bank conflicts, no divergence within warps
// until fewer than 32 threads are active.
#include "reduction/block_reduce.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

__global__ void reduce3_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  extern __shared__ int sdata[];
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  cg::sync(cta);
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce3_kernel<<<blocks, kBlockSize, kBlockSize * sizeof(int), stream>>>(in, n, out);
}

std::int64_t blocks_for(std::int64_t n) { return blocks_for_tiles(n, 1); }

}  // namespace

void reduce3_sequential_addressing(const Args& args, cudaStream_t stream) {
  reduce_in_passes({blocks_for, launch}, args, stream);
}

}  // namespace gpuperf::reduction
