// The cross-machine tolerance (judging/tolerance.h: machine_spread, kMachineSpreadK), checked by
// simulation: the real recording (record_baseline on every GPU of a host, merge_recordings of hosts) and
// the real comparator (compare_with_baseline, re-measuring what it leaves AMBIGUOUS as the scripts do)
// judge a whole suite on a GPU of a host that recorded nothing, next to today's rule (one GPU recorded,
// the flat 4% default). It asserts what docs/statistics.md states ("Across machines") and prints its table.
//
// The noise: simulated_noise.h's within a machine (each process at its own offset, sd 0.15%, 0.5% for the
// wide benchmarks; one process in 50 an outlier 5-30% slow), plus what machines add, per benchmark:
// - each GPU's level: normal with the benchmark's machine sd, drawn from the spread measured between the
//   4 H200s of one host (max/min - 1 of the 4 medians: median 0.15%, 90th percentile 0.52%, i.e. for 4
//   normals, whose range is about 2.06 sd, an sd log-normal about a median 0.073% with its 90th
//   percentile at 0.25%), and a tail measured there: 2 benchmarks at 2% and 2.5% (cuBLAS tf32 GEMMs,
//   3.7-5.4% spread) and 2 at 0.8% (smem_latency, 1.3-1.9% spread);
// - each host's level: normal, sd 0.5% or 1%. NOT MEASURED (no second host yet): an assumption, drawn per
//   benchmark (a host's driver, memory and board move benchmarks differently), which is the harder case.
// A neutral code change (the code changed, its time did not) is judged by these tolerances and can fail:
// its false alarms are what the table counts. Unchanged code is PLATFORM (judging/same_code_rule.h) and
// never fails by default, so it is not simulated here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gate/judging/stored_mode.h"
#include "gate/judging/tolerance.h"
#include "gate/recording/merge_recordings.h"
#include "gate/recording/record.h"
#include "gate/statistics/statistics.h"
#include "gate/tests/statistics/simulated_noise.h"

