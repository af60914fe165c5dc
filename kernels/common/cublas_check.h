#pragma once
// GPUPERF_CUBLAS_CHECK: the cuBLAS twin of GPUPERF_CUDA_CHECK. A failing cuBLAS call throws
// gpuperf::CudaError with the file, the line, the call's text and the status name, e.g.
//   matmul/cublas_sgemm.cu:21: cublasSgemm(...) failed: CUBLAS_STATUS_INVALID_VALUE: an invalid value ...
// Any family that calls cuBLAS includes this header and links CUDA::cublas.

#include <cublas_v2.h>

#include <cstdio>
#include <string>

#include "common/cuda_check.cuh"

namespace gpuperf {

inline void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw_cuda_error(call, file, line, std::string(cublasGetStatusName(status)) + ": " + cublasGetStatusString(status));
  }
}

// For destructors, which must not throw: report and carry on.
inline void warn_cublas(cublasStatus_t status, const char* call, const char* file, int line) noexcept {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, call, cublasGetStatusName(status));
  }
}

}  // namespace gpuperf

#define GPUPERF_CUBLAS_CHECK(call) ::gpuperf::check_cublas((call), #call, __FILE__, __LINE__)
#define GPUPERF_CUBLAS_CHECK_NOTHROW(call) ::gpuperf::warn_cublas((call), #call, __FILE__, __LINE__)
