#pragma once
// The two variants that go straight through global memory, no shared memory: copy_frame (the upper
// bound) and naive_global_transpose. One kernel, the destination index its only difference, so that
// the measured gap between the two is the write pattern alone. 32x32 tiles, 32x8 threads, four rows per
// thread (the layout of NVIDIA's "Efficient matrix transpose" post).

#include <cstddef>

#include "bank_conflicts/bank_conflicts.cuh"
#include "common/cuda_check.cuh"

namespace gpuperf::bank_conflicts {

constexpr int kGlobalBlockRows = 8;

template <bool kTranspose>
__global__ void __launch_bounds__(kTileDim * kGlobalBlockRows)
    through_global_kernel(const float* __restrict__ in, float* __restrict__ out, int n) {
  constexpr int kPerThread = kTileDim / kGlobalBlockRows;
  const int col = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim + static_cast<int>(threadIdx.y);
  // All four loads in flight before the first store.
  float v[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int row = row0 + k * kGlobalBlockRows;
    v[k] = row < n && col < n ? in[static_cast<std::size_t>(row) * n + col] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int row = row0 + k * kGlobalBlockRows;
    if (row >= n || col >= n) continue;
    const std::size_t to = kTranspose ? static_cast<std::size_t>(col) * n + row : static_cast<std::size_t>(row) * n + col;
    out[to] = v[k];
  }
}

template <bool kTranspose>
void launch_through_global(const Args& args, cudaStream_t stream) {
  if (args.n <= 0) return;
  const dim3 grid(tiles_per_side(args.n), tiles_per_side(args.n));
  through_global_kernel<kTranspose><<<grid, dim3(kTileDim, kGlobalBlockRows), 0, stream>>>(args.in, args.out, args.n);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::bank_conflicts
