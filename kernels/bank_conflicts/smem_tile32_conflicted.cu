// smem_tile32_conflicted (seed's `float A[32][32]`): vs naive_global_transpose, the block stages a 32x32
// tile in shared memory so that the global write is row-wise and coalesced too. 32x32 threads, one
// element each. But the transposed tile is read from shared memory by column: with a row pitch of 32
// words every element of a column sits in the same bank, and each warp's read is a 32-way bank
// conflict (32 shared-memory wavefronts for one instruction).
#include "bank_conflicts/transpose_through_tile.cuh"

namespace gpuperf::bank_conflicts {

void smem_tile32_conflicted(const Args& args, cudaStream_t stream) {
  launch_transpose_through_tile<ConflictedLayout, kTileDim>(args, stream);
}

}  // namespace gpuperf::bank_conflicts
