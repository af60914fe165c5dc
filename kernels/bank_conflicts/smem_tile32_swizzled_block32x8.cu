// smem_tile32_swizzled_block32x8 (ours): the XOR-swizzled tile of smem_tile32_swizzled with the
// 32x8-thread, four-elements-per-thread blocks of smem_tile32_padded_block32x8.
#include "bank_conflicts/transpose_through_tile.cuh"

namespace gpuperf::bank_conflicts {

void smem_tile32_swizzled_block32x8(const Args& args, cudaStream_t stream) {
  launch_transpose_through_tile<SwizzledLayout, 8>(args, stream);
}

}  // namespace gpuperf::bank_conflicts
