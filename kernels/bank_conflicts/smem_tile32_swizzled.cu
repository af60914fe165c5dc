// smem_tile32_swizzled (ours): vs smem_tile32_padded, no padding: element (r, c) is stored at column
// c ^ r of a plain 32x32 tile. Row writes and column reads both touch 32 different banks, and the tile
// keeps its power-of-two size (4096 bytes), which is what lets swizzled layouts be used with vector
// and TMA accesses where a pitch of 33 words cannot. Same 32x32 threads, one element each.
#include "bank_conflicts/transpose_through_tile.cuh"

namespace gpuperf::bank_conflicts {

void smem_tile32_swizzled(const Args& args, cudaStream_t stream) {
  launch_transpose_through_tile<SwizzledLayout, kTileDim>(args, stream);
}

}  // namespace gpuperf::bank_conflicts
