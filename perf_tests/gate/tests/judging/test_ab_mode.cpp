// A/B mode: the paired t on pair ratios, NOT_JUDGED below two pairs, the budget over A and B, and the same
// verdicts and exit codes as compare.
#include <gtest/gtest.h>

#include <cmath>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/inputs/results.h"
#include "gate/judging/ab_mode.h"
#include "gate/judging/outcome.h"
#include "gate/judging/tolerance.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::reason_words_of;
using testing::kH200;
using testing::noisy_samples;
using testing::results_for;
using testing::time_samples;

constexpr const char* kName = "fusion/bias_relu_fused/n:16777216";

// `pairs` runs (processes) per build; run i of both builds is scaled by drift[i] (the machine), B by
// `b_ratio`; every process lands at its own offset (relative sd `process_sd`).
struct Runs {
  std::vector<ResultsFile> a;
  std::vector<ResultsFile> b;
};
Runs interleaved(int pairs, double b_ratio, double process_sd, const std::vector<double>& drift = {}) {
  Runs runs;
  const std::vector<double> offsets = noisy_samples(1.0, process_sd, 2 * pairs, 99);
  for (int i = 0; i < pairs; ++i) {
    const double machine = drift.empty() ? 1.0 : drift[static_cast<std::size_t>(i)];
    ResultsFile a = results_for(kH200, "A" + std::to_string(i + 1) + ".json");
    ResultsFile b = results_for(kH200, "B" + std::to_string(i + 1) + ".json");
    const double a_center = 50.0 * machine * offsets[static_cast<std::size_t>(2 * i)];
    const double b_center = 50.0 * machine * b_ratio * offsets[static_cast<std::size_t>(2 * i + 1)];
    a.benchmarks[kName] = time_samples(noisy_samples(a_center, 0.002, 30, 100 + 2 * i));
    b.benchmarks[kName] = time_samples(noisy_samples(b_center, 0.002, 30, 101 + 2 * i));
    runs.a.push_back(a);
    runs.b.push_back(b);
  }
  return runs;
}

const BenchmarkComparison& only_row(const Comparison& c) {
  EXPECT_EQ(c.benchmarks.size(), 1u);
  return c.benchmarks.front();
}

TEST(AbMode, TenPercentSlowerBIsSlow) {
  const Runs runs = interleaved(5, 1.10, 0.003);
  const Comparison c = compare_ab(runs.a, runs.b, AbOptions{});
  const BenchmarkComparison& row = only_row(c);
  EXPECT_EQ(row.verdict, Verdict::kSlow);
  EXPECT_EQ(row.pairs, 5);
  EXPECT_EQ(row.baseline_processes, 5);
  EXPECT_EQ(row.current_processes, 5);
  EXPECT_DOUBLE_EQ(row.df, 4.0) << "pairs - 1";
  EXPECT_NEAR(row.ratio, 1.10, 0.01);
  EXPECT_LT(row.p_slower, c.budget.test_alpha());
  EXPECT_GT(row.ci_low, 1.01);
  EXPECT_EQ(exit_code(c), formats::kExitRegression);
}

TEST(AbMode, TheRatioIsTheGeometricMeanOfThePairRatios) {
  const Runs runs = interleaved(3, 1.05, 0.003);
  double log_sum = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    log_sum += std::log(*process_median(runs.b[i], kName, kMinSamples) / *process_median(runs.a[i], kName, kMinSamples));
  }
  EXPECT_NEAR(only_row(compare_ab(runs.a, runs.b, AbOptions{})).ratio, std::exp(log_sum / 3), 1e-12);
}

TEST(AbMode, SameBuildIsSame) {
  const Runs runs = interleaved(8, 1.0, 0.002);
  const Comparison c = compare_ab(runs.a, runs.b, AbOptions{});
  EXPECT_EQ(only_row(c).verdict, Verdict::kSame);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
}

TEST(AbMode, FasterBIsFastAndPasses) {
  const Runs runs = interleaved(4, 0.90, 0.003);
  const Comparison c = compare_ab(runs.a, runs.b, AbOptions{});
  EXPECT_EQ(only_row(c).verdict, Verdict::kFast);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
}

TEST(AbMode, PairingCancelsMachineDrift) {
  // The machine drifts by 6% across the session; both builds drift alike, so B is not slower.
  const Runs runs = interleaved(5, 1.0, 0.001, {1.00, 1.02, 1.06, 1.03, 0.99});
  const Comparison c = compare_ab(runs.a, runs.b, AbOptions{});
  EXPECT_EQ(only_row(c).verdict, Verdict::kSame);
}

