// The memory canary: the pure rule (every ceiling interval beyond 1% in one direction), its computation
// from processes (slower, faster, mixed, one benchmark missing, none), which benchmarks get its note, that
// it never changes a verdict or an exit code, and the reports on the fixtures of a machine that streams
// memory 5% slower (golden files) and of a clean one.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "gate/judging/ab_mode.h"
#include "gate/judging/memory_canary.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/reports/canary_words.h"
#include "gate/reports/reports.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::console_of;
using testing::expect_golden;
using testing::markdown_of;
using testing::testdata;

constexpr const char* kCopy = "ceiling/device_copy/n:268435456";
constexpr const char* kMemset = "ceiling/memset/n:268435456";
constexpr const char* kRead = "ceiling/read_only_stream/n:268435456";
constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kMatmul = "matmul/cublas_sgemm/m:4096,n:4096,k:4096";
constexpr double kConfidence = 0.99;

CanaryBenchmark ceiling(const std::string& name, double change_pct, double ci_low_pct, double ci_high_pct) {
  return CanaryBenchmark{name, change_pct, ci_low_pct, ci_high_pct};
}

TEST(CanaryShift, EveryIntervalBeyondOnePercentInOneDirection) {
  EXPECT_EQ(canary_shift({ceiling(kCopy, 3.2, 3.0, 3.4), ceiling(kMemset, 3.1, 2.9, 3.3)}), CanaryShift::kSlower);
  EXPECT_EQ(canary_shift({ceiling(kCopy, -3.2, -3.4, -3.0), ceiling(kMemset, -1.5, -1.8, -1.2)}),
            CanaryShift::kFaster);
  EXPECT_EQ(canary_shift({ceiling(kCopy, 3.2, 3.0, 3.4), ceiling(kMemset, -3.1, -3.3, -2.9)}), CanaryShift::kNone)
      << "mixed directions are not a machine";
  EXPECT_EQ(canary_shift({ceiling(kCopy, 3.2, 3.0, 3.4), ceiling(kMemset, 1.2, 0.9, 1.5)}), CanaryShift::kNone)
      << "one interval reaches inside 1%";
  EXPECT_EQ(canary_shift({ceiling(kCopy, 1.0, 1.0, 1.2)}), CanaryShift::kNone) << "at 1% is not beyond it";
  EXPECT_EQ(canary_shift({}), CanaryShift::kNone);
  EXPECT_EQ(canary_shift({ceiling(kCopy, 0.8, 0.6, 1.0)}, 0.5), CanaryShift::kSlower) << "the threshold is a parameter";
}

// A baseline of the three ceilings from 10 processes (process sd 0.1%, as measured on H100 and H200).
Baseline ceiling_baseline() {
  Baseline b = testing::baseline_for(testing::kH200, 4.0);
  b.benchmarks[kCopy] = testing::baseline_entry(testing::noisy_samples(505.0, 0.001, 10, 1));
  b.benchmarks[kMemset] = testing::baseline_entry(testing::noisy_samples(235.0, 0.001, 10, 2));
  b.benchmarks[kRead] = testing::baseline_entry(testing::noisy_samples(248.5, 0.001, 10, 3));
  return b;
}

// Three processes with each ceiling scaled by its factor; a factor of 0 leaves that benchmark out.
std::vector<ResultsFile> ceiling_results(double copy, double memset, double read) {
  std::vector<ResultsFile> files;
  for (int i = 0; i < 3; ++i) files.push_back(testing::results_for(testing::kH200));
  if (copy > 0.0) testing::add_processes(files, kCopy, 505.0 * copy, 0.001, 11);
  if (memset > 0.0) testing::add_processes(files, kMemset, 235.0 * memset, 0.001, 12);
  if (read > 0.0) testing::add_processes(files, kRead, 248.5 * read, 0.001, 13);
  return files;
}

TEST(MemoryCanary, MovedSlower) {
  const Canary c = memory_canary(ceiling_baseline(), ceiling_results(1.03, 1.03, 1.03), kConfidence);
  ASSERT_EQ(c.benchmarks.size(), 3u);
  EXPECT_EQ(c.benchmarks[0].name, kCopy) << "by name";
  EXPECT_EQ(c.shift, CanaryShift::kSlower);
  EXPECT_NEAR(c.change_pct, 3.0, 0.3);
  for (const CanaryBenchmark& b : c.benchmarks) EXPECT_LT(b.ci_low_pct, b.ci_high_pct) << b.name;
  EXPECT_TRUE(c.left_out.empty());
  EXPECT_EQ(canary_summary(c).rfind("this machine streams memory ", 0), 0u) << canary_summary(c);
  EXPECT_NE(canary_summary(c).find("% slower than the baseline's (ceiling: device_copy +"), std::string::npos) << canary_summary(c);
  EXPECT_NE(canary_action(c).find("may reflect the machine, not the code"), std::string::npos) << canary_action(c);
}

