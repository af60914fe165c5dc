#pragma once
// The saxpy family: out = a * x + y over n floats, out of place (x and y are only read, so every timed
// run does the same work on the same inputs).

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

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// One thread per element: the naive kernel the other variant's speedup is over.
void naive(const Args& args, cudaStream_t stream);
// float4 loads and stores, a grid that fills the GPU once, each thread striding over the arrays.
void grid_stride_vec4(const Args& args, cudaStream_t stream);

}  // namespace saxpy
