#include "harness/gpu_info.h"

#include <cstdio>

#include <cuda_runtime.h>

#include "formats/names.h"
#include "harness/nvml.h"

namespace gpuperf {

std::string gpu_slug(const std::string& name) { return formats::gpu_slug(name); }

std::optional<GpuInfo> query_gpu(std::string& why) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    why = status != cudaSuccess ? std::string("no CUDA device (") + cudaGetErrorString(status) + ")"
                                : "no CUDA device";
    return std::nullopt;
  }
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    why = "no CUDA device (cannot read the device's properties)";
    return std::nullopt;
  }
  GpuInfo info;
  info.name = prop.name;
  info.slug = gpu_slug(info.name);
  char uuid[64];
  const auto* u = reinterpret_cast<const unsigned char*>(prop.uuid.bytes);
  std::snprintf(uuid, sizeof uuid, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
  info.uuid = uuid;
  info.compute_capability = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  info.sm_count = prop.multiProcessorCount;
  info.memory_mib = static_cast<long long>(prop.totalGlobalMem >> 20);
  info.l2_bytes = prop.l2CacheSize;
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  info.cuda_runtime = std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
  int driver = 0;
  cudaDriverGetVersion(&driver);
  info.driver = "CUDA " + std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);
  return info;
}

}  // namespace gpuperf
