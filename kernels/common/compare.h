#pragma once
// Host-side comparisons of a variant's output with a reference, for Instance::verify().

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/registry.h"

namespace gpuperf {

// Exact comparison of integers; reports the count and the first few mismatching indices.
CheckResult compare_exact(const std::vector<std::int64_t>& expected, const std::vector<std::int64_t>& actual);

// Element i passes when |actual - expected| <= abs_tol + rel_tol * |expected|. NaN never passes.
CheckResult compare_close(const std::vector<double>& expected, const std::vector<float>& actual, double abs_tol,
                          double rel_tol);
CheckResult compare_close(const std::vector<double>& expected, const std::vector<double>& actual, double abs_tol,
                          double rel_tol);

// ||actual - expected||_2 / ||expected||_2 <= max_rel_error (for matrix products, where per-element
// bounds depend on the length of the dot product). NaN or an unwritten (poisoned) element never passes.
CheckResult compare_relative_norm(const std::vector<double>& expected, const std::vector<float>& actual,
                                  double max_rel_error);

}  // namespace gpuperf
