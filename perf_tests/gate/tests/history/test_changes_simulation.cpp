// What the reports of history-changes list over many pushes, checked by simulation: 400 series of one GPU
// model, analysed after each of 40 pushes (one run more each), every analysis given the export of the
// one before as --previous, as the default-branch job does (scripts/ci/history_append.sh). A change point
// or drift listed once must not be listed again when it is lost for an analysis and found again
// (history/changes_previous.h): it asserts at most 2% of listings are repeats, and prints the table
// docs/history.md shows (set CHANGES_SIMULATION_TABLE=PATH to write it to a file too).
//
// The runs: the noise model of tests/history/history_noise_model.h at a process sd of 0.44%, 60 runs
// before the first analysis, 100 after the last. A quarter of the series each: clean; a step of 2-5% up
// or down at a run from 20 to 95 (some during the pushes); a step at the minimum effect, 0.8-1.3% (its
// change point comes and goes); a step of 2.4-3.6% at a run from 20 to 60 against a baseline tolerance
// of 3% (its drift sits near the tolerance, runner changes move it across). A listing is a repeat when
// the same series listed, at an earlier push, a change point of the same direction within
// kRepeatDistance runs, or a drift of the same direction.
// Cost: about 9 s of one core (twice 16,400 analyses of 60-100 runs: remembering what was reported, and,
// for the table's comparison, the last analysis only).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "gate/history/changes.h"
#include "gate/history/changes_previous.h"
#include "gate/history/series_json.h"
#include "gate/tests/history/history_noise_model.h"
#include "gate/tests/history/test_change_points_support.h"

