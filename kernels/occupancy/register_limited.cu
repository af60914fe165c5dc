// register_limited: the work of block_size_sweep at 256 threads per block (one fma per element, one
// scalar load and store), in a kernel that is allocated about 120 registers per thread instead of
// about 10. An SM has 65536 registers: 256 threads x ~120 registers leave room for 2 blocks, 16 of its
// 64 warps (25% occupancy), where the plain kernel gets 8 blocks (100%).
//
// How the registers are forced: register allocation is static, per kernel, the most that any path
// needs. The kernel has a second path, taken only when `take_register_path` is non-zero (the launcher
// passes 0, which the compiler cannot know): a chain of kLiveValues values, each computed from the
// previous one, then summed in pairs first-with-last, so that all of them are live at once when the
// sum starts. No path spills (ptxas -v: 0 bytes stack frame). At run time every thread executes the
// same instructions as the plain kernel: only residency differs.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "occupancy/occupancy.cuh"

namespace gpuperf::occupancy {
namespace {

// Values held live at once on the register path; with the indices and pointers, ~120 registers.
constexpr int kLiveValues = 112;

__global__ void __launch_bounds__(kLimitedBlock) axpb_register_heavy_kernel(const float* __restrict__ x,
                                                                            float* __restrict__ y, std::int64_t n,
                                                                            float a, float b,
                                                                            int take_register_path) {
  const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[i];
  float result = fmaf(a, v, b);
  if (take_register_path != 0) {
    float h[kLiveValues];
    h[0] = v;
#pragma unroll
    for (int k = 1; k < kLiveValues; ++k) h[k] = fmaf(h[k - 1], a, b);
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < kLiveValues; ++k) sum = fmaf(h[k], h[kLiveValues - 1 - k], sum);
    result = sum;
  }
  y[i] = result;
}

}  // namespace

Residency axpb_register_limited_prepare(int block) {
  return residency_of(reinterpret_cast<const void*>(axpb_register_heavy_kernel), block, 0);
}

void axpb_register_limited(const AxpbArgs& args, int block, cudaStream_t stream) {
  if (args.n <= 0) return;
  const std::int64_t blocks = (args.n + block - 1) / block;
  axpb_register_heavy_kernel<<<static_cast<unsigned>(blocks), block, 0, stream>>>(args.x, args.y, args.n, args.a,
                                                                                  args.b, 0);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::occupancy
