// The decision rule, each verdict from constructed samples, the noise floor and the tolerance precedence.
#include <gtest/gtest.h>

#include "gate/comparator.h"
#include "gate/exit_codes.h"
#include "gate/outcome.h"
#include "gate/tolerance.h"
#include "gate/verdict.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::baseline_entry;
using testing::baseline_for;
using testing::kH200;
using testing::noisy_samples;
using testing::results_for;
using testing::time_samples;

constexpr const char* kName = "reduction/reduce9_shfl_down_last_warp/n:33554432";

// resolve_tolerance's same_gpu argument, named where it is passed.
constexpr bool kSameGpu = true;
constexpr bool kOtherGpu = false;

// One benchmark: baseline samples around 100 us, current ones around 100 * `ratio`.
Comparison judge(double ratio, double noise, double tolerance_pct, int samples = 30) {
  Baseline baseline = baseline_for(kH200, tolerance_pct);
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, noise, samples, 1));
  ResultsFile results = results_for(kH200);
  results.benchmarks[kName] = time_samples(noisy_samples(100.0 * ratio, noise, samples, 2));
  return compare_with_baseline(baseline, {results}, CompareOptions{});
}

Verdict only_verdict(const Comparison& c) {
  EXPECT_EQ(c.benchmarks.size(), 1u);
  return c.benchmarks.empty() ? Verdict::kError : c.benchmarks.front().verdict;
}

TEST(DecisionRule, EdgesOfEachVerdict) {
  const DecisionRule rule{3.0, 0.001, true};
  EXPECT_EQ(decide({1.05, 1.08, 1e-9, 1.0}, rule), Verdict::kSlow);
  EXPECT_EQ(decide({1.05, 1.08, 0.01, 1.0}, rule), Verdict::kAmbiguous) << "large but not significant";
  EXPECT_EQ(decide({0.90, 0.95, 1.0, 1e-9}, rule), Verdict::kFast);
  EXPECT_EQ(decide({0.98, 1.02, 0.5, 0.5}, rule), Verdict::kSame);
  EXPECT_EQ(decide({0.97, 1.03, 0.5, 0.5}, rule), Verdict::kSame) << "the tolerance edges are inside";
  EXPECT_EQ(decide({1.01, 1.05, 1e-9, 1.0}, rule), Verdict::kAmbiguous) << "straddles 1 + tol";
  EXPECT_EQ(decide({0.95, 0.99, 1.0, 1e-9}, rule), Verdict::kAmbiguous) << "straddles 1 - tol";
  EXPECT_EQ(decide({1.05, 1.08, 0.01, 1.0}, DecisionRule{3.0, 0.001, false}), Verdict::kSlow)
      << "without the significance requirement the interval decides";
}

TEST(Verdicts, TenPercentSlowerWithHalfPercentNoiseIsSlow) {
  const Comparison c = judge(1.10, 0.005, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kSlow);
  const BenchmarkComparison& row = c.benchmarks.front();
  EXPECT_NEAR(row.ratio, 1.10, 0.01);
  EXPECT_GT(row.ci_low, 1.03);
  EXPECT_LT(row.p_slower, 1e-6);
  EXPECT_EQ(exit_code(c), kExitRegression);
}

TEST(Verdicts, IdenticalSamplesAreSame) {
  Baseline baseline = baseline_for(kH200, 3.0);
  const auto samples = noisy_samples(100.0, 0.005, 30, 5);
  baseline.benchmarks[kName] = baseline_entry(samples);
  ResultsFile results = results_for(kH200);
  results.benchmarks[kName] = time_samples(samples);
  const Comparison c = compare_with_baseline(baseline, {results}, CompareOptions{});
  EXPECT_EQ(only_verdict(c), Verdict::kSame);
  EXPECT_DOUBLE_EQ(c.benchmarks.front().ratio, 1.0);
  EXPECT_EQ(exit_code(c), kExitPass);
}

TEST(Verdicts, HalfPercentSlowerWithinThreePercentIsSame) {
  const Comparison c = judge(1.005, 0.005, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kSame);
  EXPECT_EQ(exit_code(c), kExitPass);
}

TEST(Verdicts, IntervalStraddlingTheToleranceIsAmbiguous) {
  // 3% slower with 3% tolerance: the interval holds 1.03.
  const Comparison c = judge(1.03, 0.01, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kAmbiguous);
  const BenchmarkComparison& row = c.benchmarks.front();
  EXPECT_LT(row.ci_low, 1.03);
  EXPECT_GT(row.ci_high, 1.03);
  EXPECT_EQ(exit_code(c), kExitPass) << "ambiguous is re-measured, not failed";
}

