// axpb_through_temporary (seed, unfused): t = a * x in one kernel, out = t + b in a second. The
// temporary t goes through device memory: 4 arrays of traffic (x read; t written; t read; out
// written) where the fused form needs 2. Two roundings (the product, then the sum).
#include "common/cuda_check.cuh"
#include "fusion/fusion.cuh"

namespace gpuperf::fusion {
namespace {

__global__ void scale_kernel(const float* x, float a, std::int64_t n, float* t) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) t[i] = a * x[i];
}

__global__ void add_scalar_kernel(const float* t, float b, std::int64_t n, float* out) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = t[i] + b;
}

}  // namespace

void axpb_through_temporary(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  const unsigned blocks = one_per_element_blocks(args.n);
  scale_kernel<<<blocks, kThreads, 0, stream>>>(args.x, args.a, args.n, args.temp);
  GPUPERF_CHECK_LAUNCH();
  add_scalar_kernel<<<blocks, kThreads, 0, stream>>>(args.temp, args.b, args.n, args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::fusion
