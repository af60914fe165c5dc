#pragma once
// Which GPU this process runs on: the facts a baseline is keyed by and a report must name.

#include <optional>
#include <string>

namespace gpuperf {

struct GpuInfo {
  std::string name;                // "NVIDIA H200", as nvidia-smi prints it
  std::string slug;                // "nvidia-h200": the baseline file's name, baselines/<slug>.json
  std::string uuid;                // "GPU-5c6e...": identifies one physical card (the run lock's key)
  std::string compute_capability;  // "9.0"
  int sm_count = 0;
  long memory_mib = 0;             // [MiB]
  long l2_bytes = 0;               // [bytes]
  std::string driver_version;      // "580.159.04" (NVML), else the CUDA driver API version
  std::string cuda_runtime;        // "13.0"
};

// Lower case, every run of non-alphanumerics becomes one '-': "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3".
std::string gpu_slug(const std::string& name);

// The current device, or nullopt with `why` set when there is no usable CUDA device.
std::optional<GpuInfo> query_gpu(std::string& why);

}  // namespace gpuperf
