#pragma once
// count_equal family (seed 000/001, "optimising atomic operations"): count how many i have a[i] == b[i],
// into one int32 counter in device memory.
//
// The timed region is the same for every variant: the counter is reset with a 4-byte cudaMemsetAsync
// and then the variant's kernel(s) run (the reset is in the Instance's run(), not in the launchers,
// so no variant can skip it). Atomics accumulate, so without the reset a second run would add to the
// first. The reset costs a few microseconds against the ~0.5 ms of a 2^28 run.

#include <cstdint>

#include <cuda_runtime.h>

namespace gpuperf::count_equal {

struct Args {
  const int* a;  // n elements
  const int* b;  // n elements
  std::int64_t n;
  int* count;    // one element, zero when the launcher is called
};

using Launcher = void (*)(const Args& args, cudaStream_t stream);

// Every variant's launcher, one per line of variants.def (which says what each does).
#define GPUPERF_VARIANT(name) void name(const Args& args, cudaStream_t stream);
#include "count_equal/variants.def"
#undef GPUPERF_VARIANT

// Inputs with a chosen match fraction: b[i] = a[i] where a uniform draw from (seed, i) is below
// match_fraction, else a[i] + 1. a must hold values below INT_MAX. Deterministic in seed.
void make_b_from_a(const int* a, int* b, std::int64_t n, double match_fraction, std::uint64_t seed,
                   cudaStream_t stream = nullptr);

}  // namespace gpuperf::count_equal
