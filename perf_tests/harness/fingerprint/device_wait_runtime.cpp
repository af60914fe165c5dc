#include <cuda_runtime.h>

#include "harness/fingerprint/device_wait.h"

namespace gpuperf::fingerprint {

std::string wait_for_current_device() {
  const cudaError_t synchronized = cudaDeviceSynchronize();
  if (synchronized == cudaSuccess) return "";
  return std::string("CUDA error in cudaDeviceSynchronize: ") + cudaGetErrorName(synchronized) + ": " +
         cudaGetErrorString(synchronized);
}

}  // namespace gpuperf::fingerprint
