// grid_stride_vec4: 16-byte loads and stores (float4) over a grid that fills the GPU once (occupancy x
// SMs), each thread striding over the arrays. cudaMalloc's 256-byte alignment makes the float4 views
// legal; the last n % 4 elements are done as floats by the first n % 4 threads.
#include <algorithm>

#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"
#include "saxpy.cuh"

namespace saxpy {
namespace {

constexpr int kThreads = 256;

__global__ void __launch_bounds__(kThreads)
    saxpy_vec4_kernel(const float* __restrict__ x, const float* __restrict__ y, float a, std::int64_t n,
                      float* __restrict__ out) {
  const std::int64_t threads = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;
  const auto* x4 = reinterpret_cast<const float4*>(x);
  const auto* y4 = reinterpret_cast<const float4*>(y);
  auto* out4 = reinterpret_cast<float4*>(out);
  const std::int64_t n4 = n / 4;
  for (std::int64_t i = thread; i < n4; i += threads) {
    const float4 xv = x4[i];
    const float4 yv = y4[i];
    out4[i] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
  }
  const std::int64_t tail = n4 * 4 + thread;
  if (tail < n) out[tail] = a * x[tail] + y[tail];
}

}  // namespace

void grid_stride_vec4(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  static const int full_gpu = gpuperf::full_gpu_blocks(saxpy_vec4_kernel, kThreads);
  const std::int64_t needed = (args.n / 4 + kThreads - 1) / kThreads;
  const int blocks = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(needed, full_gpu)));
  saxpy_vec4_kernel<<<blocks, kThreads, 0, stream>>>(args.x, args.y, args.a, args.n, args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace saxpy