TEST(MemoryCanary, MovedFaster) {
  const Canary c = memory_canary(ceiling_baseline(), ceiling_results(0.96, 0.95, 0.97), kConfidence);
  EXPECT_EQ(c.shift, CanaryShift::kFaster);
  EXPECT_NEAR(c.change_pct, -4.0, 0.3) << "the median of the three";
  EXPECT_NE(canary_summary(c).find("% faster than the baseline's"), std::string::npos) << canary_summary(c);
}

TEST(MemoryCanary, MixedDirectionsHaveNotMoved) {
  const Canary c = memory_canary(ceiling_baseline(), ceiling_results(1.03, 0.97, 1.03), kConfidence);
  EXPECT_TRUE(c.measured());
  EXPECT_EQ(c.shift, CanaryShift::kNone);
  EXPECT_NEAR(c.change_pct, 3.0, 0.3);
  EXPECT_EQ(canary_summary(c).rfind("memory canary: +", 0), 0u) << canary_summary(c);
  EXPECT_NE(canary_summary(c).find("(median of 3 ceiling benchmarks), no shift beyond 1%"), std::string::npos) << canary_summary(c);
  EXPECT_EQ(canary_action(c), "");
}

TEST(MemoryCanary, UnchangedHasNotMoved) {
  const Canary c = memory_canary(ceiling_baseline(), ceiling_results(1.0, 1.0, 1.0), kConfidence);
  EXPECT_EQ(c.shift, CanaryShift::kNone);
  EXPECT_LT(std::abs(c.change_pct), 0.3);
}

TEST(MemoryCanary, OneCeilingBenchmarkMissingIsLeftOutAndNamed) {
  const Canary c = memory_canary(ceiling_baseline(), ceiling_results(1.03, 0.0, 1.03), kConfidence);
  ASSERT_EQ(c.benchmarks.size(), 2u);
  EXPECT_EQ(c.shift, CanaryShift::kSlower) << "the two measured ones decide";
  EXPECT_EQ(canary_left_out_words(c), std::vector<std::string>{std::string(kMemset) + " (not in the results)"});
  EXPECT_NE(canary_summary(c).find("; not compared: " + std::string(kMemset) + " (not in the results)"), std::string::npos)
      << canary_summary(c);

  Baseline without_read = ceiling_baseline();
  without_read.benchmarks.erase(kRead);
  const Canary d = memory_canary(without_read, ceiling_results(1.0, 1.0, 1.0), kConfidence);
  EXPECT_EQ(d.benchmarks.size(), 2u);
  EXPECT_EQ(canary_left_out_words(d), std::vector<std::string>{std::string(kRead) + " (not in the baseline)"});
}

TEST(MemoryCanary, ThrottledOrErroredCeilingsAreLeftOut) {
  std::vector<ResultsFile> results = ceiling_results(1.03, 1.03, 1.03);
  for (ResultsFile& file : results) {
    file.benchmarks[kMemset].samples.resize(2);  // the rest throttled
    file.benchmarks[kRead].error = true;
  }
  const Canary c = memory_canary(ceiling_baseline(), results, kConfidence);
  ASSERT_EQ(c.benchmarks.size(), 1u);
  EXPECT_EQ(canary_left_out_words(c), (std::vector<std::string>{std::string(kMemset) + " (no process with 5 valid samples)",
                                                  std::string(kRead) + " (reported an error)"}));
}

TEST(MemoryCanary, NonePresent) {
  std::vector<ResultsFile> reduction_only = testing::processes(kReduce9, 42.0, 0.002, 3, 5);
  const Canary c = memory_canary(ceiling_baseline(), reduction_only, kConfidence);
  EXPECT_FALSE(c.measured());
  EXPECT_FALSE(c.moved());
  EXPECT_EQ(canary_summary(c), "no memory canary (the results hold no ceiling benchmarks)");

  const Canary d = memory_canary(testing::baseline_for(testing::kH200, 4.0), ceiling_results(1.0, 1.0, 1.0),
                                 kConfidence);
  EXPECT_FALSE(d.measured());
  EXPECT_EQ(canary_summary(d), "no memory canary (the baseline holds no ceiling benchmarks)");
}

