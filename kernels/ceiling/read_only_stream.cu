// read_only_stream: the read ceiling. There is no driver call that only reads, so this is a kernel
// built to do nothing but stream the input through:
//  - 16-byte loads (int4), kUnroll of them issued per thread before the first is used, so that each SM
//    has ~128 KiB of reads in flight (far above what Little's law needs to cover DRAM latency);
//  - a grid that fills the GPU exactly (occupancy x SMs), each thread striding over the input;
//  - the loaded values are summed and each block writes its sum, so the compiler cannot drop a load,
//    while the writes (one int per block) are negligible: bytes = 4n.
// cudaMalloc's 256-byte alignment makes the int4 view legal; the last n % 4 elements are read as ints.
#include <algorithm>

#include "ceiling/ceiling.cuh"
#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"
#include "common/warp_sum.cuh"

namespace gpuperf::ceiling {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kThreads)
    read_only_stream_kernel(const int* __restrict__ in, std::int64_t n, int* __restrict__ partials) {
  const std::int64_t threads = std::int64_t{gridDim.x} * kThreads;
  const std::int64_t thread = std::int64_t{blockIdx.x} * kThreads + threadIdx.x;
  const auto* in4 = reinterpret_cast<const int4*>(in);
  const std::int64_t n4 = n / 4;

  int sum = 0;
  std::int64_t i = thread;
  for (; i + (kUnroll - 1) * threads < n4; i += kUnroll * threads) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = in4[i + u * threads];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += threads) {
    const int4 v = in4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  if (thread < n - n4 * 4) sum += in[n4 * 4 + thread];  // the last n % 4 elements

  __shared__ int warp_sums[kWarps];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < kWarps ? warp_sums[threadIdx.x] : 0;
    sum = warp_sum(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
  }
}

}  // namespace

std::int64_t read_only_stream_blocks(std::int64_t n) {
  static const int full_gpu = full_gpu_blocks(read_only_stream_kernel, kThreads);
  const std::int64_t needed = (n / 4 + kThreads - 1) / kThreads;
  return std::max<std::int64_t>(1, std::min<std::int64_t>(needed, full_gpu));
}

void read_only_stream(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(read_only_stream_blocks(args.n));
  read_only_stream_kernel<<<blocks, kThreads, 0, stream>>>(args.in, args.n, args.partials);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::ceiling
