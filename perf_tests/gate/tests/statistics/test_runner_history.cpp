// Judging against a runner's own history of the baseline's code: the statistic (compare_with_runner_history,
// runner_level) on constructed runs, and compare_with_baseline with a runner history (which rows use it, at
// which tolerance, what the report says, and when the history is refused or not used).
#include <gtest/gtest.h>

#include <cmath>

#include "formats/input_error.h"
#include "gate/judging/stored_mode.h"
#include "gate/statistics/runner_history.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::notes_of;
using testing::baseline_entry;
using testing::baseline_for;
using testing::kH200;
using testing::noisy_samples;
using testing::processes;

constexpr double kConfidence = 0.99;
constexpr double kFloor = 1e-4;

// `count` runs of 3 processes around `center`: each run at its own level (relative sd `run_sd`), each
// process around it (relative sd `process_sd`).
std::vector<std::vector<double>> history_runs(double center, double run_sd, double process_sd, int count,
                                              std::uint64_t seed) {
  const std::vector<double> levels = noisy_samples(center, run_sd, count, seed);
  std::vector<std::vector<double>> runs;
  for (int i = 0; i < count; ++i) runs.push_back(noisy_samples(levels[i], process_sd, 3, seed * 100 + i + 1));
  return runs;
}

TEST(RunnerHistory, FewerRunsThanTheMinimumAreNotJudged) {
  const auto runs = history_runs(100.0, 0.0, 0.004, kMinRunnerHistoryRuns - 1, 1);
  EXPECT_FALSE(compare_with_runner_history(runs, {100.0, 100.1, 99.9}, kConfidence, kFloor).judged);
  EXPECT_EQ(runner_level(runs, {100.0, 100.2}, kFloor).runs, 0);
  EXPECT_TRUE(compare_with_runner_history(history_runs(100.0, 0.0, 0.004, kMinRunnerHistoryRuns, 1),
                                          {100.0, 100.1, 99.9}, kConfidence, kFloor)
                  .judged);
}

TEST(RunnerHistory, TheChangeIsAgainstTheRunnersLevelNotTheBaselines) {
  // The runner times 3% slower than the baseline's machine; its current run 3% above its own level.
  const auto runs = history_runs(103.0, 0.0, 0.002, 12, 2);
  const std::vector<double> now = noisy_samples(103.0 * 1.03, 0.002, 3, 3);
  const ProcessEvidence e = compare_with_runner_history(runs, now, kConfidence, kFloor);
  ASSERT_TRUE(e.judged);
  EXPECT_NEAR(e.ratio, 1.03, 0.004);
  EXPECT_GT(e.ci_low, 1.02);
  const RunnerLevel level = runner_level(runs, noisy_samples(100.0, 0.002, 10, 4), kFloor);
  EXPECT_EQ(level.runs, 12);
  EXPECT_NEAR(level.offset_pct, 3.0, 0.3);
  EXPECT_GT(level.offset_se_pct, 0.0);
  EXPECT_LT(level.offset_se_pct, 0.2);
}

TEST(RunnerHistory, RunsThatSpreadBeyondTheirProcessesWidenTheInterval) {
  const std::vector<double> now = noisy_samples(100.0, 0.002, 3, 5);
  const ProcessEvidence steady = compare_with_runner_history(history_runs(100.0, 0.0, 0.002, 10, 6), now,
                                                             kConfidence, kFloor);
  const ProcessEvidence wandering = compare_with_runner_history(history_runs(100.0, 0.01, 0.002, 10, 6), now,
                                                                kConfidence, kFloor);
  ASSERT_TRUE(steady.judged && wandering.judged);
  // Each run lands at its own level (1%): the current run does too, so the interval holds that much.
  EXPECT_GT(std::log(wandering.ci_high / wandering.ci_low), 3.0 * std::log(steady.ci_high / steady.ci_low));
  EXPECT_LT(wandering.df, steady.df);  // the run-level part is known to n - 1 degrees of freedom only
  EXPECT_GT(runner_level(history_runs(100.0, 0.01, 0.002, 10, 6), now, kFloor).run_sd_pct, 0.4);
}

TEST(RunnerHistory, AnOutlierProcessOfTheHistoryIsLeftOut) {
  auto runs = history_runs(100.0, 0.0, 0.002, 10, 7);
  const ProcessEvidence clean = compare_with_runner_history(runs, {100.0, 100.1, 99.9}, kConfidence, kFloor);
  runs[4][1] *= 1.25;  // one process in 30 lands 25% slow
  const ProcessEvidence with_outlier = compare_with_runner_history(runs, {100.0, 100.1, 99.9}, kConfidence, kFloor);
  EXPECT_EQ(with_outlier.outliers, 1);
  EXPECT_NEAR(with_outlier.ratio, clean.ratio, 0.002);
}

