// perf_gate history-changes end to end, over a SQLite store and a baseline file as CI gives them: the drift
// line tells the runs' verdicts, a series is judged only against a baseline entry of its unit and the
// baseline its runs were judged against, and --previous lists only what is new since the previous push.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "gate/history/series_json.h"
#include "gate/history/store.h"
#include "gate/inputs/baseline.h"
#include "gate/statistics/statistics.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::testing {
namespace {

constexpr const char* kGpu = "nvidia-h100-80gb-hbm3";
constexpr const char* kStepped = "reduction/reduce7_many_elements_per_thread/n:268435456";
constexpr const char* kCounted = "smem_latency/pointer_chase/stride:1";  // in us here, in cycles in the baseline
constexpr const char* kJudgedAgainst = "2026-11-23T23:24:59Z";
constexpr int kRuns = 32;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class HistoryChangesCli : public ScratchFolderTest {
 protected:
  void SetUp() override {
    ScratchFolderTest::SetUp();
    const std::unique_ptr<history::Store> store = history::open_store(store_name(), history::StoreAccess::kAppend);
    for (int i = 0; i < kRuns; ++i) store->append(run(i));
  }

  // Run i on main: reduce7 5% slower from run 20 on, judged SLOW against the baseline from run 24 on.
  history::RunRecord run(int i) {
    history::RunRecord r;
    r.run_key = "o/r/" + std::to_string(i) + "/GPU-1";
    r.commit = commit(i);
    r.date = "2026-12-" + std::to_string(10 + i / 10) + "T1" + std::to_string(i % 10) + ":00:00Z";
    r.gpu_slug = kGpu;
    r.gpu_uuid = "GPU-1";
    r.baseline_recorded = kJudgedAgainst;
    const double level = i < 20 ? 100.0 : 105.0;
    r.benchmarks[kStepped] = {{level * (1.0 + 0.002 * noise_.normal()), level * (1.0 + 0.002 * noise_.normal()),
                               level * (1.0 + 0.002 * noise_.normal())},
                              "us",
                              i < 24 ? "SAME" : "SLOW",
                              ""};
    r.benchmarks[kCounted] = {{31.0 * (1.0 + 0.002 * noise_.normal())}, "us", "SAME", ""};
    return r;
  }

  static std::string commit(int i) {
    char text[16];
    std::snprintf(text, sizeof text, "%07x", 0xa000000 + i);
    return text;
  }

  // The baseline the runs were judged against (recorded kJudgedAgainst), reduce7 at its first level;
  // pointer_chase recorded in cycles.
  std::string baseline_file(const std::string& recorded = kJudgedAgainst, double reduce7_median = 100.0) {
    Baseline baseline;
    baseline.gpu.name = "NVIDIA H100 80GB HBM3";
    baseline.gpu.slug = kGpu;
    baseline.recorded.date = recorded;
    baseline.recorded.commit = "abc1234";
    baseline.recorded.runs = 3;
    baseline.recorded.samples_per_run = 30;
    baseline.default_tolerance_pct = 2.0;
    BaselineEntry reduce7;
    reduce7.unit = "us";
    reduce7.median = reduce7_median;
    reduce7.process_medians = {reduce7.median};
    baseline.benchmarks[kStepped] = reduce7;
    BaselineEntry cycles;
    cycles.unit = "cycles";
    cycles.median = 0.031;
    cycles.process_medians = {0.031};
    baseline.benchmarks[kCounted] = cycles;
    const std::string file = path("baseline-" + recorded.substr(0, 10) + ".json");
    formats::write_file_atomically(file, baseline_to_text(baseline));
    return file;
  }

  std::string store_name() const { return "sqlite:" + path("history.sqlite"); }

  CliRun changes(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"history-changes", "--store", store_name(), "--gpu", kGpu};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }

