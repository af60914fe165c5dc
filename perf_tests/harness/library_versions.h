#pragma once
// The libraries whose code the cases launch besides ours, by the version loaded in this process: part of
// every fingerprint (formats/fingerprint.h), so the correctness and benchmark programs must name them alike.

#include <map>
#include <string>

namespace gpuperf {

// Library -> version: "cuda_runtime" -> cuda_runtime (GpuInfo::cuda_runtime), "cublas" -> "13.0.0" when
// cuBLAS answers. CUB is compiled into our kernels: its code is in their SASS hashes.
std::map<std::string, std::string> library_versions(const std::string& cuda_runtime);

}  // namespace gpuperf
