#include "gate/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuperf::gate {
namespace {

constexpr std::uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ull;

// Median of one bootstrap resample of `sorted` without materialising it: draw how often each element is
// picked, then walk the counts to the middle order statistics. O(n) and no allocation; `counts` is a
// scratch buffer of sorted.size() elements.
double resampled_median(const std::vector<double>& sorted, std::vector<std::uint32_t>& counts, SplitMix64& rng) {
  const auto n = static_cast<std::uint32_t>(sorted.size());
  std::fill(counts.begin(), counts.end(), 0u);
  // Two draws from each 64-bit output (the generator is most of the cost).
  std::uint32_t drawn = 0;
  for (; drawn + 2 <= n; drawn += 2) {
    const std::uint64_t bits = rng.next();
    ++counts[((bits & 0xFFFFFFFFull) * n) >> 32];
    ++counts[((bits >> 32) * n) >> 32];
  }
  if (drawn < n) ++counts[rng.below(n)];
  const std::uint32_t low_rank = (n - 1) / 2;  // 0-based ranks of the middle element(s)
  const std::uint32_t high_rank = n / 2;
  std::uint32_t seen = 0;
  double low = 0.0;
  for (std::uint32_t j = 0; j < n; ++j) {
    const std::uint32_t next_seen = seen + counts[j];
    if (seen <= low_rank && low_rank < next_seen) low = sorted[j];
    if (seen <= high_rank && high_rank < next_seen) return 0.5 * (low + sorted[j]);
    seen = next_seen;
  }
  return low;  // not reached: the counts sum to n
}

// The percentile interval of `statistics` (reordered).
Interval percentile_interval(std::vector<double>& statistics, double confidence) {
  const double tail = 0.5 * (1.0 - confidence);
  const auto at = [&](double q) {
    const double position = q * static_cast<double>(statistics.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, statistics.size() - 1);
    std::nth_element(statistics.begin(), statistics.begin() + static_cast<std::ptrdiff_t>(below), statistics.end());
    const double low_value = statistics[below];
    const double high_value =
        above == below
            ? low_value
            : *std::min_element(statistics.begin() + static_cast<std::ptrdiff_t>(below) + 1, statistics.end());
    return low_value + (position - static_cast<double>(below)) * (high_value - low_value);
  };
  Interval interval;
  interval.low = at(tail);
  interval.high = at(1.0 - tail);
  return interval;
}

std::vector<double> sorted_copy(const std::vector<double>& values) {
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

double upper_normal_tail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

}  // namespace

double median_in_place(std::vector<double>& values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const std::size_t middle = values.size() / 2;
  const auto middle_it = values.begin() + static_cast<std::ptrdiff_t>(middle);
  std::nth_element(values.begin(), middle_it, values.end());
  if (values.size() % 2 == 1) return *middle_it;
  const double below = *std::max_element(values.begin(), middle_it);
  return 0.5 * (below + *middle_it);
}

double median(std::vector<double> values) { return median_in_place(values); }

std::uint64_t seed_from_name(std::string_view name) {
  std::uint64_t hash = kFnvOffsetBasis;
  for (char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= kFnvPrime;
  }
  return hash;
}

Interval bootstrap_ratio_of_medians(const std::vector<double>& baseline, const std::vector<double>& current,
                                    std::uint64_t seed, const BootstrapSettings& settings) {
  const std::vector<double> base_sorted = sorted_copy(baseline);
  const std::vector<double> current_sorted = sorted_copy(current);
  std::vector<std::uint32_t> base_counts(base_sorted.size());
  std::vector<std::uint32_t> current_counts(current_sorted.size());
  std::vector<double> ratios(static_cast<std::size_t>(std::max(settings.resamples, 1)));
  SplitMix64 rng(seed);
  for (double& ratio : ratios) {
    const double base = resampled_median(base_sorted, base_counts, rng);
    ratio = resampled_median(current_sorted, current_counts, rng) / base;
  }
  return percentile_interval(ratios, settings.confidence);
}

Interval bootstrap_median(const std::vector<double>& values, std::uint64_t seed, const BootstrapSettings& settings) {
  const std::vector<double> sorted = sorted_copy(values);
  std::vector<std::uint32_t> counts(sorted.size());
  std::vector<double> medians(static_cast<std::size_t>(std::max(settings.resamples, 1)));
  SplitMix64 rng(seed);
  for (double& m : medians) m = resampled_median(sorted, counts, rng);
  return percentile_interval(medians, settings.confidence);
}

RankTest mann_whitney_u(const std::vector<double>& baseline, const std::vector<double>& current) {
  const double n_base = static_cast<double>(baseline.size());
  const double n_current = static_cast<double>(current.size());
  if (baseline.empty() || current.empty()) return {};

  // Rank the pooled values (mid-ranks for ties); `from_current` marks which side each came from.
  struct Value {
    double value;
    bool from_current;
  };
  std::vector<Value> pooled;
  pooled.reserve(baseline.size() + current.size());
  for (double v : baseline) pooled.push_back({v, false});
  for (double v : current) pooled.push_back({v, true});
  std::sort(pooled.begin(), pooled.end(), [](const Value& a, const Value& b) { return a.value < b.value; });

  double rank_sum_current = 0.0;
  double tie_term = 0.0;  // sum over tie groups of t^3 - t
  for (std::size_t i = 0; i < pooled.size();) {
    std::size_t j = i;
    while (j < pooled.size() && pooled[j].value == pooled[i].value) ++j;
    const double mid_rank = 0.5 * static_cast<double>(i + 1 + j);  // mean of ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].from_current) rank_sum_current += mid_rank;
    }
    const double t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }

  const double n = n_base + n_current;
  const double u_current = rank_sum_current - n_current * (n_current + 1.0) / 2.0;
  const double mean = n_base * n_current / 2.0;
  const double variance = n_base * n_current / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0)));
  if (!(variance > 0.0)) return {};  // every value equal: no evidence either way
  const double sd = std::sqrt(variance);
  RankTest test;
  test.p_greater = upper_normal_tail((u_current - mean - 0.5) / sd);
  test.p_less = upper_normal_tail((mean - u_current - 0.5) / sd);
  return test;
}

RankTest sign_test(int positive, int negative) {
  const int n = positive + negative;
  if (n <= 0) return {};
  // P(X >= k) for X ~ Binomial(n, 1/2), summed in log space to stay finite for large n.
  const auto upper_tail = [n](int k) {
    double p = 0.0;
    for (int i = k; i <= n; ++i) {
      p += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
    }
    return std::min(1.0, p);
  };
  return RankTest{upper_tail(positive), upper_tail(negative)};
}

}  // namespace gpuperf::gate
