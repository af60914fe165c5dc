// The gate's promises, checked by simulation against the noise GPUs really have: the real comparators
// judge generated results of a whole suite, run after run, with the sequential re-measurement the
// scripts make (perf_test.sh, ab_compare.sh), and this test asserts the false-alarm rates and detection
// figures docs/statistics.md states, and prints the table it shows.
//
// The noise model is simulated_noise.h's (a process lands at its own offset, one process in 50 is an
// outlier 5-30% slow, the samples inside a process vary little), plus:
// - another machine of the model shifts each benchmark by its own offset, standard deviation 1%
//   (measured: a median of 0.1%, at most 1.5% over 97 benchmarks, 3% for a few; one machine of five
//   timed one read 10.6% faster, which no tolerance short of that absorbs: baselines/README.md says to
//   record on the runner that checks the file).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gate/judging/ab_mode.h"
#include "gate/judging/stored_mode.h"
#include "gate/statistics/statistics.h"
#include "gate/tests/statistics/simulated_noise.h"

namespace gpuperf::gate {
namespace {

using namespace simulation;

// What the scripts do (scripts/perf_test.sh, scripts/update_baseline.sh, scripts/ab_compare.sh).
constexpr int kBaselineProcesses = kRecommendedBaselineProcesses;
constexpr int kStoredProcessesPerLook = 3;
constexpr int kStoredLooks = 4;  // the first measurement and up to 3 re-measurements
constexpr int kAbPairsPerLook = 6;
constexpr int kAbLooks = 5;  // the first 6 rounds and up to 4 more of 6
constexpr double kAbTolerancePct = 1.0;
constexpr double kMachineSd = 0.01;  // per benchmark, between two machines [relative]

constexpr double kProcessSds[] = {0.001, 0.0044, 0.01, 0.02, 0.03};
constexpr double kSlowdowns[] = {0.01, 0.02, 0.03, 0.05, 0.10};
constexpr int kCleanRuns = 300;      // x 108 benchmarks: 32,400 clean judgements per cell
constexpr int kDetectionRuns = 20;   // x 108 benchmarks: 2,160 judgements per cell

enum class Mode { kStoredSameGpu, kStoredOtherMachine, kAb };
constexpr Mode kModes[] = {Mode::kStoredSameGpu, Mode::kStoredOtherMachine, Mode::kAb};

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::kStoredSameGpu:
      return "stored, same GPU (tolerance 2%)";
    case Mode::kStoredOtherMachine:
      return "stored, other machine (tolerance 4%)";
    case Mode::kAb:
      return "A/B (tolerance 1%)";
  }
  return "";
}

constexpr const char* kRecordingGpu = "GPU-recording";

// One process of a build whose true log change is `log_change[i]` for names[i], measuring `measured`.
ResultsFile simulate_process(const std::vector<std::string>& names, const std::vector<double>& log_change,
                             const std::set<std::string>& measured, double process_sd, const std::string& uuid,
                             Noise& noise) {
  ResultsFile file;
  file.source = "simulated.json";
  file.gpu.name = "Simulated GPU";
  file.gpu.slug = "simulated-gpu";
  file.gpu.uuid = uuid;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (measured.count(names[i]) == 0) continue;
    BenchmarkSamples& b = file.benchmarks[names[i]];
    b.unit = formats::kUnitMicroseconds;
    b.repetitions = kSamplesPerProcess;
    b.samples = process_samples(log_change[i], process_sd, noise);
  }
  return file;
}

Baseline simulate_baseline(const std::vector<std::string>& names, double process_sd, Noise& noise) {
  Baseline baseline;
  baseline.gpu.name = "Simulated GPU";
  baseline.gpu.slug = "simulated-gpu";
  baseline.default_tolerance_pct = kOtherMachineTolerancePct;
  baseline.same_gpu_tolerance_pct = kSameGpuTolerancePct;
  baseline.recorded.gpu_uuids = {kRecordingGpu};
  const std::vector<double> unchanged(names.size(), 0.0);
  const std::set<std::string> all(names.begin(), names.end());
  std::vector<ResultsFile> runs;
  for (int p = 0; p < kBaselineProcesses; ++p) {
    runs.push_back(simulate_process(names, unchanged, all, process_sd, kRecordingGpu, noise));
  }
  for (const std::string& name : names) {
    BaselineEntry entry;
    entry.unit = formats::kUnitMicroseconds;
    entry.process_medians = process_medians(runs, name, kMinSamples);
    entry.median = geometric_mean(entry.process_medians);
    baseline.benchmarks[name] = entry;
  }
  return baseline;
}