TEST(MemoryBound, BytesWithLittleArithmeticInMicroseconds) {
  EXPECT_TRUE(memory_bound(formats::kUnitMicroseconds, 134217728.0, 0.0)) << "a reduction";
  EXPECT_TRUE(memory_bound(formats::kUnitMicroseconds, 3221225472.0, 536870912.0)) << "fusion: 0.17 flop per byte";
  EXPECT_FALSE(memory_bound(formats::kUnitMicroseconds, 201326592.0, 137438953472.0)) << "matmul: 683 flops per byte";
  EXPECT_FALSE(memory_bound(formats::kUnitMicroseconds, 0.0, 0.0)) << "no bytes counted";
  EXPECT_FALSE(memory_bound(formats::kUnitCycles, 4096.0, 0.0)) << "a cycle count does not move with the memory";
}

TEST(CanaryNote, SaysWhichWay) {
  EXPECT_EQ(canary_note(3.14), "machine's memory 3.1% slower");
  EXPECT_EQ(canary_note(-3.14), "machine's memory 3.1% faster");
}

// The fixtures (testdata/README.md): the ceilings, reduce9 and a matmul of 3 processes against
// baseline_h200_canary.json; in results_memory_slow_* the ceilings and reduce9 are 5% slower.
std::vector<ResultsFile> fixture_results(const std::string& stem) {
  std::vector<ResultsFile> files;
  for (int i = 1; i <= 3; ++i) files.push_back(load_results(testdata(stem + std::to_string(i) + ".json")));
  return files;
}

Comparison canary_comparison(const std::string& stem, const Selection& selection) {
  CompareOptions options;
  options.selection = selection;
  return compare_with_baseline(load_baseline(testdata("baseline_h200_canary.json")), fixture_results(stem), options);
}

// As perf_gate run --family reduction judges it: the ceiling benchmarks in its processes, outside its selection.
Comparison memory_slow_comparison() {
  return canary_comparison("results_memory_slow_", Selection::family("reduction"));
}

TEST(GoldenReports, MemorySlowConsole) {
  expect_golden("canary_moved_console.txt", console_of(memory_slow_comparison()));
}
TEST(GoldenReports, MemorySlowMarkdown) {
  expect_golden("canary_moved_summary.md", markdown_of(memory_slow_comparison()));
}
TEST(GoldenReports, MemorySlowJson) {
  expect_golden("canary_moved_report.json", json_report(memory_slow_comparison()));
}
TEST(GoldenReports, CanaryCleanMarkdown) {
  expect_golden("canary_clean_summary.md",
                markdown_of(canary_comparison("results_canary_clean_", Selection::family("reduction"))));
}

TEST(CanaryReports, MovedCanaryWarnsOnceAndNotesMemoryBoundVerdicts) {
  const Comparison c = memory_slow_comparison();
  ASSERT_TRUE(c.canary);
  EXPECT_EQ(c.canary->shift, CanaryShift::kSlower);
  EXPECT_NEAR(c.canary->change_pct, 5.0, 0.6);
  ASSERT_EQ(c.benchmarks.size(), 1u) << "the ceilings are judged where they are selected, not here";
  EXPECT_EQ(c.benchmarks[0].verdict, Verdict::kSlow);
  ASSERT_TRUE(c.benchmarks[0].machine_memory_change_pct);
  const std::string console = console_of(c);
  EXPECT_EQ(console.find("WARNING    this machine streams memory"), console.rfind("WARNING    this machine streams"))
      << console;
  EXPECT_NE(console.find("(machine's memory 5."), std::string::npos) << console;

  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  EXPECT_EQ(doc["canary"]["moved"], true);
  EXPECT_EQ(doc["canary"]["shift"], "slower");
  EXPECT_EQ(doc["canary"]["benchmarks"].size(), 3u);
  EXPECT_TRUE(doc["benchmarks"][0]["machine_memory_change_pct"].is_number());
}

TEST(CanaryReports, TheNoteGoesBesideMemoryBoundRowsOnly) {
  const Comparison c = canary_comparison("results_memory_slow_", Selection{});
  int noted = 0;
  for (const BenchmarkComparison& row : c.benchmarks) {
    if (row.name == kMatmul) {
      EXPECT_FALSE(row.machine_memory_change_pct) << "bound by arithmetic";
      EXPECT_EQ(row.verdict, Verdict::kSame);
    } else {
      EXPECT_TRUE(row.machine_memory_change_pct) << row.name;
      ++noted;
    }
  }
  EXPECT_EQ(noted, 4) << "the three ceilings and reduce9";
}

