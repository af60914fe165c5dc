// The decision rule, each verdict from constructed processes, the rules on processes, the error budget and
// the tolerance precedence.
#include <gtest/gtest.h>

#include <algorithm>

#include "formats/exit_codes.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/judging/tolerance.h"
#include "gate/judging/verdict.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::notes_of;
using testing::reason_words_of;
using testing::baseline_entry;
using testing::baseline_for;
using testing::kH200;
using testing::noisy_samples;
using testing::processes;

constexpr const char* kName = "reduction/reduce9_shfl_down_last_warp/n:33554432";

// resolve_tolerance's same_gpu argument, named where it is passed.
constexpr bool kSameGpu = true;
constexpr bool kOtherGpu = false;

// One benchmark: `baseline_processes` recorded process medians around 100 us, and `current_processes`
// results files around 100 * `ratio`; every process at its own offset (relative sd `process_sd`).
Comparison judge(double ratio, double process_sd, double tolerance_pct, int current_processes = 3,
                 int baseline_processes = 10, const CompareOptions& options = {}) {
  Baseline baseline = baseline_for(kH200, tolerance_pct);
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, process_sd, baseline_processes, 1));
  return compare_with_baseline(baseline, processes(kName, 100.0 * ratio, process_sd, current_processes, 2), options);
}

Verdict only_verdict(const Comparison& c) {
  EXPECT_EQ(c.benchmarks.size(), 1u);
  return c.benchmarks.empty() ? Verdict::kError : c.benchmarks.front().verdict;
}

TEST(DecisionRule, EdgesOfEachVerdict) {
  const DecisionRule rule{3.0, 0.001, kMinProcessesToCall};
  EXPECT_EQ(decide({1.05, 1.08, 1e-9, 1.0, 3}, rule), Verdict::kSlow);
  EXPECT_EQ(decide({1.05, 1.08, 0.01, 1.0, 3}, rule), Verdict::kAmbiguous) << "large but not significant";
  EXPECT_EQ(decide({1.05, 1.08, 0.001, 1.0, 3}, rule), Verdict::kAmbiguous) << "p must be below alpha";
  EXPECT_EQ(decide({0.90, 0.95, 1.0, 1e-9, 2}, rule), Verdict::kFast);
  EXPECT_EQ(decide({0.98, 1.02, 0.5, 0.5, 3}, rule), Verdict::kSame);
  EXPECT_EQ(decide({0.97, 1.03, 0.5, 0.5, 3}, rule), Verdict::kSame) << "the tolerance edges are inside";
  EXPECT_EQ(decide({1.01, 1.05, 1e-9, 1.0, 3}, rule), Verdict::kAmbiguous) << "straddles 1 + tol";
  EXPECT_EQ(decide({0.95, 0.99, 1.0, 1e-9, 3}, rule), Verdict::kAmbiguous) << "straddles 1 - tol";
}

TEST(DecisionRule, OneProcessCanBeSameButNeverSlowOrFast) {
  const DecisionRule rule{3.0, 0.001, kMinProcessesToCall};
  EXPECT_EQ(kMinProcessesToCall, 2);
  EXPECT_EQ(decide({1.05, 1.08, 1e-9, 1.0, 1}, rule), Verdict::kAmbiguous);
  EXPECT_EQ(decide({0.90, 0.95, 1.0, 1e-9, 1}, rule), Verdict::kAmbiguous);
  EXPECT_EQ(decide({0.99, 1.01, 0.5, 0.5, 1}, rule), Verdict::kSame) << "no change needs no second witness";
  EXPECT_EQ(decide({1.05, 1.08, 1e-9, 1.0, 0}, rule), Verdict::kAmbiguous);
}