namespace gpuperf::gate::history {
namespace {

constexpr int kSimulatedSeries = 400;
constexpr int kPushes = 40;
constexpr std::size_t kFirstRuns = 60;
constexpr double kSimulatedProcessSd = 0.0044;
constexpr double kSimulatedTolerancePct = 3.0;
constexpr std::size_t kRepeatDistance = 10;  // [runs]
constexpr const char* kSimulatedGpu = "nvidia-h100-80gb-hbm3";
constexpr const char* kSimulatedRecorded = "2026-01-01T00:00:00Z";

enum class Scenario { kClean, kStep, kMinimumEffect, kNearTolerance };
constexpr const char* kScenarioNames[] = {"clean", "step of 2-5%", "step of 0.8-1.3% (the minimum effect)",
                                          "step of 2.4-3.6%, tolerance 3%"};

std::string simulated_benchmark(int s) { return "sim/benchmark_" + std::to_string(s) + "/n:1"; }

std::string simulated_date(std::size_t run) {
  const std::time_t t = 1767225600 + static_cast<std::time_t>(run) * 3600;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// Series s, all of its runs (the analyses see its first kFirstRuns + push).
Series simulated_series(int s) {
  testing::Noise noise(0xC4A4650000ull + static_cast<std::uint64_t>(s));
  const auto scenario = static_cast<Scenario>(s % 4);
  const std::size_t runs = kFirstRuns + kPushes;
  double size = 0.0;
  std::size_t at = runs;
  const double sign = noise.uniform() < 0.5 ? -1.0 : 1.0;
  if (scenario == Scenario::kStep) {
    size = sign * noise.uniform(0.02, 0.05);
    at = 20 + noise.below(76);
  } else if (scenario == Scenario::kMinimumEffect) {
    size = sign * noise.uniform(0.008, 0.013);
    at = 20 + noise.below(76);
  } else if (scenario == Scenario::kNearTolerance) {
    size = sign * noise.uniform(0.024, 0.036);
    at = 20 + noise.below(41);
  }
  testing::RunnerPool pool = testing::draw_runner_pool(noise);
  Series series;
  series.gpu_slug = kSimulatedGpu;
  series.benchmark = simulated_benchmark(s);
  series.unit = "us";
  for (std::size_t i = 0; i < runs; ++i) {
    SeriesPoint point = testing::simulated_run(i >= at ? std::log1p(size) : 0.0, kSimulatedProcessSd, pool, noise);
    point.run_key = "o/r/" + std::to_string(i) + "/" + point.gpu_uuid;
    point.commit = "c" + std::to_string(i);
    point.date = simulated_date(i);
    point.verdict = "SAME";
    point.baseline_recorded = kSimulatedRecorded;
    series.points.push_back(std::move(point));
  }
  return series;
}

Baseline simulated_baseline() {
  Baseline baseline;
  baseline.gpu.name = "NVIDIA H100 80GB HBM3";
  baseline.gpu.slug = kSimulatedGpu;
  baseline.recorded.date = kSimulatedRecorded;
  baseline.recorded.commit = "c0";
  baseline.default_tolerance_pct = kSimulatedTolerancePct;
  for (int s = 0; s < kSimulatedSeries; ++s) {
    BaselineEntry entry;
    entry.median = 100.0;
    entry.process_medians = {100.0};
    entry.unit = "us";
    baseline.benchmarks[simulated_benchmark(s)] = entry;
  }
  return baseline;
}

struct Listing {
  bool drift = false;
  bool slower = false;
  std::size_t index = 0;  // a change point's
};

struct Tally {
  int change_listings = 0;
  int change_repeats = 0;
  int drift_listings = 0;
  int drift_repeats = 0;
  int listings() const { return change_listings + drift_listings; }
  int repeats() const { return change_repeats + drift_repeats; }
  double repeat_rate() const { return listings() == 0 ? 0.0 : static_cast<double>(repeats()) / listings(); }
};

// How --previous is given: the export as history-changes writes it (what was reported carried), or with
// its "reported" left out, as an export written before it carried one (the last analysis only).
enum class Memory { kReported, kLastAnalysisOnly };

// Every analysis of every series, each given the export of the one before; per scenario.
std::vector<Tally> simulate_pushes(Memory memory, const std::string& folder) {
  std::vector<Series> all;
  for (int s = 0; s < kSimulatedSeries; ++s) all.push_back(simulated_series(s));
  const Baseline baseline = simulated_baseline();
  std::vector<std::vector<Listing>> listed(all.size());
  std::vector<Tally> tallies(std::size(kScenarioNames));
  PreviousChanges previous;
  const std::string export_path = folder + "/previous.json";
  for (int push = 0; push <= kPushes; ++push) {
    ChangesAnalysis analysis(kSimulatedGpu, baseline, {}, previous);
    std::ostringstream text;
    SeriesJsonWriter json(text, kSimulatedGpu);
    for (const Series& whole : all) {
      Series seen = whole;
      seen.points.resize(kFirstRuns + static_cast<std::size_t>(push));
      ExportedSeries exported = analysis.add(std::move(seen));
      exported.series.points.clear();  // --previous reads no point: the simulation writes none
      if (memory == Memory::kLastAnalysisOnly) exported.reported.reset();
      json.add(exported);
    }
    json.finish(nullptr);
    formats::write_file_atomically(export_path, text.str());
    previous = read_previous_changes(export_path, kSimulatedGpu);
    EXPECT_EQ(previous.state, PreviousChanges::State::kRead) << previous.why_unreadable;

    const ChangesReport& report = analysis.report();
    for (std::size_t s = 0; s < report.series.size(); ++s) {
      const SeriesChanges& changes = report.series[s];
      Tally& tally = tallies[s % std::size(kScenarioNames)];
      std::vector<Listing> now;
      for (std::size_t c = 0; c < changes.change_points.size(); ++c) {
        if (!changes.change_point_is_new[c]) continue;
        const Listing listing{false, changes.change_points[c].change_pct > 0.0, changes.change_points[c].index};
        ++tally.change_listings;
        for (const Listing& before : listed[s]) {
          if (!before.drift && before.slower == listing.slower &&
              (before.index > listing.index ? before.index - listing.index : listing.index - before.index) <=
                  kRepeatDistance) {
            ++tally.change_repeats;
            break;
          }
        }
        now.push_back(listing);
      }
      if (changes.drift && changes.drift->beyond_tolerance && changes.drift_is_new) {
        const Listing listing{true, changes.drift->change_pct > 0.0, 0};
        ++tally.drift_listings;
        for (const Listing& before : listed[s]) {
          if (before.drift && before.slower == listing.slower) {
            ++tally.drift_repeats;
            break;
          }
        }
        now.push_back(listing);
      }
      listed[s].insert(listed[s].end(), now.begin(), now.end());
    }
  }
  return tallies;
}

std::string simulated_pct(int part, int whole) {
  char text[48];
  std::snprintf(text, sizeof text, "%d / %d = %.1f%%", part, whole, whole == 0 ? 0.0 : 100.0 * part / whole);
  return text;
}

TEST(ChangesSimulation, WhatWasReportedIsListedOnceOverFortyPushes) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("gate_changes_simulation_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  std::ostringstream table;
  table << kSimulatedSeries << " simulated series of one GPU model (process sd 0.44%, 3 runners 0.5-1.6% apart), "
        << "analysed at " << kFirstRuns << " runs and after each of " << kPushes
        << " pushes of one run, each analysis given the export of the one before (--previous). A repeat: a "
           "change point of the same direction within "
        << kRepeatDistance << " runs, or a drift of the same direction, listed at an earlier push.\n\n"
        << "| --previous remembers | series | change points listed | of them repeats | drifts listed | of them "
           "repeats | listings that are repeats |\n|---|---|---|---|---|---|---|\n";
  Tally remembered;
  for (const Memory memory : {Memory::kLastAnalysisOnly, Memory::kReported}) {
    const std::vector<Tally> tallies = simulate_pushes(memory, folder.string());
    Tally all;
    for (std::size_t k = 0; k < tallies.size(); ++k) {
      const Tally& t = tallies[k];
      all.change_listings += t.change_listings;
      all.change_repeats += t.change_repeats;
      all.drift_listings += t.drift_listings;
      all.drift_repeats += t.drift_repeats;
      table << "| " << (memory == Memory::kReported ? "what was reported" : "the last analysis only") << " | "
            << kScenarioNames[k] << " | " << t.change_listings << " | " << t.change_repeats << " | "
            << t.drift_listings << " | " << t.drift_repeats << " | "
            << simulated_pct(t.repeats(), t.listings()) << " |\n";
    }
    table << "| " << (memory == Memory::kReported ? "**what was reported**" : "**the last analysis only**")
          << " | **all " << kSimulatedSeries << "** | " << all.change_listings << " | " << all.change_repeats
          << " | " << all.drift_listings << " | " << all.drift_repeats << " | **"
          << simulated_pct(all.repeats(), all.listings()) << "** |\n";
    if (memory == Memory::kReported) remembered = all;
  }
  std::filesystem::remove_all(folder);
  std::printf("%s", table.str().c_str());
  if (const char* out = std::getenv("CHANGES_SIMULATION_TABLE")) std::ofstream(out) << table.str();
  // The target of issue 41: at most 2% of listings are repeats.
  EXPECT_LE(remembered.repeat_rate(), 0.02) << table.str();
  EXPECT_GT(remembered.change_listings, kSimulatedSeries / 4) << "the steps are listed";
  EXPECT_GT(remembered.drift_listings, kSimulatedSeries / 8) << "the drifts are listed";
}

}  // namespace
}  // namespace gpuperf::gate::history
