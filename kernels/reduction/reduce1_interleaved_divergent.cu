// reduce1 (seed 004 baseline): interleaved addressing with `tid % (2 * s)`, so the active threads of a
// warp are scattered and every step diverges. One element per thread.
#include "reduction/block_reduce.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

__global__ void reduce1_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  extern __shared__ int sdata[];
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  cg::sync(cta);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce1_kernel<<<blocks, kBlockSize, kBlockSize * sizeof(int), stream>>>(in, n, out);
}

std::int64_t blocks_for(std::int64_t n) { return blocks_for_tiles(n, 1); }

}  // namespace

void reduce1_interleaved_divergent(const Args& args, cudaStream_t stream) {
  reduce_in_passes({blocks_for, launch}, args, stream);
}

}  // namespace gpuperf::reduction
