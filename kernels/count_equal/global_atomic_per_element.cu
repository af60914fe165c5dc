// global_atomic_per_element (seed, naive): one thread per element; every thread that finds a match
// does atomicAdd(count, 1) on the single global counter. Many same-address atomics meet in the L2;
// the seed found this a bottleneck on Pascal and almost free on Ampere. (nvcc may itself aggregate
// the atomics of a warp into one; that is part of what this variant measures.)
#include "common/cuda_check.cuh"
#include "count_equal/count_equal.cuh"

namespace gpuperf::count_equal {
namespace {

constexpr int kThreads = 256;

__global__ void global_atomic_kernel(const int* a, const int* b, std::int64_t n, int* count) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n && a[i] == b[i]) atomicAdd(count, 1);
}

}  // namespace

void global_atomic_per_element(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  const std::int64_t blocks = (args.n + kThreads - 1) / kThreads;
  global_atomic_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(args.a, args.b, args.n, args.count);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::count_equal
