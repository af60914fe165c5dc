// naive_global_transpose: out[c][r] = in[r][c] straight through global memory, no shared memory.
// Consecutive threads read consecutive columns of one input row (coalesced: one 128-byte line per
// warp) but write one column of the output: 32 different rows, 32 separate 32-byte sectors of which
// 4 bytes each are used. The write side is uncoalesced; what it costs depends on how much of those
// partial sectors L2 can merge before they reach DRAM. Same 32x8-thread, four-rows-per-thread layout
// as copy_frame, so the difference between the two is the write pattern alone.
#include "bank_conflicts/through_global.cuh"

namespace gpuperf::bank_conflicts {

void naive_global_transpose(const Args& args, cudaStream_t stream) { launch_through_global<true>(args, stream); }

}  // namespace gpuperf::bank_conflicts
