#include "common/cuda_check.cuh"

#include <cstdio>

namespace gpuperf {

void throw_cuda_error(const char* call, const char* file, int line, const std::string& what) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + what);
}

void warn_cuda(cudaError_t status, const char* call, const char* file, int line) noexcept {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cudaGetErrorString(status));
  }
}

}  // namespace gpuperf
