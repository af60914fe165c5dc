#pragma once
// The statistics behind a verdict: medians, bootstrap intervals and rank tests. Pure functions; every
// random draw comes from a generator seeded by the caller, so a report can be reproduced exactly.

#include <cstdint>
#include <string_view>
#include <vector>

namespace gpuperf::gate {

// Bootstrap resamples per interval: enough for stable 0.5% / 99.5% percentiles (10 resamples beyond each).
inline constexpr int kBootstrapResamples = 2000;
// Coverage of the confidence intervals of a change.
inline constexpr double kConfidenceLevel = 0.99;

// Median of `values` (the mean of the two middle ones for an even count); NaN when empty. Reorders them.
double median_in_place(std::vector<double>& values);
double median(std::vector<double> values);

// A deterministic, fast generator (SplitMix64): the same seed gives the same report on every machine.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) by multiply-shift (Lemire); the bias, below n / 2^64, is far below any use here.
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
  }

 private:
  std::uint64_t state_;
};

// Seed of a benchmark's resampling: FNV-1a of its name, so its interval does not depend on which other
// benchmarks are in the run.
std::uint64_t seed_from_name(std::string_view name);

struct Interval {
  double low = 0.0;
  double high = 0.0;
};

struct BootstrapSettings {
  int resamples = kBootstrapResamples;
  double confidence = kConfidenceLevel;
};

// Percentile bootstrap interval of median(current) / median(baseline): both sides resampled with
// replacement. Both must be non-empty.
Interval bootstrap_ratio_of_medians(const std::vector<double>& baseline, const std::vector<double>& current,
                                    std::uint64_t seed, const BootstrapSettings& settings = {});

// Percentile bootstrap interval of the median of `values` (non-empty).
Interval bootstrap_median(const std::vector<double>& values, std::uint64_t seed,
                          const BootstrapSettings& settings = {});

// One-sided Mann-Whitney U test of two independent samples: normal approximation with tie and continuity
// corrections (close to exact from about 8 samples a side; conservative below).
struct RankTest {
  double p_greater = 1.0;  // H1: `current` tends to be larger than `baseline` (slower, for times)
  double p_less = 1.0;     // H1: `current` tends to be smaller (faster)
};
RankTest mann_whitney_u(const std::vector<double>& baseline, const std::vector<double>& current);

// One-sided exact sign test of paired differences: counts of positive and negative differences (zeros
// dropped). With k pairs the smallest p it can give is 0.5^k.
RankTest sign_test(int positive, int negative);

}  // namespace gpuperf::gate
