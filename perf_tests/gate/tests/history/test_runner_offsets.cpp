// The runners' histories of a baseline's code: which stored runs RunnerHistoryBuilder keeps (only the
// baseline's code, per GPU UUID, the last kMaxRunnerHistoryRuns), and the file perf_gate history-offsets
// writes and --runner-history reads (round trip; what a corrupt or hostile file is refused for).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "formats/sample_units.h"
#include "gate/history/runner_offsets.h"
#include "gate/history/store_input.h"
#include "gate/inputs/runner_history.h"
#include "gate/statistics/runner_history.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::history {
namespace {

constexpr const char* kName = "reduction/reduce7_many_elements_per_thread/n:268435456";

formats::Fingerprint fingerprint(const std::string& sass_hash) {
  formats::Fingerprint f;
  f.capture_status = formats::kCapturedByCupti;
  formats::KernelLaunch k;
  k.name = "reduce7";
  k.mangled_name = "_Z7reduce7v";
  k.sass_hash = sass_hash;
  f.kernels.push_back(k);
  return f;
}

Baseline baseline_with_code(const std::string& sass_hash) {
  Baseline baseline = testing::baseline_for("nvidia-h100-80gb-hbm3", 4.0);
  baseline.recorded.date = "2026-11-27T21:04:11Z";
  BaselineEntry entry = testing::baseline_entry({100.0, 100.2, 99.9});
  entry.fingerprint = fingerprint(sass_hash);
  baseline.benchmarks[kName] = entry;
  return baseline;
}

SeriesPoint point(const std::string& uuid, const std::string& code, double value) {
  SeriesPoint p;
  p.gpu_uuid = uuid;
  p.code_hash = code;
  p.process_medians = {value, value * 1.001, value * 0.999};
  p.value = value;
  return p;
}

TEST(RunnerHistoryBuilder, KeepsEachRunnersRunsOfTheBaselinesCodeOnly) {
  const Baseline baseline = baseline_with_code("00000000000000aa");
  const std::string same = code_hash(*baseline.benchmarks.at(kName).fingerprint);
  const std::string changed = code_hash(fingerprint("00000000000000bb"));
  Series series;
  series.benchmark = kName;
  series.unit = formats::kUnitMicroseconds;
  series.points = {point("GPU-a", same, 101.0), point("GPU-b", same, 97.0), point("GPU-a", changed, 110.0),
                   point("", same, 100.0), point("GPU-a", same, 101.5)};
  series.points.back().process_medians.clear();  // UNCHANGED: not timed
  series.points.push_back(point("GPU-a", same, 101.2));
  RunnerHistoryBuilder builder(baseline);
  builder.add(series);
  const RunnerHistory& history = builder.history();
  EXPECT_EQ(history.gpu_slug, "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(history.baseline_recorded, "2026-11-27T21:04:11Z");
  ASSERT_EQ(history.runners.size(), 2U);
  const auto& a = history.runners.at("GPU-a").at(kName);
  ASSERT_EQ(a.runs.size(), 2U);  // not the changed code, not the untimed run
  EXPECT_DOUBLE_EQ(a.runs[0][0], 101.0);
  EXPECT_DOUBLE_EQ(a.runs[1][0], 101.2);
  EXPECT_EQ(history.runners.at("GPU-b").at(kName).runs.size(), 1U);
}

TEST(RunnerHistoryBuilder, KeepsTheLastRunsAndNothingWithoutAFingerprintOrOfAnotherUnit) {
  Baseline baseline = baseline_with_code("00000000000000aa");
  const std::string same = code_hash(*baseline.benchmarks.at(kName).fingerprint);
  Series series;
  series.benchmark = kName;
  series.unit = formats::kUnitMicroseconds;
  for (int i = 0; i < kMaxRunnerHistoryRuns + 5; ++i) series.points.push_back(point("GPU-a", same, 100.0 + i));
  RunnerHistoryBuilder builder(baseline);
  builder.add(series);
  const auto& runs = builder.history().runners.at("GPU-a").at(kName).runs;
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kMaxRunnerHistoryRuns));
  EXPECT_DOUBLE_EQ(runs.front()[0], 105.0);

  Series cycles = series;
  cycles.unit = formats::kUnitCycles;
  RunnerHistoryBuilder other_unit(baseline);
  other_unit.add(cycles);
  EXPECT_TRUE(other_unit.history().runners.empty());
  baseline.benchmarks.at(kName).fingerprint.reset();
  RunnerHistoryBuilder no_fingerprint(baseline);
  no_fingerprint.add(series);
  EXPECT_TRUE(no_fingerprint.history().runners.empty());
  baseline.recorded.date.clear();
  EXPECT_THROW(RunnerHistoryBuilder{baseline}, formats::InputError);
}

RunnerHistory small_history() {
  RunnerHistory history;
  history.gpu_slug = "nvidia-h100-80gb-hbm3";
  history.baseline_recorded = "2026-11-27T21:04:11Z";
  history.runners["GPU-1da3b7bd-bdf0"][kName] = {formats::kUnitMicroseconds, {{60.71, 60.78, 60.74}, {60.8, 60.7}}};
  return history;
}