TEST(RunnerHistory, OnlyTheLastRunsCount) {
  // Ten old runs 5% slower (before a change of the runner), then kMaxRunnerHistoryRuns at the level now.
  auto runs = history_runs(105.0, 0.0, 0.002, 10, 8);
  for (auto& run : history_runs(100.0, 0.0, 0.002, kMaxRunnerHistoryRuns, 9)) runs.push_back(run);
  const ProcessEvidence e = compare_with_runner_history(runs, {100.0, 100.1, 99.9}, kConfidence, kFloor);
  EXPECT_NEAR(e.ratio, 1.0, 0.003);
}

// A baseline recorded elsewhere, and a runner history of this GPU for one benchmark.
constexpr const char* kName = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kOther = "reduction/reduce1_interleaved_divergent/n:1048576";
constexpr const char* kRunner = "GPU-runner-0001";
constexpr const char* kRecorded = "2026-11-27T00:00:00Z";

// `count` runs whose level moves by `drift_per_run` (relative) a run, oldest first.
std::vector<std::vector<double>> drifting_runs(double drift_per_run, int count, std::uint64_t seed) {
  std::vector<std::vector<double>> runs = history_runs(100.0, 0.002, 0.004, count, seed);
  for (int i = 0; i < count; ++i) {
    for (double& median : runs[i]) median *= 1.0 + drift_per_run * i;
  }
  return runs;
}

TEST(RunnerTrend, ASteadyRunnerIsJudgedOnItsWholeHistory) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const RunnerLevel level = runner_level(history_runs(100.0, 0.002, 0.004, 30, seed), {100.0, 100.1}, kFloor);
    EXPECT_EQ(level.trend, RunnerTrend::kSteady) << "seed " << seed << ": drift " << level.drift_pct;
    EXPECT_EQ(level.runs, 30);
  }
}

// +1.5% to +4.4% over 30 runs, as a runner in the simulation drifted: it still moves over its last
// 10 runs, so its history judges nothing, and the level says by how much it moved.
TEST(RunnerTrend, ARunnerThatStillDriftsIsNotJudgedAgainstItsHistory) {
  const auto runs = drifting_runs(0.001, 30, 3);
  const RunnerLevel level = runner_level(runs, {100.0, 100.1}, kFloor);
  EXPECT_EQ(level.trend, RunnerTrend::kDrifting);
  EXPECT_EQ(level.runs, 0);
  EXPECT_EQ(level.history_runs, 30);
  EXPECT_NEAR(level.drift_pct, 2.9, 0.4);
  EXPECT_NEAR(level.recent_drift_pct, 0.9, 0.4);
  EXPECT_FALSE(compare_with_runner_history(runs, {104.5, 104.6, 104.4}, kConfidence, kFloor).judged);
}

// A level that moved by 3% twenty runs ago and has kept still since: judged against its last 10 runs.
TEST(RunnerTrend, ARunnerThatMovedAndSettledIsJudgedOnItsRecentRuns) {
  std::vector<std::vector<double>> runs = history_runs(100.0, 0.002, 0.004, 20, 5);
  for (auto& run : history_runs(103.0, 0.002, 0.004, 10, 6)) runs.push_back(run);
  const RunnerLevel level = runner_level(runs, {100.0, 100.1}, kFloor);
  EXPECT_EQ(level.trend, RunnerTrend::kRecentLevel);
  EXPECT_EQ(level.runs, kMinRunnerHistoryRuns);
  EXPECT_NEAR(level.offset_pct, 3.0, 0.3) << "the level of the recent runs";
  const ProcessEvidence e = compare_with_runner_history(runs, {103.0, 103.1, 102.9}, kConfidence, kFloor);
  ASSERT_TRUE(e.judged);
  EXPECT_NEAR(e.ratio, 1.0, 0.005);
}

Baseline two_benchmark_baseline() {
  Baseline baseline = baseline_for(kH200, 4.0);
  baseline.same_gpu_tolerance_pct = 2.0;
  baseline.recorded.date = kRecorded;
  baseline.recorded.gpu_uuids = {"GPU-recording"};
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, 0.003, 10, 10));
  baseline.benchmarks[kOther] = baseline_entry(noisy_samples(50.0, 0.003, 10, 11));
  return baseline;
}

