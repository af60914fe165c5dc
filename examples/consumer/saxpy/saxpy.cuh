#pragma once
// The saxpy kernels: out = a * x + y over n floats, out of place (x and y are only read, so every timed
// run does the same work on the same inputs). This project's own code, as it was before the harness:
// register_saxpy.cu registers the launchers as they are.

#include <cstdint>

#include <cuda_runtime.h>

namespace saxpy {

struct Args {
  const float* x;  // n elements
  const float* y;  // n elements
  float a;
  std::int64_t n;
  float* out;      // n elements
};

// One thread per element, 256 threads a block (naive.cu).
void naive(const Args& args, cudaStream_t stream);
// float4 loads and stores over a grid that fills the GPU once, each thread striding (grid_stride_vec4.cu).
void grid_stride_vec4(const Args& args, cudaStream_t stream);

}  // namespace saxpy