// What one run of the suite decided, and whether each first-look interval covered the true ratio.
struct RunOutcome {
  int slow = 0;
  int benchmarks = 0;
  int intervals = 0;
  int covered = 0;
  double interval_confidence = 0.0;
};

void count_coverage(const Comparison& first_look, const std::vector<std::string>& names,
                    const std::vector<double>& true_log_ratio, RunOutcome& outcome) {
  outcome.interval_confidence = first_look.budget.interval_confidence();
  for (const BenchmarkComparison& row : first_look.benchmarks) {
    if (!row.judged()) continue;
    const std::size_t i = static_cast<std::size_t>(std::atoi(row.name.c_str() + 13));  // "sim/benchmark<i>/"
    const double truth = std::exp(true_log_ratio[i]);
    ++outcome.intervals;
    outcome.covered += row.ci_low <= truth && truth <= row.ci_high ? 1 : 0;
  }
  (void)names;
}

RunOutcome finish(const Comparison& last, RunOutcome outcome) {
  for (const BenchmarkComparison& row : last.benchmarks) outcome.slow += row.verdict == Verdict::kSlow ? 1 : 0;
  outcome.benchmarks = static_cast<int>(last.benchmarks.size());
  return outcome;
}

RunOutcome simulate_stored_run(Mode mode, double process_sd, double slowdown, Noise& noise) {
  const std::vector<std::string> names = suite_names();
  const Baseline baseline = simulate_baseline(names, process_sd, noise);
  const bool same_gpu = mode == Mode::kStoredSameGpu;
  std::vector<double> true_log_ratio(names.size(), std::log1p(slowdown));
  if (!same_gpu) {
    for (double& r : true_log_ratio) r += kMachineSd * noise.normal();
  }
  const std::string uuid = same_gpu ? kRecordingGpu : "GPU-another-machine";
  CompareOptions options;
  options.looks = kStoredLooks;
  std::vector<ResultsFile> files;
  std::set<std::string> measured(names.begin(), names.end());
  RunOutcome outcome;
  Comparison comparison;
  for (int look = 1; look <= kStoredLooks && !measured.empty(); ++look) {
    for (int p = 0; p < kStoredProcessesPerLook; ++p) {
      files.push_back(simulate_process(names, true_log_ratio, measured, process_sd, uuid, noise));
    }
    comparison = compare_with_baseline(baseline, files, options);
    if (look == 1) count_coverage(comparison, names, true_log_ratio, outcome);
    measured = ambiguous_names(comparison);
  }
  return finish(comparison, outcome);
}

RunOutcome simulate_ab_run(double process_sd, double slowdown, Noise& noise) {
  const std::vector<std::string> names = suite_names();
  const std::vector<double> build_a(names.size(), 0.0);
  const std::vector<double> build_b(names.size(), std::log1p(slowdown));
  AbOptions options;
  options.tolerance_pct = kAbTolerancePct;
  options.looks = kAbLooks;
  std::vector<ResultsFile> a;
  std::vector<ResultsFile> b;
  std::set<std::string> measured(names.begin(), names.end());
  RunOutcome outcome;
  Comparison comparison;
  for (int look = 1; look <= kAbLooks && !measured.empty(); ++look) {
    for (int p = 0; p < kAbPairsPerLook; ++p) {
      a.push_back(simulate_process(names, build_a, measured, process_sd, kRecordingGpu, noise));
      b.push_back(simulate_process(names, build_b, measured, process_sd, kRecordingGpu, noise));
    }
    comparison = compare_ab(a, b, options);
    if (look == 1) count_coverage(comparison, names, build_b, outcome);
    measured = ambiguous_names(comparison);
  }
  return finish(comparison, outcome);
}

