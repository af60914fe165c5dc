// add_then_scale_two_kernels (seed, unfused): t = x + y in one kernel, out = t * s in a second. The
// temporary t is written to device memory by the first kernel and read back by the second: 5 arrays of
// traffic (x, y read; t written; t read; out written) where the fused form needs 3.
#include "common/cuda_check.cuh"
#include "fusion/fusion.cuh"

namespace gpuperf::fusion {
namespace {

__global__ void add_kernel(const float* x, const float* y, std::int64_t n, float* t) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) t[i] = x[i] + y[i];
}

__global__ void scale_kernel(const float* t, float s, std::int64_t n, float* out) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = t[i] * s;
}

}  // namespace

void add_then_scale_two_kernels(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  const unsigned blocks = one_per_element_blocks(args.n);
  add_kernel<<<blocks, kThreads, 0, stream>>>(args.x, args.y, args.n, args.temp);
  GPUPERF_CHECK_LAUNCH();
  scale_kernel<<<blocks, kThreads, 0, stream>>>(args.temp, args.s, args.n, args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::fusion
