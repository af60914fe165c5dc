// copy_frame: the frame every transpose is measured against. The same tiling, block shape and bytes as
// a transpose (32x32 tiles, 32x8 threads, four rows per thread: the layout of NVIDIA's "Efficient
// matrix transpose" post), but out[r][c] = in[r][c]: both the read and the write are row-wise and
// coalesced. No transpose can move its N*N floats faster than this copy does.
#include <cstddef>

#include "bank_conflicts/bank_conflicts.cuh"
#include "common/cuda_check.cuh"

namespace gpuperf::bank_conflicts {
namespace {

constexpr int kBlockRows = 8;

__global__ void __launch_bounds__(kTileDim * kBlockRows) copy_tile_kernel(const float* __restrict__ in,
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
    if (row < n && col < n) out[static_cast<std::size_t>(row) * n + col] = v[k];
  }
}

}  // namespace

void copy_frame(const Args& args, cudaStream_t stream) {
  if (args.n <= 0) return;
  const dim3 grid(tiles_per_side(args.n), tiles_per_side(args.n));
  copy_tile_kernel<<<grid, dim3(kTileDim, kBlockRows), 0, stream>>>(args.in, args.out, args.n);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::bank_conflicts