namespace gpuperf::gate {
namespace {

using namespace simulation;

constexpr int kRecordingProcesses = kRecommendedBaselineProcesses;  // per GPU (update_baseline.sh --all-gpus)
constexpr int kProcessesPerLook = 3;
constexpr int kLooks = 4;
constexpr double kTypicalProcessSd = 0.0015;
constexpr double kWideProcessSd = 0.005;
// The machine sd of the typical benchmarks: log-normal, median 0.073%, 90th percentile 0.25%.
constexpr double kMachineSdMedian = 0.00073;
constexpr double kMachineSdLogSd = 0.96;  // ln(0.25 / 0.073) / 1.2816
// The measured tail: benchmark i < 4 has this machine sd [relative].
constexpr double kTailMachineSd[] = {0.02, 0.025, 0.008, 0.008};
constexpr double kHostSds[] = {0.005, 0.01};
constexpr double kSlowdowns[] = {0.02, 0.03, 0.05};
constexpr int kNeutralRuns = 60;    // x 108 benchmarks: 6,480 judgements a cell
constexpr int kDetectionRuns = 8;   // x 108: 864 a cell
constexpr const char* kSlug = "simulated-gpu";

enum class Recorded { kOneGpu, kOneHost, kTwoHosts, kThreeHosts411, kThreeHosts222 };

constexpr Recorded kAllRecorded[] = {Recorded::kOneGpu, Recorded::kOneHost, Recorded::kTwoHosts,
                                     Recorded::kThreeHosts411, Recorded::kThreeHosts222};

const char* describe(Recorded recorded) {
  switch (recorded) {
    case Recorded::kOneGpu: return "1 GPU (today: default 4%)";
    case Recorded::kOneHost: return "4 GPUs of one host";
    case Recorded::kTwoHosts: return "4 + 1 GPUs of two hosts";
    case Recorded::kThreeHosts411: return "4 + 1 + 1 GPUs of three hosts";
    case Recorded::kThreeHosts222: return "2 + 2 + 2 GPUs of three hosts";
  }
  return "";
}

// One suite's truth: each benchmark's machine sd, and the level of each GPU and host drawn from it.
struct Suite {
  std::vector<std::string> names = suite_names();
  std::vector<double> machine_sd;
  std::vector<double> process_sd;
  double host_sd = 0.0;
  std::vector<double> host_level(Noise& noise) const {
    std::vector<double> level;
    for (std::size_t i = 0; i < names.size(); ++i) level.push_back(host_sd * noise.normal());
    return level;
  }
  std::vector<double> gpu_level(const std::vector<double>& host, Noise& noise) const {
    std::vector<double> level;
    for (std::size_t i = 0; i < names.size(); ++i) level.push_back(host[i] + machine_sd[i] * noise.normal());
    return level;
  }
};

Suite draw_suite(double host_sd, Noise& noise) {
  Suite suite;
  suite.host_sd = host_sd;
  for (std::size_t i = 0; i < suite.names.size(); ++i) {
    const bool tail = i < std::size(kTailMachineSd);
    suite.machine_sd.push_back(tail ? kTailMachineSd[i] : kMachineSdMedian * std::exp(kMachineSdLogSd * noise.normal()));
    suite.process_sd.push_back(i < 2 ? kWideProcessSd : kTypicalProcessSd);
  }
  return suite;
}

// One process of `gpu` measuring `measured` at `level` (log scale, per benchmark).
ResultsFile simulate_process(const Suite& suite, const std::string& gpu, const std::vector<double>& level,
                             const std::set<std::string>& measured, Noise& noise) {
  ResultsFile file;
  file.source = gpu + ".json";
  file.gpu.name = "Simulated GPU";
  file.gpu.slug = kSlug;
  file.gpu.uuid = gpu;
  for (std::size_t i = 0; i < suite.names.size(); ++i) {
    if (measured.count(suite.names[i]) == 0) continue;
    BenchmarkSamples& b = file.benchmarks[suite.names[i]];
    b.unit = formats::kUnitMicroseconds;
    b.repetitions = kSamplesPerProcess;
    b.samples = process_samples(level[i], suite.process_sd[i], noise);
  }
  return file;
}

// A host's recording of `gpus` GPUs (named "GPU-<host><n>"), every GPU kRecordingProcesses processes.
Baseline record_host(const Suite& suite, char host, int gpus, Noise& noise) {
  const std::vector<double> host_level = suite.host_level(noise);
  const std::set<std::string> all(suite.names.begin(), suite.names.end());
  std::vector<ResultsFile> runs;
  for (int g = 0; g < gpus; ++g) {
    const std::vector<double> level = suite.gpu_level(host_level, noise);
    const std::string gpu = std::string("GPU-") + host + std::to_string(g);
    for (int p = 0; p < kRecordingProcesses; ++p) runs.push_back(simulate_process(suite, gpu, level, all, noise));
  }
  RecordOptions options;
  options.date = "2026-11-28T00:00:00Z";
  return record_baseline(runs, nullptr, options);
}

Baseline record(const Suite& suite, Recorded recorded, Noise& noise) {
  switch (recorded) {
    case Recorded::kOneGpu: return record_host(suite, 'a', 1, noise);
    case Recorded::kOneHost: return record_host(suite, 'a', 4, noise);
    case Recorded::kTwoHosts:
      return merge_recordings({{"a.json", record_host(suite, 'a', 4, noise)}, {"b.json", record_host(suite, 'b', 1, noise)}},
                              nullptr);
    case Recorded::kThreeHosts411:
      return merge_recordings({{"a.json", record_host(suite, 'a', 4, noise)},
                               {"b.json", record_host(suite, 'b', 1, noise)},
                               {"c.json", record_host(suite, 'c', 1, noise)}},
                              nullptr);
    case Recorded::kThreeHosts222:
      return merge_recordings({{"a.json", record_host(suite, 'a', 2, noise)},
                               {"b.json", record_host(suite, 'b', 2, noise)},
                               {"c.json", record_host(suite, 'c', 2, noise)}},
                              nullptr);
  }
  return {};
}

// Whether the recorded machines of benchmark `name` agree within 1% (max/min - 1 of their levels).
bool machines_agree_within_one_percent(const BaselineEntry& entry) {
  if (entry.machine_medians.size() < 2) return false;
  double low = entry.machine_medians.begin()->second;
  double high = low;
  for (const auto& [uuid, level] : entry.machine_medians) {
    low = std::min(low, level);
    high = std::max(high, level);
  }
  return high / low - 1.0 < 0.01;
}

struct Cell {
  long long judgements = 0;
  long long slow = 0;
  long long tail_judgements = 0;  // the 4 benchmarks of the measured tail
  long long tail_slow = 0;
  long long agreeing = 0;  // judgements of benchmarks whose recorded machines agree within 1%
  long long agreeing_slow = 0;
  int runs = 0;
  int runs_with_slow = 0;
  double tolerance_sum = 0.0;  // of the typical benchmarks' tolerances [percent]
  long long typical = 0;
  double rate() const { return judgements == 0 ? 0.0 : static_cast<double>(slow) / static_cast<double>(judgements); }
  double tail_rate() const {
    return tail_judgements == 0 ? 0.0 : static_cast<double>(tail_slow) / static_cast<double>(tail_judgements);
  }
  double agreeing_rate() const {
    return agreeing == 0 ? 0.0 : static_cast<double>(agreeing_slow) / static_cast<double>(agreeing);
  }
};

// One suite run on a new host's GPU, against a baseline recorded as `recorded`, the code `slowdown` slower.
void simulate_run(Recorded recorded, double host_sd, double slowdown, Noise& noise, Cell& cell) {
  const Suite suite = draw_suite(host_sd, noise);
  const Baseline baseline = record(suite, recorded, noise);
  std::vector<double> level = suite.gpu_level(suite.host_level(noise), noise);
  for (double& l : level) l += std::log1p(slowdown);
  CompareOptions options;
  options.looks = kLooks;
  std::vector<ResultsFile> files;
  std::set<std::string> measured(suite.names.begin(), suite.names.end());
  Comparison comparison;
  for (int look = 1; look <= kLooks && !measured.empty(); ++look) {
    for (int p = 0; p < kProcessesPerLook; ++p) files.push_back(simulate_process(suite, "GPU-new", level, measured, noise));
    comparison = compare_with_baseline(baseline, files, options);
    measured = ambiguous_names(comparison);
  }
  int slow = 0;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    const bool is_slow = row.verdict == Verdict::kSlow;
    const std::size_t i = static_cast<std::size_t>(std::atoi(row.name.c_str() + 13));  // "sim/benchmark<i>/"
    ++cell.judgements;
    slow += is_slow ? 1 : 0;
    if (i < std::size(kTailMachineSd)) {
      ++cell.tail_judgements;
      cell.tail_slow += is_slow ? 1 : 0;
    } else {
      cell.tolerance_sum += row.tolerance_pct;
      ++cell.typical;
    }
    if (machines_agree_within_one_percent(baseline.benchmarks.at(row.name))) {
      ++cell.agreeing;
      cell.agreeing_slow += is_slow ? 1 : 0;
    }
  }
  cell.slow += slow;
  ++cell.runs;
  cell.runs_with_slow += slow > 0 ? 1 : 0;
}

Cell simulate_cell(Recorded recorded, double host_sd, double slowdown, int runs) {
  Noise noise(0x5EED9000ull + static_cast<std::uint64_t>(recorded) * 7919ull +
              static_cast<std::uint64_t>(host_sd * 1e4) * 104729ull + static_cast<std::uint64_t>(slowdown * 1e4));
  Cell cell;
  for (int r = 0; r < runs; ++r) simulate_run(recorded, host_sd, slowdown, noise, cell);
  return cell;
}

struct Row {
  Recorded recorded;
  double host_sd;
  Cell neutral;
  std::vector<Cell> slowed;  // one per kSlowdowns
};

class MachineSpreadSimulation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (Recorded recorded : kAllRecorded) {
      for (double host_sd : kHostSds) {
        Row row{recorded, host_sd, simulate_cell(recorded, host_sd, 0.0, kNeutralRuns), {}};
        for (double slowdown : kSlowdowns) row.slowed.push_back(simulate_cell(recorded, host_sd, slowdown, kDetectionRuns));
        rows_.push_back(row);
      }
    }
    std::ostringstream table;
    table << "Simulated suites of " << kSuiteBenchmarks << " benchmarks judged on a GPU of a host that recorded nothing "
          << "(k = " << kMachineSpreadK << " from 3 hosts, " << kMachineWideningK << " widening; prior df "
          << kMachineSpreadPriorDf << "; " << kRecordingProcesses
          << " recording processes a GPU; " << kProcessesPerLook << " processes a look, up to " << kLooks
          << " looks). A neutral cell holds " << kNeutralRuns << " runs (" << kNeutralRuns * kSuiteBenchmarks
          << " judgements), a slowdown cell " << kDetectionRuns << " (" << kDetectionRuns * kSuiteBenchmarks << ").\n\n";
    table << "| baseline recorded on | host sd (assumed) | typical tolerance | false alarms per benchmark, neutral change "
             "| of the 4 wide benchmarks | runs failed |";
    for (double s : kSlowdowns) table << " +" << pct(s, 0) << " caught |";
    table << " +3% caught where machines agree within 1% |\n|---|---|---|---|---|---|---|---|---|---|\n";
    for (const Row& row : rows_) {
      table << "| " << describe(row.recorded) << " | " << pct(row.host_sd, 1) << " | ";
      char tolerance[32];
      std::snprintf(tolerance, sizeof tolerance, "%.2f%%", row.neutral.tolerance_sum / row.neutral.typical);
      table << tolerance << " | " << row.neutral.slow << " / " << row.neutral.judgements << " = "
            << pct(row.neutral.rate(), 2) << " | " << pct(row.neutral.tail_rate(), 1) << " | " << row.neutral.runs_with_slow
            << " / " << row.neutral.runs << " |";
      for (const Cell& cell : row.slowed) table << " " << pct(cell.rate(), 0) << " |";
      table << " " << (row.recorded == Recorded::kOneGpu ? "-" : pct(row.slowed[1].agreeing_rate(), 0)) << " |\n";
    }
    std::printf("%s", table.str().c_str());
    if (const char* path = std::getenv("GATE_MACHINE_SIMULATION_TABLE")) std::ofstream(path) << table.str();
  }
  static const Row& row(Recorded recorded, double host_sd) {
    for (const Row& r : rows_) {
      if (r.recorded == recorded && r.host_sd == host_sd) return r;
    }
    throw std::logic_error("no such row");
  }
  static std::vector<Row> rows_;
};

