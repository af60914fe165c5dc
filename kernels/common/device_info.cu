#include "common/device_info.h"

#include "common/cuda_check.cuh"

namespace gpuperf {
namespace {

// Compiled for every architecture of the build, like every kernel: if the device cannot load it, it
// can load none of them.
__global__ void probe_kernel() {}

int current_device() {
  int device = 0;
  GPUPERF_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

}  // namespace

DeviceCapabilities device_capabilities() {
  const int device = current_device();
  int major = 0, minor = 0, smem = 0;
  GPUPERF_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GPUPERF_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  GPUPERF_CUDA_CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return {major * 10 + minor, smem};
}

std::string no_kernel_image_message(int cc, const std::string& built_for) {
  const std::string sm = std::to_string(cc);
  return "this build has no code for this GPU (compute capability " + std::to_string(cc / 10) + "." +
         std::to_string(cc % 10) + "; built for CMAKE_CUDA_ARCHITECTURES=" + built_for +
         "): configure with -DCMAKE_CUDA_ARCHITECTURES=native on this host (or add " + sm +
         ") and build again";
}

std::string missing_kernel_image() {
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, probe_kernel);
  if (status == cudaSuccess) return "";
  (void)cudaGetLastError();  // clear it
  if (status != cudaErrorNoKernelImageForDevice && status != cudaErrorInvalidDeviceFunction) {
    return std::string("could not load this build's code on the GPU: ") + cudaGetErrorString(status);
  }
  return no_kernel_image_message(device_capabilities().compute_capability, GPUPERF_CUDA_ARCHITECTURES);
}

int device_sm_count() {
  static const int count = [] {
    int sms = 0;
    GPUPERF_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, current_device()));
    return sms;
  }();
  return count;
}

}  // namespace gpuperf
