#pragma once
// What identifies a GPU and the platform it measured on: the harness queries it (harness/gpu_info.h) and
// writes it into the results' context (results_context.h), the gate reads it from there and keeps it in a
// baseline (gate/inputs/baseline.h). One struct, so that the three cannot disagree on a field.

#include <optional>
#include <string>

namespace gpuperf::formats {

struct GpuIdentity {
  std::string name;                     // "NVIDIA H200", as nvidia-smi prints it
  std::string slug;                     // "nvidia-h200": names the baseline file, baselines/<slug>.json
  std::string uuid;                     // "GPU-5c6e...": one physical card; "" when unknown
  std::string compute_capability;       // "9.0"
  std::optional<long long> sm_count;    // streaming multiprocessors: 132; absent when unknown
  std::optional<long long> memory_mib;  // device memory: 143771 [MiB]; absent when unknown
  std::string driver;                   // "580.159.04" (NVML), else the CUDA driver API's "CUDA 13.0"
  std::string cuda_runtime;             // "13.0"
};

inline bool operator==(const GpuIdentity& a, const GpuIdentity& b) {
  return a.name == b.name && a.slug == b.slug && a.uuid == b.uuid && a.compute_capability == b.compute_capability &&
         a.sm_count == b.sm_count && a.memory_mib == b.memory_mib && a.driver == b.driver &&
         a.cuda_runtime == b.cuda_runtime;
}
inline bool operator!=(const GpuIdentity& a, const GpuIdentity& b) { return !(a == b); }

}  // namespace gpuperf::formats