RunOutcome simulate_run(Mode mode, double process_sd, double slowdown, Noise& noise) {
  return mode == Mode::kAb ? simulate_ab_run(process_sd, slowdown, noise)
                           : simulate_stored_run(mode, process_sd, slowdown, noise);
}

struct Cell {
  int runs = 0;
  int runs_with_slow = 0;
  long long judgements = 0;
  long long slow = 0;
  long long intervals = 0;
  long long covered = 0;
  double interval_confidence = 0.0;
  double rate() const { return judgements == 0 ? 0.0 : static_cast<double>(slow) / static_cast<double>(judgements); }
  double coverage() const { return intervals == 0 ? 1.0 : static_cast<double>(covered) / static_cast<double>(intervals); }
};

Cell simulate_cell(Mode mode, double process_sd, double slowdown, int runs) {
  // A seed per cell: a cell's figures do not depend on which other cells ran.
  Noise noise(0x5EED0000ull + static_cast<std::uint64_t>(mode) * 1000003ull +
              static_cast<std::uint64_t>(process_sd * 1e6) * 7919ull + static_cast<std::uint64_t>(slowdown * 1e4));
  Cell cell;
  for (int r = 0; r < runs; ++r) {
    const RunOutcome run = simulate_run(mode, process_sd, slowdown, noise);
    ++cell.runs;
    cell.runs_with_slow += run.slow > 0 ? 1 : 0;
    cell.judgements += run.benchmarks;
    cell.slow += run.slow;
    cell.intervals += run.intervals;
    cell.covered += run.covered;
    cell.interval_confidence = run.interval_confidence;
  }
  return cell;
}

// The smallest simulated slowdown caught in >= 95% of judgements, with every larger one also caught.
std::string smallest_caught(const std::vector<Cell>& by_slowdown) {
  std::string smallest = "none up to 10%";
  for (std::size_t i = by_slowdown.size(); i-- > 0;) {
    if (by_slowdown[i].rate() < 0.95) break;
    smallest = pct(kSlowdowns[i], 0);
  }
  return smallest;
}

// The simulation's tables, as docs/statistics.md shows them.
class GateSimulation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (Mode mode : kModes) {
      for (double sd : kProcessSds) {
        clean_.push_back(simulate_cell(mode, sd, 0.0, kCleanRuns));
        for (double slowdown : kSlowdowns) detection_.push_back(simulate_cell(mode, sd, slowdown, kDetectionRuns));
      }
    }
    std::ostringstream table;
    table << "Simulated runs of " << kSuiteBenchmarks << " benchmarks (baseline " << kBaselineProcesses
          << " processes; stored: " << kStoredProcessesPerLook << " processes a look, up to " << kStoredLooks
          << " looks; A/B: " << kAbPairsPerLook << " pairs a look, up to " << kAbLooks
          << " looks; 1 process in 50 an outlier, 5-30% slow; other machine: 1% offset per benchmark).\n\n";
    table << "| mode | process sd | false alarms per benchmark | runs failed (clean) | interval coverage at the "
             "first look (built at; claimed: 99% over all looks) |";
    for (double s : kSlowdowns) table << " +" << pct(s, 0) << " caught |";
    table << " smallest caught in >= 95% |\n|---|---|---|---|---|";
    for (std::size_t i = 0; i < std::size(kSlowdowns) + 1; ++i) table << "---|";
    table << "\n";
    for (std::size_t m = 0; m < std::size(kModes); ++m) {
      for (std::size_t s = 0; s < std::size(kProcessSds); ++s) {
        const Cell& clean = clean_cell(m, s);
        table << "| " << mode_name(kModes[m]) << " | " << pct(kProcessSds[s], 2) << " | " << clean.slow << " / "
              << clean.judgements << " = " << pct(clean.rate(), 3) << " | " << clean.runs_with_slow << " / "
              << clean.runs << " | " << pct(clean.coverage(), 2) << " (" << pct(clean.interval_confidence, 2)
              << ") |";
        std::vector<Cell> row;
        for (std::size_t d = 0; d < std::size(kSlowdowns); ++d) {
          row.push_back(detection_cell(m, s, d));
          table << " " << pct(row.back().rate(), 0) << " |";
        }
        table << " " << smallest_caught(row) << " |\n";
      }
    }
    std::printf("%s", table.str().c_str());
    if (const char* path = std::getenv("GATE_SIMULATION_TABLE")) std::ofstream(path) << table.str();
  }

  static const Cell& clean_cell(std::size_t mode, std::size_t sd) { return clean_[mode * std::size(kProcessSds) + sd]; }
  static const Cell& detection_cell(std::size_t mode, std::size_t sd, std::size_t slowdown) {
    return detection_[(mode * std::size(kProcessSds) + sd) * std::size(kSlowdowns) + slowdown];
  }
  static std::size_t sd_index(double sd) {
    for (std::size_t s = 0; s < std::size(kProcessSds); ++s) {
      if (kProcessSds[s] == sd) return s;
    }
    return 0;
  }
  static std::size_t slowdown_index(double slowdown) {
    for (std::size_t d = 0; d < std::size(kSlowdowns); ++d) {
      if (kSlowdowns[d] == slowdown) return d;
    }
    return 0;
  }

  static inline std::vector<Cell> clean_;
  static inline std::vector<Cell> detection_;
};

