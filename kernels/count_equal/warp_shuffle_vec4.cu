// warp_shuffle_vec4 (ours): the seed's one-atomic-per-block kernel, made to stream at the read ceiling.
//  - 16-byte loads (int4) of a and b, kUnroll of each written before the first compare (ptxas fits
//    the kernel in 32 registers for full occupancy, so it may keep only part of them in flight: still
//    >= 32 bytes per thread, 64 KiB per SM, above what covers DRAM latency);
//  - a grid that fills the GPU exactly (occupancy x SMs), each thread striding over the input;
//  - the block's count by warp reductions (common/block_sum.cuh, one shared word per warp, one barrier)
//    instead of a shared-memory tree with a barrier per step; one atomicAdd per block as in the seed.
// cudaMalloc's 256-byte alignment makes the int4 views legal; the last n % 4 elements are compared as
// ints by the first n % 4 threads of the grid.
#include "common/block_sum.cuh"
#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"
#include "common/vec4_grid_stride_sum.cuh"
#include "count_equal/count_equal.cuh"

namespace gpuperf::count_equal {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;

__device__ __forceinline__ unsigned equal_lanes(const int4& x, const int4& y) {
  return unsigned{x.x == y.x} + unsigned{x.y == y.y} + unsigned{x.z == y.z} + unsigned{x.w == y.w};
}

__global__ void __launch_bounds__(kThreads) warp_shuffle_vec4_kernel(const int* __restrict__ a,
                                                                     const int* __restrict__ b, std::int64_t n,
                                                                     int* __restrict__ count) {
  const std::int64_t threads = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;
  const auto* a4 = reinterpret_cast<const int4*>(a);
  const auto* b4 = reinterpret_cast<const int4*>(b);
  const std::int64_t n4 = n / 4;

  unsigned mine = 0;
  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * threads < n4; i += kUnroll * threads) {
    int4 va[kUnroll];
    int4 vb[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      va[u] = a4[i + u * threads];
      vb[u] = b4[i + u * threads];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) mine += equal_lanes(va[u], vb[u]);
  }
  for (; i < n4; i += threads) mine += equal_lanes(a4[i], b4[i]);
  if (thread < n - n4 * 4) mine += unsigned{a[n4 * 4 + thread] == b[n4 * 4 + thread]};  // last n % 4

  mine = block_sum<kThreads>(mine);
  if (threadIdx.x == 0) atomicAdd(count, static_cast<int>(mine));  // n < 2^31: fits
}

int grid_blocks(std::int64_t n) {
  static const int full_gpu = full_gpu_blocks(warp_shuffle_vec4_kernel, kThreads);
  return static_cast<int>(vec4_grid_stride_blocks(n, kThreads, full_gpu));
}

}  // namespace

void warp_shuffle_vec4(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  warp_shuffle_vec4_kernel<<<grid_blocks(args.n), kThreads, 0, stream>>>(args.a, args.b, args.n, args.count);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::count_equal
