// naive: one thread per element, 256 threads a block, as a first CUDA kernel would be written.
#include "common/cuda_check.cuh"
#include "saxpy.cuh"

namespace saxpy {
namespace {

constexpr int kThreads = 256;

__global__ void saxpy_kernel(const float* x, const float* y, float a, std::int64_t n, float* out) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

}  // namespace

void naive(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  const auto blocks = static_cast<unsigned>((args.n + kThreads - 1) / kThreads);
  saxpy_kernel<<<blocks, kThreads, 0, stream>>>(args.x, args.y, args.a, args.n, args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace saxpy
