// smem_tile32_padded (seed's `float A[32][33]`): vs smem_tile32_conflicted, one padding word per tile
// row. The row pitch of 33 words shifts each row by one bank, so a column's 32 elements sit in 32
// different banks and the column read is conflict-free. Everything else (32x32 threads, one element
// each, coalesced global reads and writes) is unchanged.
#include "bank_conflicts/transpose_through_tile.cuh"

namespace gpuperf::bank_conflicts {

void smem_tile32_padded(const Args& args, cudaStream_t stream) {
  launch_transpose_through_tile<PaddedLayout, kTileDim>(args, stream);
}

}  // namespace gpuperf::bank_conflicts