// The same results without their ceiling benchmarks: what the comparison would be with no canary.
std::vector<ResultsFile> without_ceilings(std::vector<ResultsFile> files) {
  for (ResultsFile& file : files) {
    for (const char* name : {kCopy, kMemset, kRead}) file.benchmarks.erase(name);
  }
  return files;
}

TEST(CanaryReports, NeverChangesAVerdictOrTheExitCode) {
  const Baseline baseline = load_baseline(testdata("baseline_h200_canary.json"));
  for (const char* stem : {"results_memory_slow_", "results_canary_clean_"}) {
    CompareOptions options;
    options.selection = Selection::family("reduction");
    const Comparison with = compare_with_baseline(baseline, fixture_results(stem), options);
    const Comparison without = compare_with_baseline(baseline, without_ceilings(fixture_results(stem)), options);
    ASSERT_TRUE(with.canary && with.canary->measured()) << stem;
    ASSERT_TRUE(without.canary && !without.canary->measured()) << stem;
    ASSERT_EQ(with.benchmarks.size(), without.benchmarks.size()) << stem;
    for (std::size_t i = 0; i < with.benchmarks.size(); ++i) {
      EXPECT_EQ(with.benchmarks[i].verdict, without.benchmarks[i].verdict) << with.benchmarks[i].name;
      EXPECT_EQ(with.benchmarks[i].ratio, without.benchmarks[i].ratio) << with.benchmarks[i].name;
    }
    EXPECT_EQ(exit_code(with), exit_code(without)) << stem;
  }
}

TEST(CanaryReports, CleanCanaryIsQuiet) {
  const Comparison c = canary_comparison("results_canary_clean_", Selection::family("reduction"));
  ASSERT_TRUE(c.canary && c.canary->measured());
  EXPECT_FALSE(c.canary->moved());
  ASSERT_EQ(c.benchmarks.size(), 1u);
  EXPECT_EQ(c.benchmarks[0].verdict, Verdict::kSame);
  EXPECT_EQ(console_of(c).find("WARNING"), std::string::npos) << console_of(c);
  EXPECT_EQ(console_of(c).find("canary"), std::string::npos) << "the console stays free of it: " << console_of(c);
  EXPECT_NE(markdown_of(c).find("\nMemory canary: "), std::string::npos) << markdown_of(c);
  EXPECT_FALSE(c.benchmarks[0].machine_memory_change_pct);
  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  EXPECT_EQ(doc["canary"]["moved"], false);
  EXPECT_EQ(doc["canary"]["shift"], "none");
  EXPECT_TRUE(doc["benchmarks"][0]["machine_memory_change_pct"].is_null());
}

TEST(CanaryReports, NoCeilingsInTheResultsIsSaidOutsideTheCeilingFamilyOnly) {
  const Baseline baseline = load_baseline(testdata("baseline_h200_canary.json"));
  const std::vector<ResultsFile> results = without_ceilings(fixture_results("results_canary_clean_"));
  CompareOptions reduction;
  reduction.selection = Selection::family("reduction");
  const Comparison c = compare_with_baseline(baseline, results, reduction);
  EXPECT_NE(markdown_of(c).find("\nNo memory canary (the results hold no ceiling benchmarks).\n"), std::string::npos)
      << markdown_of(c);
  EXPECT_TRUE(nlohmann::json::parse(json_report(c))["canary"].is_null());

  CompareOptions ceiling_family;
  ceiling_family.selection = Selection::family(kCanaryFamily);
  const Comparison d = compare_with_baseline(baseline, results, ceiling_family);
  EXPECT_FALSE(d.canary) << "its MISSING rows say it";
  EXPECT_EQ(markdown_of(d).find("emory canary"), std::string::npos) << markdown_of(d);
  EXPECT_TRUE(nlohmann::json::parse(json_report(d))["canary"].is_null());
}

TEST(CanaryReports, AbModeHasNone) {
  const std::vector<ResultsFile> a = ceiling_results(1.0, 1.0, 1.0);
  const std::vector<ResultsFile> b = ceiling_results(1.05, 1.05, 1.05);
  const Comparison c = compare_ab(a, b, AbOptions{});
  EXPECT_FALSE(c.canary) << "both builds ran on one machine, interleaved";
  EXPECT_TRUE(nlohmann::json::parse(json_report(c))["canary"].is_null());
  EXPECT_EQ(markdown_of(c).find("emory canary"), std::string::npos);
}

}  // namespace
}  // namespace gpuperf::gate
