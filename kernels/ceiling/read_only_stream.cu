// read_only_stream: the read ceiling. There is no driver call that only reads, so this is a kernel
// built to do nothing but stream the input through (common/vec4_grid_stride_sum.cuh, the loads our
// best reduction, reduce10, issues too):
//  - 16-byte loads (int4), kUnroll of them issued per thread before the first is used, so that each SM
//    has ~128 KiB of reads in flight (far above what Little's law needs to cover DRAM latency);
//  - a grid that fills the GPU exactly (occupancy x SMs), each thread striding over the input;
//  - the loaded values are summed and each block writes its sum, so the compiler cannot drop a load,
//    while the writes (one int per block) are negligible: bytes = 4n.
// cudaMalloc's 256-byte alignment makes the int4 view legal; the last n % 4 elements are read as ints.
#include "ceiling/ceiling.cuh"
#include "common/block_sum.cuh"
#include "common/cuda_check.cuh"
#include "common/full_gpu_grid.cuh"
#include "common/vec4_grid_stride_sum.cuh"

namespace gpuperf::ceiling {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kThreads)
    read_only_stream_kernel(const int* __restrict__ in, std::int64_t n, int* __restrict__ partials) {
  const int sum = block_sum<kThreads>(vec4_grid_stride_thread_sum<kThreads, kUnroll>(in, n));
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

}  // namespace

std::int64_t read_only_stream_blocks(std::int64_t n) {
  static const int full_gpu = full_gpu_blocks(read_only_stream_kernel, kThreads);
  return vec4_grid_stride_blocks(n, kThreads, full_gpu);
}

void read_only_stream(const Args& args, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>(read_only_stream_blocks(args.n));
  read_only_stream_kernel<<<blocks, kThreads, 0, stream>>>(args.in, args.n, args.partials);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::ceiling
