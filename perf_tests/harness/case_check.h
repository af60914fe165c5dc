#pragma once
// One checked run of a case: fresh inputs, poisoned outputs, the variant, the reference comparison.
// Both the correctness tests and the perf benchmarks (before trusting a single timing) go through here.

#include <cstdint>
#include <functional>

#include <cuda_runtime.h>

#include "common/registry.h"

namespace gpuperf {

enum class Verify { kYes, kNo };

// Generates inputs from seed, poisons the outputs, runs, synchronises and (unless kNo) verifies. A CUDA
// error in any step is a failure that names the step, not an exception. `then_run`, when given, runs
// after the first run and before the comparison (its work on `stream` is synchronised): the comparison
// then also covers the outputs after more runs on the same inputs, as a timed benchmark leaves them.
CheckResult run_checked(Instance& instance, std::uint64_t seed, cudaStream_t stream, Verify verify = Verify::kYes,
                        const std::function<void(cudaStream_t)>& then_run = {});

}  // namespace gpuperf
