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

// Every variant's launcher, one per line of variants.def (which says what each does).
#define GPUPERF_VARIANT(name) void name(const Args& args, cudaStream_t stream);
#include "variants.def"
#undef GPUPERF_VARIANT

}  // namespace saxpy
