// axpb_fused (seed, fused): out = a * x + b in one kernel; the product stays in a register (the
// compiler makes it one FFMA, a single rounding), so the temporary's write and read disappear. One
// element per thread, as in the seed.
#include "common/cuda_check.cuh"
#include "fusion/fusion.cuh"

namespace gpuperf::fusion {
namespace {

__global__ void axpb_kernel(const float* x, float a, float b, std::int64_t n, float* out) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + b;
}

}  // namespace

void axpb_fused(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  axpb_kernel<<<one_per_element_blocks(args.n), kThreads, 0, stream>>>(args.x, args.a, args.b, args.n, args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::fusion
