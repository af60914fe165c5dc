// naive (seed 000/001): one thread per element of C, every operand read from global memory; the
// baseline every other variant is measured against. Same kernel as the seed's, with K as the inner
// dimension (the seed names it N).
#include "common/cuda_check.cuh"
#include "matmul/matmul.cuh"

namespace gpuperf::matmul {
namespace {

constexpr int kBlock = 16;  // 16 x 16 threads, as the seed's tiled kernel

__global__ void naive_kernel(const float* a, const float* b, float* c, int m, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
  }
}

}  // namespace

void naive(const Args& args, cudaStream_t stream) {
  check_sizes(args);
  const dim3 block(kBlock, kBlock);
  const dim3 grid(ceil_div(args.n, kBlock), ceil_div(args.m, kBlock));
  naive_kernel<<<grid, block, 0, stream>>>(args.a, args.b, args.c, args.m, args.n, args.k);
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::matmul
