#include "reduction/reduction.cuh"

#include "common/cuda_check.cuh"

namespace gpuperf::reduction {

Workspace::Workspace(std::int64_t n)
    : partials_a(static_cast<std::size_t>(blocks_for_tiles(n, 1) + 1)),
      partials_b(static_cast<std::size_t>(blocks_for_tiles(n, 1) + 1)),
      cub_storage(cub_storage_bytes(n)),
      blocks_done(1) {
  GPUPERF_CUDA_CHECK(cudaMemset(blocks_done.get(), 0, blocks_done.bytes()));
}

void reduce_in_passes(const Pass& pass, const Args& args, cudaStream_t stream) {
  const int* src = args.in;
  std::int64_t n = args.n;
  int* scratch[2] = {args.workspace->partials_a.get(), args.workspace->partials_b.get()};
  for (int round = 0;; ++round) {
    const std::int64_t blocks = pass.blocks_for(n);
    int* dst = blocks == 1 ? args.out : scratch[round % 2];
    pass.launch(src, n, dst, blocks, stream);
    GPUPERF_CHECK_LAUNCH();
    if (blocks == 1) return;
    src = dst;
    n = blocks;
  }
}

}  // namespace gpuperf::reduction
