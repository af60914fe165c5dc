// device_copy: the copy ceiling, as the driver does it (cudaMemcpyAsync device to device). Every byte
// is read once and written once, so bytes = 2 * 4n.
#include "ceiling/ceiling.cuh"
#include "common/cuda_check.cuh"

namespace gpuperf::ceiling {

void device_copy(const Args& args, cudaStream_t stream) {
  if (args.n == 0) return;
  GPUPERF_CUDA_CHECK(cudaMemcpyAsync(args.out, args.in, static_cast<std::size_t>(args.n) * sizeof(int),
                                     cudaMemcpyDeviceToDevice, stream));
}

}  // namespace gpuperf::ceiling
