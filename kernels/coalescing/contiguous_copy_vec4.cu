// contiguous_copy_vec4 (ours): the best case the strided reads are measured against, stride 1 done as
// well as we can: 16-byte loads and stores (float4), kUnroll loads issued per thread before the first
// store, a grid that fills the GPU exactly (occupancy x SMs) with each thread striding over the array.
// cudaMalloc's 256-byte alignment makes the float4 views legal; the last n % 4 elements are copied as
// floats by the first n % 4 threads of the grid.
#include <algorithm>
#include <stdexcept>

#include "coalescing/coalescing.cuh"
#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"

namespace gpuperf::coalescing {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kThreads)
    copy_vec4_kernel(const float* __restrict__ in, std::int64_t n, float* __restrict__ out) {
  const std::int64_t threads = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;
  const auto* in4 = reinterpret_cast<const float4*>(in);
  auto* out4 = reinterpret_cast<float4*>(out);
  const std::int64_t n4 = n / 4;

  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * threads < n4; i += kUnroll * threads) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = in4[i + u * threads];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) out4[i + u * threads] = v[u];
  }
  for (; i < n4; i += threads) out4[i] = in4[i];
  if (thread < n - n4 * 4) out[n4 * 4 + thread] = in[n4 * 4 + thread];  // the last n % 4 elements
}

int grid_blocks(std::int64_t n) {
  static const int full_gpu = full_gpu_blocks(copy_vec4_kernel, kThreads);
  const std::int64_t needed = (n / 4 + kThreads - 1) / kThreads;
  return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(needed, full_gpu)));
}

}  // namespace

void contiguous_copy_vec4(const Args& args, cudaStream_t stream) {
  if (args.stride != 1) throw std::invalid_argument("contiguous_copy_vec4: stride must be 1");
  if (args.n == 0) return;
  copy_vec4_kernel<<<grid_blocks(args.n), kThreads, 0, stream>>>(args.in, args.n, args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::coalescing
