// wave_sweep (seed 002, "waves and the tail effect": 12 blocks on 8 SMs run at 75% utilisation):
// blocks of fixed, compute-bound work (kWaveIterations dependent FMAs on each of kWaveChains
// independent chains per thread, 1024 threads), exactly one block per SM: 1024 threads alone would
// allow two, so each block also takes 128 KiB of dynamic shared memory, more than half of an SM's.
// The registry launches w waves of blocks (w * SM count) for w from 1.0 to 3.0: a block-wave takes
// the same time however many SMs it occupies, so the time steps at each whole wave and 1.25 waves
// cost about as much as 2.
//
// Arithmetic is exact: values are integers below 2^24 and the multiplier is 1 (a kernel argument, so
// the compiler still emits every FMA), so the CPU's double-precision recurrence must match bit for bit.
#include <cstddef>

#include "common/cuda_check.cuh"
#include "occupancy/occupancy.cuh"

namespace gpuperf::occupancy {
namespace {

__global__ void __launch_bounds__(kWaveThreads, 1) fixed_work_kernel(const WaveArgs args) {
  extern __shared__ float staging[];
  const int t = static_cast<int>(threadIdx.x);
  const float first = static_cast<float>(args.start[t] + static_cast<int>(blockIdx.x));
  float v[kWaveChains];
#pragma unroll
  for (int c = 0; c < kWaveChains; ++c) v[c] = first + static_cast<float>(c);
#pragma unroll 16
  for (int it = 0; it < kWaveIterations; ++it) {
#pragma unroll
    for (int c = 0; c < kWaveChains; ++c) v[c] = fmaf(v[c], args.multiplier, args.increment[c]);
  }
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < kWaveChains; ++c) sum += v[c];
  // Through shared memory to another thread's output slot: the block's results leave after a barrier.
  staging[t] = sum;
  __syncthreads();
  args.out[static_cast<std::size_t>(blockIdx.x) * kWaveThreads + t] = staging[kWaveThreads - 1 - t];
}

}  // namespace

Residency fixed_work_prepare() {
  GPUPERF_CUDA_CHECK(cudaFuncSetAttribute(fixed_work_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(kWaveSharedBytes)));
  GPUPERF_CUDA_CHECK(cudaFuncSetAttribute(fixed_work_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
  return residency_of(reinterpret_cast<const void*>(fixed_work_kernel), kWaveThreads, kWaveSharedBytes);
}

void fixed_work_blocks(const WaveArgs& args, cudaStream_t stream) {
  if (args.blocks <= 0) return;
  fixed_work_kernel<<<args.blocks, kWaveThreads, kWaveSharedBytes, stream>>>(args);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::occupancy
