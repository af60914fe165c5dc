// add_scale_fused_vec4 (ours): add_scale_fused made to stream at the copy ceiling:
//  - 16-byte loads and stores (float4), kUnroll vectors of x and of y loaded per thread before the
//    first store (ptxas fits the kernel in 32 registers for full occupancy, so it may keep only part
//    of them in flight: still >= 32 bytes per thread, 64 KiB per SM);
//  - a grid that fills the GPU exactly (occupancy x SMs), each thread striding over the arrays.
// cudaMalloc's 256-byte alignment makes the float4 views legal; the last n % 4 elements are done as
// floats by the first n % 4 threads of the grid.
#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"
#include "fusion/fusion.cuh"

namespace gpuperf::fusion {
namespace {

constexpr int kUnroll = 4;

__device__ __forceinline__ float4 add_scale(const float4& x, const float4& y, float s) {
  return make_float4((x.x + y.x) * s, (x.y + y.y) * s, (x.z + y.z) * s, (x.w + y.w) * s);
}

__global__ void __launch_bounds__(kThreads) add_scale_vec4_kernel(const float* __restrict__ x,
                                                                  const float* __restrict__ y, float s,
                                                                  std::int64_t n, float* __restrict__ out) {
  const std::int64_t threads = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;
  const auto* x4 = reinterpret_cast<const float4*>(x);
  const auto* y4 = reinterpret_cast<const float4*>(y);
  auto* out4 = reinterpret_cast<float4*>(out);
  const std::int64_t n4 = n / 4;

  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * threads < n4; i += kUnroll * threads) {
    float4 vx[kUnroll];
    float4 vy[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      vx[u] = x4[i + u * threads];
      vy[u] = y4[i + u * threads];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) out4[i + u * threads] = add_scale(vx[u], vy[u], s);
  }
  for (; i < n4; i += threads) out4[i] = add_scale(x4[i], y4[i], s);
  if (thread < n - n4 * 4) {  // the last n % 4 elements
    const std::int64_t j = n4 * 4 + thread;
    out[j] = (x[j] + y[j]) * s;
  }
}

}  // namespace

void add_scale_fused_vec4(const Args& args, cudaStream_t stream) {
  static const int full_gpu = full_gpu_blocks(add_scale_vec4_kernel, kThreads);
  if (args.n == 0) return;
  add_scale_vec4_kernel<<<vec4_grid_blocks(args.n, full_gpu), kThreads, 0, stream>>>(args.x, args.y, args.s, args.n,
                                                                                    args.out);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::fusion
