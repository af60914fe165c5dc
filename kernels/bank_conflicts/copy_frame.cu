// copy_frame: the frame every transpose is measured against. The same tiling, block shape and bytes as
// a transpose (32x32 tiles, 32x8 threads, four rows per thread: the layout of NVIDIA's "Efficient
// matrix transpose" post), but out[r][c] = in[r][c]: both the read and the write are row-wise and
// coalesced. No transpose can move its N*N floats faster than this copy does.
#include "bank_conflicts/through_global.cuh"

namespace gpuperf::bank_conflicts {

void copy_frame(const Args& args, cudaStream_t stream) { launch_through_global<false>(args, stream); }

}  // namespace gpuperf::bank_conflicts