TEST(AbMode, SlightChangeWithinToleranceIsSameAndToleranceIsConfigurable) {
  const Runs runs = interleaved(5, 1.03, 0.002);
  EXPECT_EQ(only_row(compare_ab(runs.a, runs.b, AbOptions{})).verdict, Verdict::kSlow);
  AbOptions loose;
  loose.tolerance_pct = 5.0;
  EXPECT_EQ(only_row(compare_ab(runs.a, runs.b, loose)).verdict, Verdict::kSame);
}

TEST(AbMode, CycleCountsAreNotJudgedFinerThanTheirResolution) {
  // A 55-cycle latency whose medians land on 55 or 56 cycles: one cycle is 1.8%, beyond the 1% default.
  constexpr const char* kLatency = "smem_latency/ld_volatile_shared_u32/i:1,w:4,c:1";
  const auto cycles = [](double median, int seed) {
    BenchmarkSamples s;
    s.unit = formats::kUnitCycles;
    for (double v : noisy_samples(median, 0.004, 21, seed)) s.samples.push_back(std::round(v));
    s.repetitions = 21;
    return s;
  };
  const auto runs = [&](double b_median) {
    Runs r;
    for (int i = 0; i < 6; ++i) {
      ResultsFile a = results_for(kH200, "A" + std::to_string(i + 1) + ".json");
      ResultsFile b = results_for(kH200, "B" + std::to_string(i + 1) + ".json");
      a.benchmarks[kLatency] = cycles(i % 2 ? 55.4 : 55.6, 10 + i);
      b.benchmarks[kLatency] = cycles(i % 3 ? b_median : b_median + 1.0, 20 + i);
      r.a.push_back(a);
      r.b.push_back(b);
    }
    return r;
  };
  const Runs same = runs(55.4);
  const Comparison judged = compare_ab(same.a, same.b, AbOptions{});
  const BenchmarkComparison& row = only_row(judged);
  EXPECT_EQ(row.verdict, Verdict::kSame) << row.tolerance_pct << " " << row.ci_low << " " << row.ci_high;
  EXPECT_NEAR(row.tolerance_pct, 100.0 * kCycleResolution / row.baseline_median, 1e-9);
  EXPECT_EQ(row.tolerance_source.origin, ToleranceOrigin::kResolutionFloor);
  EXPECT_NE(tolerance_source_words(row.tolerance_source).find("resolution floor (2 cycles of"), std::string::npos)
      << tolerance_source_words(row.tolerance_source);
  const Runs slower = runs(60.4);  // +5 cycles, 9%
  EXPECT_EQ(only_row(compare_ab(slower.a, slower.b, AbOptions{})).verdict, Verdict::kSlow);
  AbOptions loose;
  loose.tolerance_pct = 10.0;
  EXPECT_EQ(only_row(compare_ab(same.a, same.b, loose)).tolerance_pct, 10.0) << "a looser tolerance stands";
}

TEST(AbMode, OnePairIsNotJudged) {
  // 10% slower, but one pair shows no spread between processes at all.
  const Runs runs = interleaved(1, 1.10, 0.003);
  const Comparison c = compare_ab(runs.a, runs.b, AbOptions{});
  EXPECT_EQ(only_row(c).pairs, 1);
  EXPECT_EQ(only_row(c).verdict, Verdict::kNotJudged);
  EXPECT_EQ(reason_words_of(only_row(c), "ab"), "1 pair(s) of runs with valid samples on both sides (need 2)");
  EXPECT_EQ(exit_code(c), formats::kExitNotJudged);
}

TEST(AbMode, TwoPairsGiveOneDegreeOfFreedomAndAWideInterval) {
  const Runs runs = interleaved(5, 1.10, 0.003);
  const Runs two{{runs.a[0], runs.a[1]}, {runs.b[0], runs.b[1]}};
  const BenchmarkComparison row = only_row(compare_ab(two.a, two.b, AbOptions{}));
  const BenchmarkComparison five = only_row(compare_ab(runs.a, runs.b, AbOptions{}));
  EXPECT_EQ(row.pairs, 2);
  EXPECT_DOUBLE_EQ(row.df, 1.0);
  EXPECT_NE(row.verdict, Verdict::kNotJudged) << "two pairs are judged";
  // t(0.995, 1) = 63.7 against t(0.995, 4) = 4.6: the interval of two pairs is far wider.
  EXPECT_GT(row.ci_high - row.ci_low, 3 * (five.ci_high - five.ci_low)) << row.ci_low << " " << row.ci_high;
}