TEST(Verdicts, TenPercentFasterIsFastAndPasses) {
  const Comparison c = judge(0.90, 0.005, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kFast);
  EXPECT_EQ(exit_code(c), kExitPass);
}

TEST(Verdicts, FiveSamplesCannotReachStrictSignificance) {
  // Completely separated 5 vs 5 gives p = 0.006 > alpha: large but unproven.
  const Comparison c = judge(1.10, 0.005, 3.0, 5);
  EXPECT_EQ(only_verdict(c), Verdict::kAmbiguous);
}

TEST(NoiseFloor, WidensATightToleranceToTwiceTheRecordedSpread) {
  // 4% slower: SLOW with a 3% tolerance, but the baseline's runs spread by 2.5%, so the floor is 5%.
  Baseline baseline = baseline_for(kH200, 3.0);
  BaselineEntry entry = baseline_entry(noisy_samples(100.0, 0.002, 30, 1));
  entry.spread_pct = 2.5;
  baseline.benchmarks[kName] = entry;
  ResultsFile results = results_for(kH200);
  results.benchmarks[kName] = time_samples(noisy_samples(104.0, 0.002, 30, 2));
  const Comparison c = compare_with_baseline(baseline, {results}, CompareOptions{});
  const BenchmarkComparison& row = c.benchmarks.front();
  EXPECT_DOUBLE_EQ(row.tolerance_pct, kNoiseFloorFactor * 2.5);
  EXPECT_NE(row.tolerance_source.find("noise floor"), std::string::npos);
  EXPECT_EQ(row.verdict, Verdict::kSame);

  baseline.benchmarks[kName].spread_pct = 0.5;  // floor 1% < 3%: the tolerance stands
  const Comparison tight = compare_with_baseline(baseline, {results}, CompareOptions{});
  EXPECT_DOUBLE_EQ(tight.benchmarks.front().tolerance_pct, 3.0);
  EXPECT_EQ(tight.benchmarks.front().verdict, Verdict::kSlow);
}

TEST(TolerancePrecedence, BenchmarkBeatsFamilyBeatsDefault) {
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.family_tolerance_pct["smem_latency"] = 1.0;
  BaselineEntry plain;
  BaselineEntry overridden;
  overridden.tolerance_pct = 0.5;

  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", plain, kOtherGpu).pct, 3.0);
  EXPECT_EQ(resolve_tolerance(baseline, "reduction/x/n:1", plain, kOtherGpu).source, "default");
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "smem_latency/chase/stride:1", plain, kOtherGpu).pct, 1.0);
  EXPECT_EQ(resolve_tolerance(baseline, "smem_latency/chase/stride:1", plain, kOtherGpu).source, "family smem_latency");
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "smem_latency/chase/stride:1", overridden, kOtherGpu).pct, 0.5);
  EXPECT_EQ(resolve_tolerance(baseline, "smem_latency/chase/stride:1", overridden, kOtherGpu).source, "benchmark");
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", overridden, kOtherGpu).pct, 0.5);
  EXPECT_EQ(family_of("smem_latency_x/a"), "smem_latency_x") << "a family is a whole path component";
}

// A baseline with a 4% default and a 2% same-GPU default, as baselines/README.md recommends.
Baseline baseline_with_same_gpu_default() {
  Baseline baseline = baseline_for(kH200, 4.0);
  baseline.same_gpu_tolerance_pct = 2.0;
  return baseline;
}

TEST(SameGpuTolerance, ReplacesTheDefaultOnlyForTheBaselinesOwnGpu) {
  const Baseline baseline = baseline_with_same_gpu_default();
  const BaselineEntry plain;
  const Tolerance same = resolve_tolerance(baseline, "reduction/x/n:1", plain, kSameGpu);
  EXPECT_DOUBLE_EQ(same.pct, 2.0);
  EXPECT_EQ(same.source, "default, same GPU as the baseline");
  const Tolerance other = resolve_tolerance(baseline, "reduction/x/n:1", plain, kOtherGpu);
  EXPECT_DOUBLE_EQ(other.pct, 4.0);
  EXPECT_EQ(other.source, "default");
}

TEST(SameGpuTolerance, WithoutTheFieldTheSameGpuKeepsTheDefault) {
  const Baseline baseline = baseline_for(kH200, 4.0);  // no same_gpu_tolerance_pct
  const Tolerance tolerance = resolve_tolerance(baseline, "reduction/x/n:1", BaselineEntry{}, kSameGpu);
  EXPECT_DOUBLE_EQ(tolerance.pct, 4.0);
  EXPECT_EQ(tolerance.source, "default");
}