// The last look against a runner's history: an interval that still straddles an edge is decided by its
// estimate, where the change is significant; the interval's own verdicts stay as they are.
TEST(DecisionRule, ByEstimateDecidesWhatTheIntervalLeavesOpen) {
  DecisionRule rule{2.0, 0.001, kMinProcessesToCall};
  const Evidence straddling_slow{1.016, 1.034, 1e-9, 1.0, 12, 1.025};
  const Evidence straddling_same{1.006, 1.024, 1e-4, 1.0, 12, 1.015};
  const Evidence straddling_fast{0.966, 0.984, 1.0, 1e-9, 12, 0.975};
  EXPECT_EQ(decide(straddling_slow, rule), Verdict::kAmbiguous) << "without it, as before";
  rule.by_estimate = true;
  EXPECT_EQ(decide(straddling_slow, rule), Verdict::kSlow);
  EXPECT_EQ(decide(straddling_same, rule), Verdict::kSame);
  EXPECT_EQ(decide(straddling_fast, rule), Verdict::kFast);
  EXPECT_EQ(decide({1.016, 1.034, 0.01, 1.0, 12, 1.025}, rule), Verdict::kAmbiguous) << "beyond, not significant";
  EXPECT_EQ(decide({1.016, 1.034, 1e-9, 1.0, 1, 1.025}, rule), Verdict::kAmbiguous) << "one process";
  EXPECT_EQ(decide({1.05, 1.08, 1e-9, 1.0, 3, 1.065}, rule), Verdict::kSlow) << "the interval's own SLOW";
  EXPECT_EQ(decide({0.99, 1.01, 0.5, 0.5, 3, 1.0}, rule), Verdict::kSame) << "the interval's own SAME";
}

TEST(Verdicts, TenPercentSlowerInThreeProcessesIsSlow) {
  const Comparison c = judge(1.10, 0.003, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kSlow);
  const BenchmarkComparison& row = c.benchmarks.front();
  EXPECT_NEAR(row.ratio, 1.10, 0.01);
  EXPECT_GT(row.ci_low, 1.03);
  EXPECT_LT(row.p_slower, c.budget.test_alpha());
  EXPECT_EQ(row.baseline_processes, 10);
  EXPECT_EQ(row.current_processes, 3);
  EXPECT_EQ(row.current_samples, 90);
  EXPECT_DOUBLE_EQ(row.df, 11.0) << "(10 - 1) + (3 - 1)";
  EXPECT_GT(row.process_sd_pct, 0.0);
  EXPECT_LT(row.process_sd_pct, 1.0);
  EXPECT_EQ(notes_of(row), "");
  EXPECT_EQ(exit_code(c), formats::kExitRegression);
}

TEST(Verdicts, IdenticalProcessesAreSame) {
  const std::vector<ResultsFile> results = processes(kName, 100.0, 0.003, 3, 5);
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.benchmarks[kName] = baseline_entry(process_medians(results, kName, kMinSamples));
  const Comparison c = compare_with_baseline(baseline, results, CompareOptions{});
  EXPECT_EQ(only_verdict(c), Verdict::kSame);
  EXPECT_DOUBLE_EQ(c.benchmarks.front().ratio, 1.0);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
}

TEST(Verdicts, HalfPercentSlowerWithinThreePercentIsSame) {
  const Comparison c = judge(1.005, 0.003, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kSame);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
}

TEST(Verdicts, IntervalStraddlingTheToleranceIsAmbiguous) {
  // 3% slower with 3% tolerance: the interval holds 1.03.
  const Comparison c = judge(1.03, 0.005, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kAmbiguous);
  const BenchmarkComparison& row = c.benchmarks.front();
  EXPECT_LT(row.ci_low, 1.03);
  EXPECT_GT(row.ci_high, 1.03);
  EXPECT_EQ(exit_code(c), formats::kExitPass) << "ambiguous is re-measured, not failed";
}

TEST(Verdicts, TenPercentFasterIsFastAndPasses) {
  const Comparison c = judge(0.90, 0.003, 3.0);
  EXPECT_EQ(only_verdict(c), Verdict::kFast);
  EXPECT_EQ(exit_code(c), formats::kExitPass);
}