  static std::string read(const std::string& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  class Noise {
   public:
    double normal() {
      const double u = (static_cast<double>(rng_.next() >> 11) + 0.5) * 0x1.0p-53;
      const double v = (static_cast<double>(rng_.next() >> 11) + 0.5) * 0x1.0p-53;
      return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
    }

   private:
    SplitMix64 rng_{77};
  } noise_;
};

// Defects 16 and 17: the drift line said "though every run passed" over runs judged SLOW, and a series in
// us was judged against its baseline entry in cycles ("DRIFT -99.9%").
TEST_F(HistoryChangesCli, TheDriftLineTellsTheVerdictsAndAnEntryOfAnotherUnitIsNotJudged) {
  const CliRun run = changes({"--baseline", baseline_file(), "--json", path("changes.json"), "--markdown", path("changes.md")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_TRUE(contains(run.out, std::string("DRIFT   ") + kStepped)) << run.out;
  EXPECT_TRUE(contains(run.out, "the 32 runs judged against it: 24 SAME, 8 SLOW")) << run.out;
  EXPECT_FALSE(contains(run.out, "passed")) << run.out;
  EXPECT_FALSE(contains(run.out, std::string("DRIFT   ") + kCounted)) << run.out;
  EXPECT_TRUE(contains(run.out, std::string("UNIT    ") + kCounted + "  in us, its baseline entry in cycles")) << run.out;
  const std::string markdown = read(path("changes.md"));
  EXPECT_FALSE(contains(markdown, "passed")) << markdown;
  EXPECT_TRUE(contains(markdown, "24 SAME, 8 SLOW")) << markdown;
  const history::SeriesExport exported = history::read_series_json(read(path("changes.json")), "changes.json");
  ASSERT_EQ(exported.series.size(), 2u);
  EXPECT_TRUE(exported.series[0].drift);
  EXPECT_FALSE(exported.series[1].drift) << "no drift judged across units";
}

// Issue 41: the export of 108 benchmarks x 10,000 runs was 570 MB, each point indented over 15 lines with
// its run key and GPU UUID, which the dashboard drops. A point is one line of what the dashboard draws.
TEST_F(HistoryChangesCli, TheExportHoldsAPointOnOneLineWithoutItsRunKeyAndGpu) {
  const CliRun run = changes({"--json", path("changes.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  const std::string text = read(path("changes.json"));
  EXPECT_FALSE(contains(text, "run_key")) << text.substr(0, 2000);
  EXPECT_FALSE(contains(text, "gpu_uuid")) << text.substr(0, 2000);
  EXPECT_TRUE(contains(text, "\n        {\"commit\": \"")) << text.substr(0, 2000);
  const history::SeriesExport exported = history::read_series_json(text, "changes.json");
  ASSERT_EQ(exported.series.size(), 2u);
  ASSERT_FALSE(exported.series[0].series.points.empty());
  EXPECT_EQ(exported.series[0].series.points[0].run_key, "");
  EXPECT_FALSE(exported.series[0].series.points[0].commit.empty());
}

// Defect 18: the baseline file was re-recorded after the runs; its value is not theirs and its date not
// the one they were judged against. No drift is judged, and the report says so.
TEST_F(HistoryChangesCli, ABaselineOtherThanTheOneTheRunsWereJudgedAgainstJudgesNoDrift) {
  const CliRun run =
      changes({"--baseline", baseline_file("2026-12-20T00:00:00Z", 105.0), "--json", path("changes.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_FALSE(contains(run.out, "DRIFT")) << run.out;
  EXPECT_TRUE(contains(run.out, "drift not judged in 1 series: the latest run was judged against the baseline "
                                "recorded 2026-11-23T23:24:59Z, not the baseline given (recorded 2026-12-20T00:00:00Z)"))
      << run.out;
  EXPECT_TRUE(contains(run.out, std::string("CHANGE  ") + kStepped)) << "change points do not need the baseline";
}

// Defect 19: every change point ever found was listed again at every push. With the previous push's
// export only what is new is listed; a previous export that is missing lists everything, saying why.
TEST_F(HistoryChangesCli, WithThePreviousAnalysisOnlyWhatIsNewIsListed) {
  const std::string baseline = baseline_file();
  CliRun run = changes({"--baseline", baseline, "--json", path("first.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  const std::string first = run.out;
  EXPECT_TRUE(contains(first, "CHANGE  ")) << first;

  run = changes({"--baseline", baseline, "--json", path("second.json"), "--markdown", path("second.md"), "--previous",
                 path("first.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_FALSE(contains(run.out, "CHANGE  ")) << run.out;
  EXPECT_FALSE(contains(run.out, "DRIFT   ")) << run.out;
  EXPECT_TRUE(contains(run.out, "not listed again: 1 change point, 1 drift beyond the tolerance")) << run.out;
  EXPECT_TRUE(contains(read(path("second.md")), "Nothing new since the previous analysis in 2 series."));
  EXPECT_EQ(read(path("second.json")), read(path("first.json"))) << "the export keeps every change point";

  run = changes({"--baseline", baseline, "--json", path("third.json"), "--previous", path("absent.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_TRUE(contains(run.out, "the previous analysis could not be read (cannot open '" + path("absent.json")))
      << run.out;
  EXPECT_TRUE(contains(run.out, "every change point and drift is listed as new")) << run.out;
  EXPECT_EQ(run.out.substr(0, first.size()), first) << "everything listed, as without --previous";
}

}  // namespace
}  // namespace gpuperf::gate::testing