RunnerHistory runner_history_of(const std::string& uuid, double center, int runs) {
  RunnerHistory history;
  history.gpu_slug = kH200;
  history.baseline_recorded = kRecorded;
  history.runners[uuid][kName] = {formats::kUnitMicroseconds, history_runs(center, 0.0, 0.003, runs, 12)};
  return history;
}

// This GPU times kName 3.5% faster than the baseline's machine; the run is 3% slower than that.
std::vector<ResultsFile> slower_run() {
  std::vector<ResultsFile> files = processes(kName, 96.5 * 1.03, 0.003, 3, 13);
  testing::add_processes(files, kOther, 50.0, 0.003, 14);
  for (ResultsFile& file : files) file.gpu.uuid = kRunner;
  return files;
}

const BenchmarkComparison& row_of(const Comparison& c, const std::string& name) {
  for (const BenchmarkComparison& row : c.benchmarks) {
    if (row.name == name) return row;
  }
  throw std::runtime_error("no row " + name);
}

TEST(StoredWithRunnerHistory, ABenchmarkWithHistoryIsJudgedAgainstItsRunnersLevelAtTheSameGpuTolerance) {
  const RunnerHistory history = runner_history_of(kRunner, 96.5, 12);
  CompareOptions options;
  const Comparison without = compare_with_baseline(two_benchmark_baseline(), slower_run(), options);
  options.runner_history = &history;
  const Comparison with = compare_with_baseline(two_benchmark_baseline(), slower_run(), options);

  EXPECT_EQ(row_of(without, kName).verdict, Verdict::kSame);  // -0.6% against the baseline, at 4%
  const BenchmarkComparison& row = row_of(with, kName);
  EXPECT_EQ(row.verdict, Verdict::kSlow);
  EXPECT_NEAR(row.ratio, 1.03, 0.01);
  EXPECT_EQ(row.tolerance_pct, 2.0);
  ASSERT_TRUE(row.runner.has_value());
  EXPECT_EQ(row.runner->runs, 12);
  EXPECT_NEAR(row.runner->offset_pct, -3.5, 0.5);
  EXPECT_NE(notes_of(row).find("runner offset -3."), std::string::npos) << notes_of(row);
  EXPECT_NE(notes_of(row).find("from 12 runs of unchanged code"), std::string::npos) << notes_of(row);
  // The benchmark without history on this runner: against the baseline, as before.
  EXPECT_FALSE(row_of(with, kOther).runner.has_value());
  EXPECT_EQ(row_of(with, kOther).tolerance_pct, 4.0);
  EXPECT_NE(against_text(with).find("1 benchmark against this runner's (GPU-runner-0001) own history"), std::string::npos)
      << against_text(with);
}

TEST(StoredWithRunnerHistory, TooFewRunsAnotherRunnerOrAnotherBaselineJudgeAgainstTheBaseline) {
  CompareOptions options;
  for (const RunnerHistory& history :
       {runner_history_of(kRunner, 96.5, kMinRunnerHistoryRuns - 1), runner_history_of("GPU-another", 96.5, 12)}) {
    options.runner_history = &history;
    const Comparison c = compare_with_baseline(two_benchmark_baseline(), slower_run(), options);
    EXPECT_FALSE(row_of(c, kName).runner.has_value());
    EXPECT_EQ(row_of(c, kName).tolerance_pct, 4.0);
  }
  RunnerHistory stale = runner_history_of(kRunner, 96.5, 12);
  stale.baseline_recorded = "2026-10-01T00:00:00Z";
  options.runner_history = &stale;
  const Comparison c = compare_with_baseline(two_benchmark_baseline(), slower_run(), options);
  EXPECT_FALSE(row_of(c, kName).runner.has_value());
  EXPECT_NE(against_text(c).find("runner history not used: it holds the code of the baseline recorded 2026-10-01"),
            std::string::npos)
      << against_text(c);
}

TEST(StoredWithRunnerHistory, AHistoryOfAnotherGpuModelIsAnError) {
  RunnerHistory history = runner_history_of(kRunner, 96.5, 12);
  history.gpu_slug = "nvidia-h100-80gb-hbm3";
  CompareOptions options;
  options.runner_history = &history;
  try {
    compare_with_baseline(two_benchmark_baseline(), slower_run(), options);
    FAIL() << "a history of another GPU model was used";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the runner history is for 'nvidia-h100-80gb-hbm3'"), std::string::npos);
  }
}