TEST(Verdicts, OneProcessCannotBeSlowAndTheNoteSaysWhy) {
  // Far beyond the tolerance, but one process can be an outlier: AMBIGUOUS (re-measure), with a note.
  const Comparison one = judge(1.10, 0.003, 3.0, 1);
  EXPECT_EQ(only_verdict(one), Verdict::kAmbiguous);
  const BenchmarkComparison& row = one.benchmarks.front();
  EXPECT_GT(row.ci_low, 1.03) << "the interval alone would call it";
  EXPECT_EQ(row.current_processes, 1);
  EXPECT_EQ(notes_of(row), "beyond the tolerance in 1 process; 2 are needed to call it (one can be an outlier)");
  EXPECT_EQ(exit_code(one), formats::kExitPass);

  EXPECT_EQ(only_verdict(judge(1.10, 0.003, 3.0, 2)), Verdict::kSlow) << "a second process can call it";
  EXPECT_EQ(only_verdict(judge(0.90, 0.003, 3.0, 1)), Verdict::kAmbiguous) << "nor FAST from one process";
}

TEST(Verdicts, OneProcessOnEachSideIsNotJudged) {
  const Comparison c = judge(1.10, 0.003, 3.0, 1, 1);
  EXPECT_EQ(only_verdict(c), Verdict::kNotJudged);
  EXPECT_EQ(reason_words_of(c.benchmarks.front()).rfind("one process on each side: the spread between processes is unknown", 0),
            0u)
      << reason_words_of(c.benchmarks.front());
  EXPECT_EQ(exit_code(c), formats::kExitNotJudged);
}

TEST(Verdicts, ABaselineFromFewProcessesGetsANote) {
  const Comparison few = judge(1.10, 0.003, 3.0, 3, 3);
  const BenchmarkComparison& row = few.benchmarks.front();
  EXPECT_EQ(row.verdict, Verdict::kSlow) << "still judged, with the interval 4 degrees of freedom allow";
  EXPECT_DOUBLE_EQ(row.df, 4.0);
  EXPECT_EQ(row.baseline_processes, 3);
  EXPECT_EQ(notes_of(row), "baseline from 3 processes (recommended 10): a wider interval; re-record to narrow it");
  EXPECT_EQ(notes_of(judge(1.10, 0.003, 3.0, 3, kRecommendedBaselineProcesses).benchmarks.front()), "");
}

TEST(Verdicts, TooFewSamplesInEveryProcessIsNotJudgedNeverSlow) {
  // 50% slower, but one sample per process: no process gives a median.
  const Comparison thirty_samples = judge(1.50, 0.003, 3.0, 3, 10);
  ASSERT_EQ(only_verdict(thirty_samples), Verdict::kSlow) << "the same processes with 30 samples";
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, 0.003, 10, 1));
  const Comparison c = compare_with_baseline(baseline, processes(kName, 150.0, 0.003, 3, 2, 1), {});
  EXPECT_EQ(only_verdict(c), Verdict::kNotJudged);
  EXPECT_EQ(reason_words_of(c.benchmarks.front()), "only 3 valid samples (a process needs 5 valid samples of its own)");
  EXPECT_EQ(c.benchmarks.front().current_processes, 0);
  EXPECT_EQ(exit_code(c), formats::kExitNotJudged);

  // 12 samples in all, but 4 a process: still no process median.
  const Comparison four_each = compare_with_baseline(baseline, processes(kName, 150.0, 0.003, 3, 2, 4), {});
  EXPECT_EQ(only_verdict(four_each), Verdict::kNotJudged);
  EXPECT_EQ(four_each.benchmarks.front().current_samples, 12);
}

TEST(Verdicts, ProcessNoiseWidensTheIntervalInsteadOfTheTolerance) {
  // 5% slower with a 3% tolerance: SLOW when processes agree within 0.2%; when they scatter by 3%, the
  // interval (not a noise floor on the tolerance) says the data cannot tell.
  const Comparison quiet = judge(1.05, 0.002, 3.0);
  EXPECT_EQ(only_verdict(quiet), Verdict::kSlow);
  const Comparison noisy = judge(1.05, 0.03, 3.0);
  EXPECT_EQ(only_verdict(noisy), Verdict::kAmbiguous);
  for (const Comparison* c : {&quiet, &noisy}) {
    EXPECT_DOUBLE_EQ(c->benchmarks.front().tolerance_pct, 3.0);
    EXPECT_EQ(tolerance_source_words(c->benchmarks.front().tolerance_source), "default");
  }
  EXPECT_GT(noisy.benchmarks.front().ci_high - noisy.benchmarks.front().ci_low,
            5 * (quiet.benchmarks.front().ci_high - quiet.benchmarks.front().ci_low));
  EXPECT_GT(noisy.benchmarks.front().process_sd_pct, 1.0);
}