TEST(SameGpuTolerance, FamilyAndBenchmarkOverridesStillWin) {
  Baseline baseline = baseline_with_same_gpu_default();
  baseline.family_tolerance_pct["smem_latency"] = 10.0;
  BaselineEntry overridden;
  overridden.tolerance_pct = 3.0;
  const Tolerance family = resolve_tolerance(baseline, "smem_latency/chase/stride:1", BaselineEntry{}, kSameGpu);
  EXPECT_DOUBLE_EQ(family.pct, 10.0);
  EXPECT_EQ(family.source, "family smem_latency");
  const Tolerance benchmark = resolve_tolerance(baseline, "smem_latency/chase/stride:1", overridden, kSameGpu);
  EXPECT_DOUBLE_EQ(benchmark.pct, 3.0);
  EXPECT_EQ(benchmark.source, "benchmark");
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", overridden, kSameGpu).pct, 3.0)
      << "a benchmark override beats the same-GPU default even where it is looser";
}

TEST(SameGpuTolerance, NoiseFloorStillWins) {
  const Baseline baseline = baseline_with_same_gpu_default();
  BaselineEntry noisy;
  noisy.spread_pct = 1.5;  // floor 3% > the same-GPU 2%
  const Tolerance floored = resolve_tolerance(baseline, "reduction/x/n:1", noisy, kSameGpu);
  EXPECT_DOUBLE_EQ(floored.pct, kNoiseFloorFactor * 1.5);
  EXPECT_EQ(floored.source.rfind("noise floor", 0), 0u) << floored.source;
  noisy.spread_pct = 0.5;  // floor 1% < 2%: the same-GPU default stands
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", noisy, kSameGpu).pct, 2.0);
}

TEST(ResolutionFloor, CycleCountsAreNeverJudgedFinerThanTwoCycles) {
  Baseline baseline = baseline_for(kH200, 4.0);
  BaselineEntry latency;
  latency.unit = kUnitCycles;
  latency.median = 44.0;  // 2 cycles = 4.55% > 4%
  const Tolerance floored = resolve_tolerance(baseline, "smem_latency/x/i:1", latency, kOtherGpu);
  EXPECT_DOUBLE_EQ(floored.pct, 100.0 * kCycleResolution / 44.0);
  EXPECT_EQ(floored.source, "resolution floor (2 cycles of 44)");
  latency.median = 172.0;  // 2 cycles = 1.16% < 4%: the default stands
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "smem_latency/x/i:32", latency, kOtherGpu).pct, 4.0);
  BaselineEntry time = latency;
  time.unit = kUnitMicroseconds;
  time.median = 44.0;
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", time, kOtherGpu).pct, 4.0) << "times are not integers";
}

TEST(TolerancePrecedence, DecidesTheVerdict) {
  // 2% slower: SAME under the 3% default, SLOW under a 1% family tolerance.
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, 0.002, 30, 1));
  ResultsFile results = results_for(kH200);
  results.benchmarks[kName] = time_samples(noisy_samples(102.0, 0.002, 30, 2));
  EXPECT_EQ(compare_with_baseline(baseline, {results}, {}).benchmarks.front().verdict, Verdict::kSame);
  baseline.family_tolerance_pct["reduction"] = 1.0;
  EXPECT_EQ(compare_with_baseline(baseline, {results}, {}).benchmarks.front().verdict, Verdict::kSlow);
  baseline.benchmarks[kName].tolerance_pct = 5.0;
  EXPECT_EQ(compare_with_baseline(baseline, {results}, {}).benchmarks.front().verdict, Verdict::kSame);
}

TEST(Verdicts, AlphaIsConfigurable) {
  // 5 vs 5 separated: p = 0.006, SLOW once alpha is 0.01.
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, 0.002, 5, 1));
  ResultsFile results = results_for(kH200);
  results.benchmarks[kName] = time_samples(noisy_samples(110.0, 0.002, 5, 2));
  CompareOptions loose;
  loose.alpha = 0.01;
  EXPECT_EQ(compare_with_baseline(baseline, {results}, {}).benchmarks.front().verdict, Verdict::kAmbiguous);
  EXPECT_EQ(compare_with_baseline(baseline, {results}, loose).benchmarks.front().verdict, Verdict::kSlow);
}

}  // namespace
}  // namespace gpuperf::gate
