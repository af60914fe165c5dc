#pragma once
// One checking macro for every CUDA runtime and library call: a failure throws with the file, the line
// and the call's text, so no error is silently dropped and a failing run says where it failed.

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gpuperf {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_cuda_error(const char* call, const char* file, int line, const std::string& what);

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    throw_cuda_error(call, file, line, std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status));
  }
}

// For destructors, which must not throw: report and carry on.
void warn_cuda(cudaError_t status, const char* call, const char* file, int line) noexcept;

}  // namespace gpuperf

#define GPUPERF_CUDA_CHECK(call) ::gpuperf::check_cuda((call), #call, __FILE__, __LINE__)
#define GPUPERF_CUDA_CHECK_NOTHROW(call) ::gpuperf::warn_cuda((call), #call, __FILE__, __LINE__)
// After every kernel launch: catches bad launch configurations at the launch site.
#define GPUPERF_CHECK_LAUNCH() ::gpuperf::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