TEST_F(GateSimulation, FalseAlarmsStayBelowOnePerThousandBenchmarksAtEveryNoiseLevel) {
  for (std::size_t m = 0; m < std::size(kModes); ++m) {
    for (std::size_t s = 0; s < std::size(kProcessSds); ++s) {
      EXPECT_LE(clean_cell(m, s).rate(), 0.001) << mode_name(kModes[m]) << ", process sd " << kProcessSds[s];
    }
  }
}

// At every noise level. A/B runs used to fail 2.3% of the time at process sd 2-3%: dropping outlier pairs
// from 8 pairs on cut normal pairs too, as the robust sd of so few is noisy (kMinPairsForOutliers).
TEST_F(GateSimulation, ACleanRunOfTheWholeSuiteFailsAtMostOnceInAHundred) {
  for (std::size_t m = 0; m < std::size(kModes); ++m) {
    for (std::size_t s = 0; s < std::size(kProcessSds); ++s) {
      const Cell& cell = clean_cell(m, s);
      EXPECT_LE(cell.runs_with_slow, cell.runs / 100) << mode_name(kModes[m]) << ", process sd " << kProcessSds[s];
    }
  }
}

TEST_F(GateSimulation, IntervalsCoverTheTrueRatioAsOftenAsTheyClaim) {
  for (std::size_t m = 0; m < std::size(kModes); ++m) {
    for (std::size_t s = 0; s < std::size(kProcessSds); ++s) {
      EXPECT_GE(clean_cell(m, s).coverage(), kIntervalConfidence)
          << mode_name(kModes[m]) << ", process sd " << kProcessSds[s];
    }
  }
}

TEST_F(GateSimulation, DetectionTargets) {
  const auto caught = [](Mode mode, double sd, double slowdown) {
    const std::size_t m = static_cast<std::size_t>(mode);
    return detection_cell(m, sd_index(sd), slowdown_index(slowdown)).rate();
  };
  EXPECT_GE(caught(Mode::kStoredSameGpu, 0.001, 0.03), 0.95);
  // The target is 95%; 94% is what 3 processes a look and 3 re-measurements reach (docs/statistics.md).
  EXPECT_GE(caught(Mode::kStoredSameGpu, 0.0044, 0.03), 0.90);
  EXPECT_GE(caught(Mode::kStoredSameGpu, 0.0044, 0.05), 0.95);
  EXPECT_GE(caught(Mode::kStoredSameGpu, 0.01, 0.05), 0.95);
  EXPECT_GE(caught(Mode::kStoredOtherMachine, 0.01, 0.10), 0.95);
  EXPECT_GE(caught(Mode::kAb, 0.001, 0.02), 0.95);
  EXPECT_GE(caught(Mode::kAb, 0.0044, 0.02), 0.95);
}

}  // namespace
}  // namespace gpuperf::gate
