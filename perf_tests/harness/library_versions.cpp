#include "harness/library_versions.h"

#include <cublas_v2.h>

namespace gpuperf {

std::map<std::string, std::string> library_versions(const std::string& cuda_runtime) {
  int major = 0, minor = 0, patch = 0;
  std::map<std::string, std::string> versions = {{"cuda_runtime", cuda_runtime}};
  if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS) {
    versions["cublas"] = std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  }
  return versions;
}

}  // namespace gpuperf
