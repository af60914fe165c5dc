// smem_tile32_padded_block32x8: vs smem_tile32_padded, 32x8 threads per block instead of 32x32, each
// thread moving four elements of the tile (rows ty, ty+8, ty+16, ty+24): the layout of NVIDIA's
// "Efficient matrix transpose" post (TILE_DIM 32, BLOCK_ROWS 8). Four independent loads in flight per
// thread before the barrier, a quarter of the threads to schedule and index, and a 256-thread barrier
// instead of a 1024-thread one.
#include "bank_conflicts/transpose_through_tile.cuh"

namespace gpuperf::bank_conflicts {

void smem_tile32_padded_block32x8(const Args& args, cudaStream_t stream) {
  launch_transpose_through_tile<PaddedLayout, 8>(args, stream);
}

}  // namespace gpuperf::bank_conflicts
