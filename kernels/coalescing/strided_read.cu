// strided_read (seed): one thread per output element; thread i reads in[i * stride] (wrapped into the
// array) and writes out[i]. A warp's 32 reads span 128 * stride bytes, i.e. min(32, 4 * stride) sectors
// of 32 bytes: 4 sectors (every byte used) at stride 1, 8 at stride 2, 16 at stride 4, and from stride 8
// up one whole sector per 4-byte read, so 7/8 of the read traffic is wasted.
#include "coalescing/coalescing.cuh"
#include "common/cuda_check.cuh"

namespace gpuperf::coalescing {
namespace {

constexpr int kThreads = 256;

__global__ void strided_read_kernel(const float* __restrict__ in, std::int64_t n, std::int64_t stride,
                                    float* __restrict__ out) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(i * stride) & (kArrayElements - 1)];
}

}  // namespace

void strided_read(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  const std::int64_t blocks = (args.n + kThreads - 1) / kThreads;
  strided_read_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(args.in, args.n, args.stride,
                                                                             args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::coalescing
