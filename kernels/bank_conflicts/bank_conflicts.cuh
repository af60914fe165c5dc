#pragma once
// Bank-conflicts family: the transpose of a square N x N float matrix, row-major (seeds 000/001,
// "shared-memory bank conflicts": `float A[32][32]` read by column vs `float A[32][33]`).
//
// Every variant moves the same bytes: N*N floats read, N*N floats written. copy_frame is a plain copy
// with the same footprint and the same tiling, the ceiling a transpose can reach; naive_global_transpose
// writes columns straight to global memory; the smem_tile32_* variants stage a 32x32 tile in shared
// memory so that both the global read and the global write are row-wise (coalesced), and differ only
// in how the tile is laid out in the 32 banks (and, for *_block32x8, how many elements each thread moves).
//
// Every kernel checks bounds, so N need not be a multiple of 32.

#include <cuda_runtime.h>

namespace gpuperf::bank_conflicts {

// Side of the square tile one thread block transposes (one warp-width: 32 banks of 4-byte words).
constexpr int kTileDim = 32;

struct Args {
  const float* in;  // N x N, row-major
  float* out;       // N x N, row-major: out[c][r] = in[r][c] (copy_frame: out[r][c] = in[r][c])
  int n;
};

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// Blocks of a kTileDim x kTileDim tiling of an n x n matrix, per side.
inline unsigned tiles_per_side(int n) { return static_cast<unsigned>((n + kTileDim - 1) / kTileDim); }

// Every variant's launcher, one per line of variants.def.
#define GPUPERF_VARIANT(name, transposes) void name(const Args& args, cudaStream_t stream);
#include "bank_conflicts/variants.def"
#undef GPUPERF_VARIANT

}  // namespace gpuperf::bank_conflicts
