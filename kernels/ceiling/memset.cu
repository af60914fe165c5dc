// memset: the write ceiling, as the driver does it (cudaMemsetAsync). Every byte is written once and
// none is read, so bytes = 4n.
#include "ceiling/ceiling.cuh"
#include "common/cuda_check.cuh"

namespace gpuperf::ceiling {

void memset_bytes(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  GPUPERF_CUDA_CHECK(
      cudaMemsetAsync(args.out, args.fill_byte, static_cast<std::size_t>(args.n) * sizeof(int), stream));
}

}  // namespace gpuperf::ceiling