TEST(AbMode, ThePairsWithValidSamplesOnBothSidesCount) {
  Runs runs = interleaved(4, 1.10, 0.003);
  BenchmarkSamples throttled = time_samples({50.0, 50.0});
  throttled.throttled = 28;
  throttled.repetitions = 30;
  runs.b[1].benchmarks[kName] = throttled;  // pair 2 is left out
  const BenchmarkComparison row = only_row(compare_ab(runs.a, runs.b, AbOptions{}));
  EXPECT_EQ(row.pairs, 3);
  EXPECT_DOUBLE_EQ(row.df, 2.0);
  EXPECT_EQ(row.throttled, 28);
}

TEST(AbMode, TheBudgetIsSplitOverEveryBenchmarkOfAAndB) {
  Runs runs = interleaved(3, 1.0, 0.003);
  runs.a[0].benchmarks["fusion/only_in_a/n:1"] = time_samples(noisy_samples(1.0, 0.01, 30, 8));
  runs.b[0].benchmarks["fusion/only_in_b/n:1"] = time_samples(noisy_samples(1.0, 0.01, 30, 7));
  AbOptions options;
  options.selection = Selection::family("fusion");
  options.looks = 2;
  options.run_alpha = 0.02;
  const Comparison c = compare_ab(runs.a, runs.b, options);
  EXPECT_EQ(c.budget.benchmarks, 3);
  EXPECT_EQ(c.budget.looks, 2);
  EXPECT_DOUBLE_EQ(c.budget.test_alpha(), 0.02 / 6);
  EXPECT_DOUBLE_EQ(c.budget.interval_confidence(), 0.995);
  options.selection = Selection::filter("bias_relu");
  EXPECT_EQ(compare_ab(runs.a, runs.b, options).budget.benchmarks, 3) << "selected or not";
}

TEST(AbMode, UnequalRunCountsAreRefused) {
  Runs runs = interleaved(3, 1.0, 0.003);
  runs.b.pop_back();
  try {
    compare_ab(runs.a, runs.b, AbOptions{});
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("3 A files and 2 B files"), std::string::npos) << e.what();
  }
}

TEST(AbMode, DifferentGpusAreRefused) {
  Runs runs = interleaved(2, 1.0, 0.003);
  runs.b[1].gpu.slug = "nvidia-h100";
  EXPECT_THROW(compare_ab(runs.a, runs.b, AbOptions{}), formats::InputError);
}

TEST(AbMode, ErrorNewMissingAndThrottled) {
  Runs runs = interleaved(3, 1.0, 0.0005);
  runs.b[0].benchmarks["fusion/only_in_b/n:1"] = time_samples(noisy_samples(1.0, 0.01, 30, 7));
  runs.a[0].benchmarks["fusion/only_in_a/n:1"] = time_samples(noisy_samples(1.0, 0.01, 30, 8));
  BenchmarkSamples throttled = time_samples({1.0, 1.0});
  throttled.throttled = 28;
  throttled.repetitions = 30;
  runs.a[0].benchmarks["fusion/throttled/n:1"] = time_samples(noisy_samples(1.0, 0.01, 30, 9));
  runs.b[0].benchmarks["fusion/throttled/n:1"] = throttled;
  const Comparison c = compare_ab(runs.a, runs.b, AbOptions{});
  ASSERT_EQ(c.benchmarks.size(), 4u);
  EXPECT_EQ(c.benchmarks[0].verdict, Verdict::kMissing);
  EXPECT_EQ(c.benchmarks[1].verdict, Verdict::kNotJudged);
  EXPECT_NE(reason_words_of(c.benchmarks[1], "ab").find("B: 28 of 30 samples throttled"), std::string::npos) << reason_words_of(c.benchmarks[1], "ab");
  EXPECT_EQ(c.benchmarks[2].verdict, Verdict::kNew);
  EXPECT_EQ(exit_code(c), formats::kExitNotJudged);

  BenchmarkSamples failed;
  failed.error = true;
  failed.error_message = "verification failed";
  runs.b[1].benchmarks[kName] = failed;
  const Comparison with_error = compare_ab(runs.a, runs.b, AbOptions{});
  EXPECT_EQ(with_error.benchmarks.front().verdict, Verdict::kError);
  EXPECT_EQ(exit_code(with_error), formats::kExitInvalidInput);
}

}  // namespace
}  // namespace gpuperf::gate
