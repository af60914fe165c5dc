#pragma once
// Matmul family: FP32 row-major C[M x N] = A[M x K] * B[K x N] (seeds 000/001: naive vs 16x16
// shared-memory tiles vs cuBLAS), cuBLAS in FP32 and TF32 as the library variants, and two of our own:
// a register-blocked FP32 kernel with float4 loads and a TF32 tensor-core kernel (mma.sync).
//
// The timed region is the same for every variant: A and B on the device -> C on the device.
// The seed calls its sizes (M, N, K) with A M x N and B N x K; here K is always the inner dimension.

#include <cstddef>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "common/device_buffer.cuh"
#include "common/registry.h"

namespace gpuperf::matmul {

// A cuBLAS handle and its workspace, owned by one instance: created in make(), outside the timed region.
class CublasContext {
 public:
  CublasContext();
  ~CublasContext();
  CublasContext(const CublasContext&) = delete;
  CublasContext& operator=(const CublasContext&) = delete;

  // The handle bound to stream. cublasSetStream resets the workspace to cuBLAS's own pool, so ours is
  // bound again: cuBLAS then never allocates inside the timed region.
  cublasHandle_t on(cudaStream_t stream);

 private:
  cublasHandle_t handle_ = nullptr;
  DeviceBuffer<unsigned char> workspace_;
};

struct Args {
  const float* a;  // M x K, row-major
  const float* b;  // K x N, row-major
  float* c;        // M x N, row-major
  int m;
  int n;
  int k;
  CublasContext* cublas;  // for the library variants
};

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// Throws std::invalid_argument when a size is not positive or a matrix has more than INT_MAX elements
// (the kernels index with int).
void check_sizes(const Args& args);

// Ceiling division for grid sizes.
__host__ __device__ constexpr int ceil_div(int x, int y) { return (x + y - 1) / y; }

// Every variant's launcher, one per line of variants.def (cublas_sgemm is also the reference at sizes
// where the CPU would be too slow).
#define GPUPERF_VARIANT(name, tf32, rough_tflops, needs) void name(const Args& args, cudaStream_t stream);
#include "matmul/variants.def"
#undef GPUPERF_VARIANT

// What tf32_mma_tensor_core needs of the GPU (its file says why).
extern const Requirements tf32_mma_tensor_core_needs;

// Double-precision C = A * B on the CPU, rows spread over std::thread workers.
void cpu_reference(const float* a, const float* b, double* c, int m, int n, int k);

}  // namespace gpuperf::matmul
