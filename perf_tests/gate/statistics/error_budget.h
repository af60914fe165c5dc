#pragma once
// How often a whole run may cry wolf, and how that budget is split over the tests it makes.
//
// A run judges every benchmark of the suite (108 today), and each benchmark up to `looks` times (the
// first measurement, then re-measurements of the AMBIGUOUS ones). The gate controls the family-wise
// error rate: the probability that a run calls any unchanged benchmark SLOW is at most run_alpha, for
// any number of looks and whatever the benchmarks' noise, because each one-sided test is made at
// run_alpha / (benchmarks x looks) (Bonferroni: it needs no assumption on how the tests correlate, and
// the suite's families run as separate CTest tests that cannot see each other's p-values). A false
// discovery rate would allow more false alarms the more real regressions a run has; a CI gate that
// must never cry wolf wants the family-wise rate. tests/test_simulation.cpp checks it by simulation.

namespace gpuperf::gate {

// The family-wise false-alarm rate of one run.
inline constexpr double kDefaultRunAlpha = 0.01;
// Coverage of a benchmark's reported interval over all its looks together.
inline constexpr double kIntervalConfidence = 0.99;

struct ErrorBudget {
  double run_alpha = kDefaultRunAlpha;
  int benchmarks = 1;  // tests a run makes: the suite's benchmarks (the baseline's, or A's and B's)
  int looks = 1;       // the most times one benchmark is judged: 1 + re-measurements

  // The one-sided level of one benchmark's significance test at one look.
  double test_alpha() const { return run_alpha / (static_cast<double>(benchmarks) * looks); }
  // The confidence of one look's interval: kIntervalConfidence spent over the looks (Bonferroni), so
  // that re-measuring does not widen the chance that an interval misses.
  double interval_confidence() const { return 1.0 - (1.0 - kIntervalConfidence) / looks; }
};

}  // namespace gpuperf::gate