std::vector<Row> MachineSpreadSimulation::rows_;

// What docs/statistics.md states ("Across machines"): whatever the baseline's recording, a neutral change
// fails no more benchmarks than today's flat 4% does at the same host sd. The margin is Monte Carlo: the
// flat-4% cell counts 9 (0.5%) and 27 (1%) false alarms of 6,480, a Poisson sd of 3-5, so 0.1 points
// (6.5 alarms) is about two of its sds at 0.5% and one at 1%, where the rule's cells sit at or below it.
constexpr double kFalseAlarmMargin = 0.001;

TEST_F(MachineSpreadSimulation, ANeutralChangeFailsNoMoreBenchmarksThanTheFlatDefault) {
  for (double host_sd : kHostSds) {
    const double today = row(Recorded::kOneGpu, host_sd).neutral.rate();
    for (Recorded recorded : kAllRecorded) {
      EXPECT_LE(row(recorded, host_sd).neutral.rate(), today + kFalseAlarmMargin)
          << describe(recorded) << ", host sd " << host_sd;
    }
  }
}

// One host's GPUs say nothing of other hosts: their spread only widens the default, never tightens it.
TEST_F(MachineSpreadSimulation, FewerThanThreeHostsNeverTighten) {
  for (Recorded recorded : {Recorded::kOneHost, Recorded::kTwoHosts}) {
    for (double host_sd : kHostSds) {
      const Cell& neutral = row(recorded, host_sd).neutral;
      EXPECT_GE(neutral.tolerance_sum / static_cast<double>(neutral.typical), 4.0) << describe(recorded);
    }
  }
}

// The gate still sees slowdowns, the larger the more often (the figures are printed for the docs).
TEST_F(MachineSpreadSimulation, LargerSlowdownsAreCaughtMoreOften) {
  for (const Row& r : rows_) {
    EXPECT_GT(r.slowed[2].rate(), r.neutral.rate()) << describe(r.recorded) << ", host sd " << r.host_sd;
    EXPECT_GE(r.slowed[2].rate(), r.slowed[0].rate()) << describe(r.recorded) << ", host sd " << r.host_sd;
  }
}

}  // namespace
}  // namespace gpuperf::gate
