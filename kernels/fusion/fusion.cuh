#pragma once
// Fusion family (seed 000/001, "kernel fusion"): two elementwise computations, each done as two kernels
// through a temporary array in device memory and as one fused kernel that keeps the intermediate in a
// register:
//   add-scale:  out = (x + y) * s      two kernels: t = x + y; out = t * s
//   axpb:       out = a * x + b        two kernels: t = a * x; out = t + b
// x, y, out, t are float arrays of n elements; a, b, s are scalars.

#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

namespace gpuperf::fusion {

// Which computation a variant does: decides its inputs, its reference and its bytes.
enum class Operation { kAddScale, kAxpb };

struct Args {
  const float* x;  // n elements
  const float* y;  // n elements (add-scale only)
  float* temp;     // n elements (two-kernel variants only)
  float* out;      // n elements
  std::int64_t n;
  float a;  // axpb
  float b;  // axpb
  float s;  // add-scale
};

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// Every variant's launcher, one per line of variants.def.
#define GPUPERF_VARIANT(name, operation, uses_temporary) void name(const Args& args, cudaStream_t stream);
#include "fusion/variants.def"
#undef GPUPERF_VARIANT

// Threads per block of every fusion kernel.
constexpr int kThreads = 256;

// The seed's kernels: one thread per element.
inline unsigned one_per_element_blocks(std::int64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// The vec4 grid-stride kernels: as many blocks as fit on the GPU at once (full_gpu, from the occupancy
// API), never more than there are float4 vectors to give them, never zero.
inline unsigned vec4_grid_blocks(std::int64_t n, int full_gpu) {
  const std::int64_t needed = (n / 4 + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min<std::int64_t>(needed, full_gpu)));
}

}  // namespace gpuperf::fusion
