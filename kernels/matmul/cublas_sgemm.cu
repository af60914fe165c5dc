// cublas_sgemm: the library yardstick in FP32 (CUDA cores, no TF32), and the reference at sizes too
// large for the CPU. cuBLAS is column-major; a row-major matrix is its transpose in column-major, so
// C = A * B (row-major) is computed as C^T = B^T * A^T (column-major): swap the operands, no transposes.
#include "common/cublas_check.h"
#include "matmul/matmul.cuh"

namespace gpuperf::matmul {

void cublas_sgemm(const Args& args, cudaStream_t stream) {
  check_sizes(args);
  const float alpha = 1.0f;
  const float beta = 0.0f;
  GPUPERF_CUBLAS_CHECK(cublasSgemm(args.cublas->on(stream), CUBLAS_OP_N, CUBLAS_OP_N, args.n, args.m, args.k, &alpha,
                                   args.b, args.n, args.a, args.k, &beta, args.c, args.n));
}

}  // namespace gpuperf::matmul
