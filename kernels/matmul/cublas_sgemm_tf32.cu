// cublas_sgemm_tf32: the library yardstick on tensor cores. FP32 in and out, products in TF32 (10-bit
// mantissa), accumulation in FP32: cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32, so the handle's
// math mode (FP32 for the reference) is left alone. Row-major handled as in cublas_sgemm.
#include "common/cublas_check.h"
#include "matmul/matmul.cuh"

namespace gpuperf::matmul {

void cublas_sgemm_tf32(const Args& args, cudaStream_t stream) {
  check_sizes(args);
  const float alpha = 1.0f;
  const float beta = 0.0f;
  GPUPERF_CUBLAS_CHECK(cublasGemmEx(args.cublas->on(stream), CUBLAS_OP_N, CUBLAS_OP_N, args.n, args.m, args.k, &alpha,
                                    args.b, CUDA_R_32F, args.n, args.a, CUDA_R_32F, args.k, &beta, args.c, CUDA_R_32F,
                                    args.n, CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT));
}

}  // namespace gpuperf::matmul
