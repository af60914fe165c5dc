#pragma once
// The tiled transpose every smem_tile32_* variant instantiates: a block reads a 32x32 tile row by row
// (coalesced), stores it in shared memory, synchronises, and writes the transposed tile row by row
// (coalesced) by reading the shared tile column by column. What the variants change is the layout of
// the tile in shared memory (where element (row, col) lives, hence which bank a column read hits) and
// the number of rows of threads per block (32: one element per thread; 8: four per thread).
//
// Banks: shared memory has 32 banks of 4-byte words; word w lives in bank w % 32. A warp is the 32
// threads of one row of the block (threadIdx.x = 0..31, blockDim.x = 32), so in the read phase the
// warp's 32 threads read tile(threadIdx.x, c) for one c: 32 different rows of one column.

#include <cstddef>

#include "bank_conflicts/bank_conflicts.cuh"
#include "common/cuda_check.cuh"

namespace gpuperf::bank_conflicts {

// tile[32][32], seed's `float A[32][32]`: (r, c) at word 32r + c, bank c. A column read puts all 32
// threads of the warp on one bank: a 32-way conflict, 32 shared-memory transactions instead of one.
struct ConflictedLayout {
  static constexpr int kWords = kTileDim * kTileDim;
  __device__ static int word(int row, int col) { return row * kTileDim + col; }
};

// tile[32][33], seed's `float A[32][33]`: (r, c) at word 33r + c, bank (r + c) % 32. A column read hits
// 32 different banks; a row write still does. Costs one unused word per row (32 words per tile).
struct PaddedLayout {
  static constexpr int kRowPitch = kTileDim + 1;
  static constexpr int kWords = kTileDim * kRowPitch;
  __device__ static int word(int row, int col) { return row * kRowPitch + col; }
};

// tile[32][32] with the column index XOR-swizzled by the row: (r, c) at word 32r + (c ^ r), bank c ^ r.
// For a fixed column c and r = 0..31, c ^ r takes every value 0..31 once (a column read: no conflict);
// for a fixed row r and c = 0..31, likewise (a row write: no conflict). No padding: the tile stays
// 4096 bytes, the layout the CUTLASS/CuTe swizzles generalise.
struct SwizzledLayout {
  static constexpr int kWords = kTileDim * kTileDim;
  __device__ static int word(int row, int col) { return row * kTileDim + (col ^ row); }
};

// Block (bx, by) transposes the input tile whose top-left element is (32*by, 32*bx) into the output
// tile at (32*bx, 32*by). Threads: 32 x kBlockRows; each moves kTileDim / kBlockRows elements.
template <class Layout, int kBlockRows>
__global__ void __launch_bounds__(kTileDim * kBlockRows) transpose_through_tile_kernel(const float* __restrict__ in,
                                                                                       float* __restrict__ out, int n) {
  static_assert(kTileDim % kBlockRows == 0, "the block's rows must divide the tile");
  __shared__ float tile[Layout::kWords];
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);

  // Read: tile row r holds input row 32*by + r; consecutive threads read consecutive columns. All of
  // a thread's loads are issued before its first shared-memory store (outside the matrix: 0, a value
  // that is never written out).
  constexpr int kPerThread = kTileDim / kBlockRows;
  const int in_col = static_cast<int>(blockIdx.x) * kTileDim + tx;
  const int in_row0 = static_cast<int>(blockIdx.y) * kTileDim + ty;
  float v[kPerThread];
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int in_row = in_row0 + k * kBlockRows;
    v[k] = in_row < n && in_col < n ? in[static_cast<std::size_t>(in_row) * n + in_col] : 0.0f;
  }
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) tile[Layout::word(ty + k * kBlockRows, tx)] = v[k];
  __syncthreads();

  // Write: output row 32*bx + c is input column 32*bx + c, i.e. tile column c; consecutive threads
  // write consecutive output columns = consecutive tile rows. Element (out_row, out_col) was loaded
  // iff in_row = out_col < n and in_col = out_row < n: the same bounds, so no unloaded word is written.
  const int out_col = static_cast<int>(blockIdx.y) * kTileDim + tx;
  const int out_row0 = static_cast<int>(blockIdx.x) * kTileDim + ty;
#pragma unroll
  for (int k = 0; k < kPerThread; ++k) {
    const int out_row = out_row0 + k * kBlockRows;
    const float value = tile[Layout::word(tx, ty + k * kBlockRows)];
    if (out_row < n && out_col < n) out[static_cast<std::size_t>(out_row) * n + out_col] = value;
  }
}

template <class Layout, int kBlockRows>
void launch_transpose_through_tile(const Args& args, cudaStream_t stream) {
  if (args.n <= 0) return;
  const dim3 grid(tiles_per_side(args.n), tiles_per_side(args.n));
  const dim3 block(kTileDim, kBlockRows);
  transpose_through_tile_kernel<Layout, kBlockRows><<<grid, block, 0, stream>>>(args.in, args.out, args.n);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::bank_conflicts