TEST(TolerancePrecedence, BenchmarkBeatsFamilyBeatsDefault) {
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.family_tolerance_pct["smem_latency"] = 1.0;
  BaselineEntry plain;
  BaselineEntry overridden;
  overridden.tolerance_pct = 0.5;

  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", plain, kOtherGpu).pct, 3.0);
  EXPECT_EQ(tolerance_source_words(resolve_tolerance(baseline, "reduction/x/n:1", plain, kOtherGpu).source), "default");
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "smem_latency/chase/stride:1", plain, kOtherGpu).pct, 1.0);
  EXPECT_EQ(tolerance_source_words(resolve_tolerance(baseline, "smem_latency/chase/stride:1", plain, kOtherGpu).source), "family smem_latency");
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "smem_latency/chase/stride:1", overridden, kOtherGpu).pct, 0.5);
  EXPECT_EQ(tolerance_source_words(resolve_tolerance(baseline, "smem_latency/chase/stride:1", overridden, kOtherGpu).source), "benchmark");
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
  EXPECT_EQ(tolerance_source_words(same.source), "default, same GPU as the baseline");
  const Tolerance other = resolve_tolerance(baseline, "reduction/x/n:1", plain, kOtherGpu);
  EXPECT_DOUBLE_EQ(other.pct, 4.0);
  EXPECT_EQ(tolerance_source_words(other.source), "default");
}

TEST(SameGpuTolerance, WithoutTheFieldTheSameGpuKeepsTheDefault) {
  const Baseline baseline = baseline_for(kH200, 4.0);  // no same_gpu_tolerance_pct
  const Tolerance tolerance = resolve_tolerance(baseline, "reduction/x/n:1", BaselineEntry{}, kSameGpu);
  EXPECT_DOUBLE_EQ(tolerance.pct, 4.0);
  EXPECT_EQ(tolerance_source_words(tolerance.source), "default");
}

TEST(SameGpuTolerance, FamilyAndBenchmarkOverridesStillWin) {
  Baseline baseline = baseline_with_same_gpu_default();
  baseline.family_tolerance_pct["smem_latency"] = 10.0;
  BaselineEntry overridden;
  overridden.tolerance_pct = 3.0;
  const Tolerance family = resolve_tolerance(baseline, "smem_latency/chase/stride:1", BaselineEntry{}, kSameGpu);
  EXPECT_DOUBLE_EQ(family.pct, 10.0);
  EXPECT_EQ(tolerance_source_words(family.source), "family smem_latency");
  const Tolerance benchmark = resolve_tolerance(baseline, "smem_latency/chase/stride:1", overridden, kSameGpu);
  EXPECT_DOUBLE_EQ(benchmark.pct, 3.0);
  EXPECT_EQ(tolerance_source_words(benchmark.source), "benchmark");
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", overridden, kSameGpu).pct, 3.0)
      << "a benchmark override beats the same-GPU default even where it is looser";
}

TEST(SameGpuTolerance, CycleResolutionFloorStillWins) {
  const Baseline baseline = baseline_with_same_gpu_default();
  BaselineEntry latency;
  latency.unit = formats::kUnitCycles;
  latency.median = 50.0;  // 2 cycles = 4% > the same-GPU 2%
  const Tolerance floored = resolve_tolerance(baseline, "smem_latency/x/i:1", latency, kSameGpu);
  EXPECT_DOUBLE_EQ(floored.pct, 4.0);
  EXPECT_EQ(tolerance_source_words(floored.source), "resolution floor (2 cycles of 50)");
  latency.median = 400.0;  // 0.5% < 2%: the same-GPU default stands
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "smem_latency/x/i:1", latency, kSameGpu).pct, 2.0);
}