TEST(StoredWithRunnerHistory, ARunnerTooYoungIsNamedInTheRowAndTheHeader) {
  const RunnerHistory young = runner_history_of(kRunner, 96.5, kMinRunnerHistoryRuns - 1);
  CompareOptions options;
  options.runner_history = &young;
  const Comparison c = compare_with_baseline(two_benchmark_baseline(), slower_run(), options);
  EXPECT_NE(notes_of(row_of(c, kName)).find("runner history: 9 of 10 runs of the baseline's code; judged against the "
                                       "baseline"),
            std::string::npos)
      << notes_of(row_of(c, kName));
  EXPECT_NE(notes_of(row_of(c, kOther)).find("runner history: 0 of 10 runs"), std::string::npos) << notes_of(row_of(c, kOther));
  EXPECT_NE(against_text(c).find("; runner GPU-runner-0001: 9 or fewer of the 10 runs of the baseline's code its own level "
                           "needs, for 2 benchmarks (judged against the baseline)"),
            std::string::npos)
      << against_text(c);
  // A runner the file does not hold at all: the same words.
  const RunnerHistory others = runner_history_of("GPU-another", 96.5, 12);
  options.runner_history = &others;
  const Comparison none = compare_with_baseline(two_benchmark_baseline(), slower_run(), options);
  EXPECT_NE(against_text(none).find("runner GPU-runner-0001: 0 of the 10 runs"), std::string::npos) << against_text(none);
  // Without a runner history, no row speaks of one.
  const Comparison without = compare_with_baseline(two_benchmark_baseline(), slower_run(), CompareOptions{});
  EXPECT_EQ(notes_of(row_of(without, kName)).find("runner"), std::string::npos) << notes_of(row_of(without, kName));
}

TEST(StoredWithRunnerHistory, ADriftingRunnerIsJudgedAsAnotherMachineSayingWhy) {
  RunnerHistory history = runner_history_of(kRunner, 96.5, 12);
  history.runners[kRunner][kName].runs = drifting_runs(0.001, 30, 7);
  CompareOptions options;
  options.runner_history = &history;
  const Comparison c = compare_with_baseline(two_benchmark_baseline(), slower_run(), options);
  const BenchmarkComparison& row = row_of(c, kName);
  EXPECT_FALSE(row.runner.has_value());
  EXPECT_EQ(row.tolerance_pct, 4.0);
  EXPECT_NE(notes_of(row).find("runner drifting: its level moved +2."), std::string::npos) << notes_of(row);
  EXPECT_NE(notes_of(row).find("% over its last 30 runs of unchanged code and +"), std::string::npos) << notes_of(row);
  EXPECT_NE(notes_of(row).find("judged against the baseline, as another machine"), std::string::npos) << notes_of(row);
  EXPECT_NE(against_text(c).find("drifting in 1 benchmark (judged against the baseline, as another machine)"),
            std::string::npos)
      << against_text(c);
}

// The run lands 2.5% above the runner's level (12 processes, as after four looks), in runs that spread 0.25%
// about it: the interval straddles 2% however many processes are added. The last look decides by the estimate and says so; before it, the row is AMBIGUOUS.
TEST(StoredWithRunnerHistory, TheLastLookDecidesByTheEstimateWhatTheIntervalLeavesOpen) {
  RunnerHistory history = runner_history_of(kRunner, 96.5, 30);
  history.runners[kRunner][kName].runs = history_runs(96.5, 0.0025, 0.003, 30, 21);
  std::vector<ResultsFile> files = processes(kName, 96.5 * 1.025, 0.003, 12, 22);
  for (ResultsFile& file : files) file.gpu.uuid = kRunner;
  CompareOptions options;
  options.runner_history = &history;
  options.looks = 4;
  options.last_look = false;
  const BenchmarkComparison early = row_of(compare_with_baseline(two_benchmark_baseline(), files, options), kName);
  ASSERT_TRUE(early.runner.has_value());
  EXPECT_LT(early.ci_low, 1.02);
  EXPECT_GT(early.ci_high, 1.02);
  EXPECT_EQ(early.verdict, Verdict::kAmbiguous);
  options.last_look = true;
  const BenchmarkComparison last = row_of(compare_with_baseline(two_benchmark_baseline(), files, options), kName);
  EXPECT_EQ(last.verdict, Verdict::kSlow);
  EXPECT_NE(notes_of(last).find("; decided at the last look by its estimate (+2."), std::string::npos) << notes_of(last);
  EXPECT_NE(notes_of(last).find("no re-measurement narrows the interval below this runner's run-to-run spread"),
            std::string::npos)
      << notes_of(last);
}

}  // namespace
}  // namespace gpuperf::gate
