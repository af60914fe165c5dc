#include "common/compare.h"

#include <cmath>
#include <sstream>

#include "common/mismatches.h"

namespace gpuperf {
namespace {

constexpr std::size_t kMismatchesShown = 5;

std::string size_mismatch(std::size_t expected, std::size_t actual) {
  return "output has " + std::to_string(actual) + " elements, reference has " + std::to_string(expected);
}

}  // namespace

CheckResult compare_exact(const std::vector<std::int64_t>& expected, const std::vector<std::int64_t>& actual) {
  if (expected.size() != actual.size()) return CheckResult::fail(size_mismatch(expected.size(), actual.size()));
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] == actual[i]) continue;
    if (bad++ < kMismatchesShown) first << " [" << i << "] got " << actual[i] << " want " << expected[i] << ";";
  }
  if (bad == 0) return CheckResult::pass();
  return CheckResult::fail(std::to_string(bad) + " of " + std::to_string(expected.size()) +
                           " elements differ:" + first.str());
}

namespace {

// compare_close for float and double outputs.
template <typename T>
CheckResult compare_close_any(const std::vector<double>& expected, const std::vector<T>& actual, double abs_tol,
                              double rel_tol) {
  if (expected.size() != actual.size()) return CheckResult::fail(size_mismatch(expected.size(), actual.size()));
  std::size_t bad = 0;
  std::ostringstream first;
  first.precision(9);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double error = std::abs(static_cast<double>(actual[i]) - expected[i]);
    if (error <= abs_tol + rel_tol * std::abs(expected[i])) continue;  // false for NaN
    if (bad++ < kMismatchesShown) first << " [" << i << "] got " << actual[i] << " want " << expected[i] << ";";
  }
  if (bad == 0) return CheckResult::pass();
  return CheckResult::fail(std::to_string(bad) + " of " + std::to_string(expected.size()) + " elements " +
                           tolerance_words(abs_tol, rel_tol) + ":" + first.str());
}

}  // namespace

CheckResult compare_close(const std::vector<double>& expected, const std::vector<float>& actual, double abs_tol,
                          double rel_tol) {
  return compare_close_any(expected, actual, abs_tol, rel_tol);
}

CheckResult compare_close(const std::vector<double>& expected, const std::vector<double>& actual, double abs_tol,
                          double rel_tol) {
  return compare_close_any(expected, actual, abs_tol, rel_tol);
}

CheckResult compare_relative_norm(const std::vector<double>& expected, const std::vector<float>& actual,
                                  double max_rel_error) {
  if (expected.size() != actual.size()) return CheckResult::fail(size_mismatch(expected.size(), actual.size()));
  double diff2 = 0.0;
  double ref2 = 0.0;
  std::size_t non_finite = 0;
  std::size_t first_non_finite = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!std::isfinite(actual[i])) {
      if (non_finite++ == 0) first_non_finite = i;
      continue;
    }
    const double d = static_cast<double>(actual[i]) - expected[i];
    diff2 += d * d;
    ref2 += expected[i] * expected[i];
  }
  if (non_finite > 0) {
    return CheckResult::fail(std::to_string(non_finite) + " elements are NaN/Inf (unwritten or overflowed), first at [" +
                             std::to_string(first_non_finite) + "]");
  }
  const double rel = ref2 > 0.0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  if (rel <= max_rel_error) return CheckResult::pass();
  std::ostringstream message;
  message << "relative error " << rel << " exceeds " << max_rel_error;
  return CheckResult::fail(message.str());
}

std::string tolerance_words(double abs_tol, double rel_tol) {
  std::ostringstream words;
  words << "outside abs " << abs_tol << " + rel " << rel_tol;
  return words.str();
}

CheckResult describe_gpu_mismatches(const Mismatches& found, std::int64_t n, const std::string& what) {
  if (found.count == 0) return CheckResult::pass();
  std::ostringstream message;
  message.precision(9);
  message << found.count << " of " << n << " elements " << what << ": [" << found.first << "] got " << found.actual
          << " want " << found.expected << "; (the first; compared on the GPU)";
  return CheckResult::fail(message.str());
}

}  // namespace gpuperf