// `count` runs of 3 processes around `level`, moving by `per_run` (relative) a run, each run at its own
// level (sd 0.2%).
std::vector<std::vector<double>> runs_at(double level, double per_run, int count, std::uint64_t seed) {
  const std::vector<double> levels = testing::noisy_samples(level, 0.002, count, seed);
  std::vector<std::vector<double>> runs;
  for (int i = 0; i < count; ++i) {
    runs.push_back(testing::noisy_samples(levels[i] * (1.0 + per_run * i), 0.003, 3, seed * 100 + i + 1));
  }
  return runs;
}

// What history-offsets prints of a runner: its offsets, and the benchmarks whose level trends.
TEST(RunnerSummary, NamesTheOffsetsAndTheBenchmarksThatDrift) {
  Baseline baseline = baseline_with_code("sass");
  const std::string drifting = "reduction/reduce8/n:1024";
  const std::string moved = "reduction/reduce9/n:1024";
  for (const std::string& name : {drifting, moved}) baseline.benchmarks[name] = baseline.benchmarks.at(kName);
  std::map<std::string, RunnerBenchmarkHistory> runner;
  runner[kName] = {formats::kUnitMicroseconds, runs_at(97.0, 0.0, 30, 1)};
  EXPECT_EQ(runner_summary("GPU-a", runner, baseline),
            "GPU-a: 1 of 3 benchmarks with 10 runs or more, offsets -3.0% to -3.0% (median -3.0%)");
  runner[drifting] = {formats::kUnitMicroseconds, runs_at(101.5, 0.001, 30, 2)};
  std::vector<std::vector<double>> steps = runs_at(100.0, 0.0, 20, 3);
  for (auto& run : runs_at(103.0, 0.0, 10, 4)) steps.push_back(run);
  runner[moved] = {formats::kUnitMicroseconds, steps};
  const std::string summary = runner_summary("GPU-a", runner, baseline);
  EXPECT_NE(summary.find("GPU-a: 3 of 3 benchmarks with 10 runs or more, offsets -3.0% to +"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("; 1 moved over their runs (+"), std::string::npos) << summary;
  EXPECT_NE(summary.find("and are judged against their last 10 runs"), std::string::npos) << summary;
  EXPECT_NE(summary.find("; DRIFTING in 1 benchmark (their level moved +2."), std::string::npos) << summary;
  EXPECT_NE(summary.find("over their runs, and still moves over the last 10): judged as another machine, against "
                         "the baseline, until it settles"),
            std::string::npos)
      << summary;
}

TEST(RunnerHistoryFile, ReadsBackWhatItWrites) {
  const RunnerHistory read = parse_runner_history(runner_history_json(small_history()), "offsets.json");
  EXPECT_EQ(read.gpu_slug, "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(read.baseline_recorded, "2026-11-27T21:04:11Z");
  const auto& runs = read.runners.at("GPU-1da3b7bd-bdf0").at(kName).runs;
  ASSERT_EQ(runs.size(), 2U);
  EXPECT_DOUBLE_EQ(runs[0][2], 60.74);
  EXPECT_EQ(runs[1].size(), 2U);
}

// parse_runner_history's message for the file `text`, where it refuses it.
std::string refusal(const std::string& text) {
  try {
    parse_runner_history(text, "offsets.json");
  } catch (const formats::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(RunnerHistoryFile, RefusesWhatIsNotAHistoryOfRuns) {
  const std::string good = runner_history_json(small_history());
  const auto with = [&good](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_NE(refusal(with("\"schema_version\": 1", "\"schema_version\": 7")).find("schema_version"), std::string::npos);
  EXPECT_NE(refusal(with("GPU-1da3b7bd-bdf0", "GPU-1da3\\n::error::x")).find("GPU UUID"), std::string::npos);
  EXPECT_NE(refusal(with("GPU-1da3b7bd-bdf0", "1da3b7bd")).find("does not start with GPU-"), std::string::npos);
  EXPECT_NE(refusal(with("reduction/reduce7", "reduction/`reduce7")).find("benchmark name"), std::string::npos);
  EXPECT_NE(refusal(with("\"us\"", "\"ms\"")).find("expected \"us\" or \"cycles\""), std::string::npos);
  EXPECT_NE(refusal(with("60.71", "-60.71")).find("runs[0][0]"), std::string::npos);
  // Positive and finite, but a ratio to it is not: held to the range of every time (formats/sample_units.h).
  EXPECT_NE(refusal(with("60.71", "1e-300")).find("runs[0][0] is 1e-300 us, below 1e-09 us"), std::string::npos);
  EXPECT_EQ(refusal(with("60.8,", "")), "");  // a run of one process is a run
  RunnerHistory empty_run = small_history();
  empty_run.runners.begin()->second.begin()->second.runs.emplace_back();
  EXPECT_NE(refusal(runner_history_json(empty_run)).find("runs[2] is not a non-empty array"), std::string::npos);
  EXPECT_NE(refusal(with("nvidia-h100-80gb-hbm3", "../etc")).find("gpu_slug"), std::string::npos);
}

}  // namespace
}  // namespace gpuperf::gate::history
