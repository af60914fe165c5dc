#pragma once
// What a comparison with a reference found, and how it is worded: shared by the host comparisons
// (common/compare.h) and the GPU ones (common/device_compare.cuh), so that a failure reads the same
// whichever side compared.

#include <cstdint>
#include <string>

#include "common/registry.h"

namespace gpuperf {

// The count of failing elements and the first of them, from a GPU comparison.
struct Mismatches {
  unsigned long long count;
  unsigned long long first;  // index of the first failing element; n when none
  double expected;           // at `first`
  double actual;             // at `first`
};

// "outside abs <abs_tol> + rel <rel_tol>": what a failing element of a tolerance comparison is.
std::string tolerance_words(double abs_tol, double rel_tol);

// Pass, or "<count> of <n> elements <what>: [<first>] got <actual> want <expected>; (the first; compared on
// the GPU)". what: "differ", or tolerance_words().
CheckResult describe_gpu_mismatches(const Mismatches& found, std::int64_t n, const std::string& what);

}  // namespace gpuperf
