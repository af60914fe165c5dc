// The saxpy family in one file: the launchers of saxpy.cuh as they are, each checked element by element
// against a double-precision reference at 1, 1000003 and 2^26 floats (fresh random inputs in [-1, 1),
// the output poisoned), then timed at 2^26 (256 MiB an array, many times any L2). The API is
// common/family.h: the harness's docs/kernels.md, "A kernel in one file".
#include "common/family.h"
#include "saxpy.cuh"

GPUPERF_FAMILY(saxpy) {
  constexpr float kA = 1.5f;
  // How the harness calls a variant, (inputs, output, n, stream), in the launcher's own terms.
  const auto calling = [](void (*launch)(const saxpy::Args&, cudaStream_t)) {
    return [launch](const float* x, const float* y, float* out, std::int64_t n, cudaStream_t stream) {
      launch({x, y, kA, n, out}, stream);
    };
  };
  family.elementwise<float(float, float)>()  // out[i] from x[i] and y[i]
      .sizes({std::int64_t{1} << 26})        // timed; checked there and at 1 and 1000003 (tail bugs)
      .expected([](std::int64_t i, const float* x, const float* y) { return double{kA} * x[i] + y[i]; })
      .tolerance(1e-6, 1e-6)  // one or two float roundings of |a x + y| <= 2.5: at most ~3e-7
      .flops_per_element(2)
      .variant("naive", calling(saxpy::naive))  // the first: the others' speedups are over it
      .variant("grid_stride_vec4", calling(saxpy::grid_stride_vec4));
}
