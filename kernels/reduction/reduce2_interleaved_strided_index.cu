// reduce2 (seed 004): still interleaved addressing, but thread t works on index 2*s*t, so the active
// threads are contiguous and whole warps drop out instead of diverging. Strided shared-memory access
// now causes bank conflicts.
#include "reduction/block_reduce.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {
namespace {

__global__ void reduce2_kernel(const int* in, std::int64_t n, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  extern __shared__ int sdata[];
  const unsigned tid = threadIdx.x;
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0;
  cg::sync(cta);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    cg::sync(cta);
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void launch(const int* in, std::int64_t n, int* out, std::int64_t blocks, cudaStream_t stream) {
  reduce2_kernel<<<blocks, kBlockSize, kBlockSize * sizeof(int), stream>>>(in, n, out);
}

std::int64_t blocks_for(std::int64_t n) { return blocks_for_tiles(n, 1); }

}  // namespace

void reduce2_interleaved_strided_index(const Args& args, cudaStream_t stream) {
  reduce_in_passes({blocks_for, launch}, args, stream);
}

}  // namespace gpuperf::reduction
