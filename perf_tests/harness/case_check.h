#pragma once
// One checked run of a case: fresh inputs, poisoned outputs, the variant, the reference comparison.
// Both the correctness tests and the perf benchmarks (before trusting a single timing) go through here.

#include <cstdint>

#include <cuda_runtime.h>

#include "common/registry.h"

namespace gpuperf {

enum class Verify { kYes, kNo };

// Generates inputs from seed, poisons the outputs, runs, synchronises and (unless kNo) verifies. A CUDA
// error in any step is a failure that names the step, not an exception.
CheckResult run_checked(Instance& instance, std::uint64_t seed, cudaStream_t stream, Verify verify = Verify::kYes);

}  // namespace gpuperf
