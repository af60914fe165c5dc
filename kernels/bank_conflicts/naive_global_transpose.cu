// naive_global_transpose: out[c][r] = in[r][c] straight through global memory, no shared memory.
// Consecutive threads read consecutive columns of one input row (coalesced: one 128-byte line per
// warp) but write one column of the output: 32 different rows, 32 separate 32-byte sectors of which
// 4 bytes each are used. The write side is uncoalesced; what it costs depends on how much of those
// partial sectors L2 can merge before they reach DRAM. Same 32x8-thread, four-rows-per-thread layout
// as copy_frame, so the difference between the two is the write pattern alone.
#include <cstddef>

#include "bank_conflicts/bank_conflicts.cuh"
#include "common/cuda_check.cuh"

namespace gpuperf::bank_conflicts {
namespace {

constexpr int kBlockRows = 8;

__global__ void __launch_bounds__(kTileDim * kBlockRows) naive_transpose_kernel(const float* __restrict__ in,
                                                                                float* __restrict__ out, int n) {
  constexpr int kPerThread = kTileDim / kBlockRows;
  const int col = static_cast<int>(blockIdx.x) * kTileDim + static_cast<int>(threadIdx.x);
  const int row0 = static_cast<int>(blockIdx.y) * kTileDim + static_cast<int>(threadIdx.y);
  // All four loads in flight before the first store.
  float v[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int row = row0 + k * kBlockRows;
    v[k] = row < n && col < n ? in[static_cast<std::size_t>(row) * n + col] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int row = row0 + k * kBlockRows;
    if (row < n && col < n) out[static_cast<std::size_t>(col) * n + row] = v[k];
  }
}

}  // namespace

void naive_global_transpose(const Args& args, cudaStream_t stream) {
  if (args.n <= 0) return;
  const dim3 grid(tiles_per_side(args.n), tiles_per_side(args.n));
  naive_transpose_kernel<<<grid, dim3(kTileDim, kBlockRows), 0, stream>>>(args.in, args.out, args.n);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::bank_conflicts
