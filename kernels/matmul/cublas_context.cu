// The cuBLAS handle each matmul instance owns, and the size check every launcher runs.
#include <climits>
#include <stdexcept>
#include <string>

#include "common/cublas_check.h"
#include "matmul/matmul.cuh"

namespace gpuperf::matmul {
namespace {

// cuBLAS's recommended workspace on Hopper [bytes].
constexpr std::size_t kCublasWorkspaceBytes = std::size_t{32} << 20;

}  // namespace

CublasContext::CublasContext() : workspace_(kCublasWorkspaceBytes) {
  GPUPERF_CUBLAS_CHECK(cublasCreate(&handle_));
  // Default math: cublasSgemm stays FP32 (no TF32); the TF32 variant asks for TF32 per call.
  GPUPERF_CUBLAS_CHECK(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH));
}

CublasContext::~CublasContext() {
  if (handle_ != nullptr) GPUPERF_CUBLAS_CHECK_NOTHROW(cublasDestroy(handle_));
}

cublasHandle_t CublasContext::on(cudaStream_t stream) {
  GPUPERF_CUBLAS_CHECK(cublasSetStream(handle_, stream));
  GPUPERF_CUBLAS_CHECK(cublasSetWorkspace(handle_, workspace_.get(), workspace_.bytes()));
  return handle_;
}

void check_sizes(const Args& args) {
  const auto fits = [](int rows, int cols) {
    return rows > 0 && cols > 0 && static_cast<long long>(rows) * cols <= INT_MAX;
  };
  if (!fits(args.m, args.k) || !fits(args.k, args.n) || !fits(args.m, args.n)) {
    throw std::invalid_argument("matmul: unsupported size m=" + std::to_string(args.m) + " n=" +
                                std::to_string(args.n) + " k=" + std::to_string(args.k));
  }
}

}  // namespace gpuperf::matmul