TEST(ResolutionFloor, CycleCountsAreNeverJudgedFinerThanTwoCycles) {
  Baseline baseline = baseline_for(kH200, 4.0);
  BaselineEntry latency;
  latency.unit = formats::kUnitCycles;
  latency.median = 44.0;  // 2 cycles = 4.55% > 4%
  const Tolerance floored = resolve_tolerance(baseline, "smem_latency/x/i:1", latency, kOtherGpu);
  EXPECT_DOUBLE_EQ(floored.pct, 100.0 * kCycleResolution / 44.0);
  EXPECT_EQ(tolerance_source_words(floored.source), "resolution floor (2 cycles of 44)");
  latency.median = 172.0;  // 2 cycles = 1.16% < 4%: the default stands
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "smem_latency/x/i:32", latency, kOtherGpu).pct, 4.0);
  BaselineEntry time = latency;
  time.unit = formats::kUnitMicroseconds;
  time.median = 44.0;
  EXPECT_DOUBLE_EQ(resolve_tolerance(baseline, "reduction/x/n:1", time, kOtherGpu).pct, 4.0) << "times are not integers";
}

TEST(TolerancePrecedence, DecidesTheVerdict) {
  // 2% slower: SAME under the 3% default, SLOW under a 1% family tolerance.
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, 0.002, 10, 1));
  const std::vector<ResultsFile> results = processes(kName, 102.0, 0.002, 3, 2);
  EXPECT_EQ(compare_with_baseline(baseline, results, {}).benchmarks.front().verdict, Verdict::kSame);
  baseline.family_tolerance_pct["reduction"] = 1.0;
  EXPECT_EQ(compare_with_baseline(baseline, results, {}).benchmarks.front().verdict, Verdict::kSlow);
  baseline.benchmarks[kName].tolerance_pct = 5.0;
  EXPECT_EQ(compare_with_baseline(baseline, results, {}).benchmarks.front().verdict, Verdict::kSame);
}

TEST(ErrorControl, RunAlphaAndLooksSetEachTestsLevel) {
  const ErrorBudget budget{0.01, 108, 3};
  EXPECT_DOUBLE_EQ(budget.test_alpha(), 0.01 / 324);
  EXPECT_DOUBLE_EQ(budget.interval_confidence(), 1.0 - 0.01 / 3);
  EXPECT_DOUBLE_EQ(ErrorBudget{}.test_alpha(), kDefaultRunAlpha);
  EXPECT_DOUBLE_EQ(ErrorBudget{}.interval_confidence(), kIntervalConfidence);
}

TEST(ErrorControl, TheBudgetDecidesABorderlineSlowdown) {
  // The interval clears the tolerance; whether it is SLOW depends on p against run_alpha / looks.
  const Comparison plain = judge(1.06, 0.004, 3.0, 2, 3);
  const BenchmarkComparison& row = plain.benchmarks.front();
  ASSERT_GT(row.ci_low, 1.03);
  const double p = row.p_slower;
  ASSERT_GT(p, 1e-10);
  CompareOptions generous;
  generous.run_alpha = std::min(0.5, 1.5 * p);
  CompareOptions strict;
  strict.run_alpha = p / 1.5;
  EXPECT_EQ(only_verdict(judge(1.06, 0.004, 3.0, 2, 3, generous)), Verdict::kSlow) << "p = " << p;
  EXPECT_EQ(only_verdict(judge(1.06, 0.004, 3.0, 2, 3, strict)), Verdict::kAmbiguous) << "p = " << p;
  CompareOptions many_looks = generous;
  many_looks.looks = 3;  // each look gets a third of the budget, and a wider interval
  const Comparison looked = judge(1.06, 0.004, 3.0, 2, 3, many_looks);
  EXPECT_DOUBLE_EQ(looked.budget.test_alpha(), generous.run_alpha / 3);
  EXPECT_EQ(only_verdict(looked), Verdict::kAmbiguous) << "p = " << p;
  EXPECT_LT(looked.benchmarks.front().ci_low, row.ci_low);
  EXPECT_DOUBLE_EQ(looked.benchmarks.front().p_slower, p) << "p does not depend on the budget";
}

}  // namespace
}  // namespace gpuperf::gate
