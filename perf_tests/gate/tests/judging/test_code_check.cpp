// The code side of the gate on fixtures (testdata/make_fixtures.py): a code change beside its SLOW
// verdict, a SLOW verdict over the same code, a pass over new spills, results or a baseline without
// fingerprints, and --skip-unchanged (which benchmarks, on which platform). Reports as golden files.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "formats/json_input.h"
#include "gate/judging/code_check.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/recording/record.h"
#include "gate/reports/code_lines.h"
#include "gate/reports/code_words.h"
#include "gate/reports/reports.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::console_of;
using testing::expect_golden;
using testing::markdown_of;
using testing::testdata;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kReduce1 = "reduction/reduce1_interleaved_divergent/n:1048576";
constexpr const char* kPointerChase = "smem_latency/pointer_chase/stride:1";
constexpr const char* kRemoved = "reduction/reduce0_removed_variant/n:1024";

std::vector<ResultsFile> processes(const std::string& prefix) {
  return load_results_files({testdata(prefix + "1.json"), testdata(prefix + "2.json"), testdata(prefix + "3.json")});
}

Baseline fingerprinted_baseline() { return load_baseline(testdata("baseline_h200_fingerprints.json")); }

Comparison compared(const Baseline& baseline, const std::vector<ResultsFile>& results, bool skip_unchanged = false) {
  CompareOptions options;
  options.skip_unchanged = skip_unchanged;
  return compare_with_baseline(baseline, results, options);
}

const BenchmarkComparison& row_of(const Comparison& comparison, const std::string& name) {
  const auto it = std::find_if(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                               [&name](const BenchmarkComparison& row) { return row.name == name; });
  if (it == comparison.benchmarks.end()) throw std::runtime_error("no row " + name);
  return *it;
}

bool contains(const std::vector<std::string>& lines, const std::string& text) {
  return std::any_of(lines.begin(), lines.end(), [&text](const std::string& line) { return line.find(text) != std::string::npos; });
}

TEST(CodeCheck, FingerprintsAreReadFromResultsAndBaseline) {
  const std::vector<ResultsFile> results = processes("results_code_change_");
  EXPECT_EQ(results[0].fingerprints.size(), 3u) << "the first (checking) process holds them";
  EXPECT_TRUE(results[1].fingerprints.empty());
  EXPECT_EQ(pool_fingerprints(results).at(kReduce9).kernels.at(0).grid[0], 128);
  EXPECT_EQ(baseline_fingerprints(fingerprinted_baseline()).size(), 3u) << "reduce0_removed_variant has none";
}

TEST(CodeCheck, ACodeChangeIsNamedBesideItsVerdict) {
  const Comparison c = compared(fingerprinted_baseline(), processes("results_code_change_"));
  const BenchmarkComparison& reduce9 = row_of(c, kReduce9);
  EXPECT_EQ(reduce9.verdict, Verdict::kSlow);
  ASSERT_TRUE(reduce9.code);
  EXPECT_EQ(reduce9.code->comparison, CodeComparison::kChanged);
  const auto grid = std::find_if(reduce9.code->differences.begin(), reduce9.code->differences.end(),
                                 [](const CodeDifference& d) { return d.kind == CodeDifferenceKind::kGrid; });
  ASSERT_NE(grid, reduce9.code->differences.end()) << code_line(reduce9, c.mode);
  EXPECT_EQ(grid->before_dims, (std::array<int, 3>{528, 1, 1}));
  EXPECT_EQ(grid->now_dims, (std::array<int, 3>{128, 1, 1}));
  EXPECT_TRUE(grid->warning) << "a quarter of the blocks";
  EXPECT_TRUE(contains(code_change_words(*reduce9.code), "grid 528x1x1 -> 128x1x1 blocks"));
  EXPECT_NE(code_line(reduce9, c.mode).find("grid 528x1x1 -> 128x1x1"), std::string::npos);
  // reduce1: SAME in time, but it spills now: a warning.
  const BenchmarkComparison& reduce1 = row_of(c, kReduce1);
  EXPECT_EQ(reduce1.verdict, Verdict::kSame);
  const std::vector<std::string> warnings = code_warnings(reduce1);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("SAME, but"), std::string::npos);
  EXPECT_NE(warnings[0].find("local memory 0 -> 48 B/thread"), std::string::npos);
  EXPECT_EQ(row_of(c, kPointerChase).code->comparison, CodeComparison::kSame);
  EXPECT_EQ(exit_code(c), 1) << "the code side never changes a verdict or the exit code";
}

TEST(CodeCheck, SlowOverTheSameCodeSaysTheCauseIsElsewhere) {
  const Comparison c = compared(fingerprinted_baseline(), processes("results_same_code_slow_"));
  const BenchmarkComparison& reduce9 = row_of(c, kReduce9);
  EXPECT_EQ(reduce9.verdict, Verdict::kSlow);
  EXPECT_EQ(code_line(reduce9, c.mode),
            "code: the same kernels as the baseline's (SASS, launches, libraries); copies and sets not compared")
      << "kernels-only fingerprints (schema 1): the copies and sets may have changed";
  const VerdictCounts same = same_code_counts(c);
  EXPECT_EQ(same[static_cast<int>(Verdict::kSlow)], 1) << "a SLOW on the same code is counted: a false alarm or not the code";
  EXPECT_EQ(same[static_cast<int>(Verdict::kSame)], 2);
}

TEST(CodeCheck, ResultsWithoutFingerprintsAreJudgedAndSaySo) {
  const Comparison with = compared(fingerprinted_baseline(), processes("results_slow_"));
  EXPECT_EQ(code_not_checked_text(with), "these results hold no fingerprints (a checking process of gpuperf_bench captures them with CUPTI)");
  EXPECT_EQ(row_of(with, kReduce9).verdict, Verdict::kSlow) << "judged on timings as before";
  EXPECT_FALSE(row_of(with, kReduce9).code);
  const Comparison old_baseline = compared(load_baseline(testdata("baseline_h200.json")), processes("results_code_change_"));
  EXPECT_NE(code_not_checked_text(old_baseline).find("the baseline holds no fingerprints"), std::string::npos);
  const Comparison neither = compared(load_baseline(testdata("baseline_h200.json")), processes("results_run"));
  EXPECT_NE(code_summary(neither).find("code changes not checked: neither the baseline nor these results"),
            std::string::npos);
}

TEST(CodeCheck, OnlyBenchmarksWithAFingerprintAreCompared) {
  const Comparison c = compared(fingerprinted_baseline(), processes("results_code_change_"));
  EXPECT_FALSE(row_of(c, kRemoved).code) << "in neither side's fingerprints: nothing to compare";
  EXPECT_EQ(code_summary(c), "code: 1 benchmark ran the same code as the baseline, 2 changed");
  // One side without a fingerprint for a benchmark the other has: not compared, and said why.
  Baseline baseline = fingerprinted_baseline();
  baseline.benchmarks.at(kPointerChase).fingerprint.reset();
  const Comparison one_sided = compared(baseline, processes("results_code_change_"));
  ASSERT_TRUE(row_of(one_sided, kPointerChase).code);
  EXPECT_EQ(row_of(one_sided, kPointerChase).code->comparison, CodeComparison::kUnknown);
  EXPECT_EQ(row_of(one_sided, kPointerChase).code->baseline_missing, CodeSideMissing::kNoneForBenchmark);
  EXPECT_EQ(row_of(one_sided, kPointerChase).code->current_missing, CodeSideMissing::kCaptured);
  EXPECT_NE(code_summary(one_sided).find(", 1 not compared (the baseline has no fingerprint (none recorded for it))"),
            std::string::npos)
      << code_summary(one_sided);
}

TEST(CodeCheck, RecordKeepsFingerprintsOneLineEachInTheBaseline) {
  const Baseline recorded = record_baseline(processes("results_code_change_"), nullptr, RecordOptions{});
  ASSERT_TRUE(recorded.benchmarks.at(kReduce9).fingerprint);
  EXPECT_EQ(recorded.benchmarks.at(kReduce9).fingerprint->kernels.at(0).grid[0], 128);
  const std::string text = baseline_to_text(recorded);
  std::size_t lines = 0;
  for (std::size_t at = text.find("\"fingerprint\": {\""); at != std::string::npos;
       at = text.find("\"fingerprint\": {\"", at + 1)) {
    ++lines;
    EXPECT_LT(text.find("\"kernels\"", at), text.find('\n', at)) << "a fingerprint is written on one line";
  }
  EXPECT_EQ(lines, 3u);
  const Baseline read = parse_baseline(text, "recorded.json");
  EXPECT_EQ(read.benchmarks.at(kReduce1).fingerprint, recorded.benchmarks.at(kReduce1).fingerprint);
}

TEST(CodeCheck, AnUnreadableFingerprintCostsTheComparisonNotTheTiming) {
  std::string text = formats::read_text_file(testdata("results_code_change_1.json"), "");
  for (std::size_t at = text.find("\"schema\": 1"); at != std::string::npos; at = text.find("\"schema\": 1", at)) {
    text.replace(at, 11, "\"schema\": 9");
  }
  std::vector<ResultsFile> results = processes("results_code_change_");
  results[0] = parse_results(text, "damaged.json");
  const Comparison c = compared(fingerprinted_baseline(), results);
  const BenchmarkComparison& reduce9 = row_of(c, kReduce9);
  EXPECT_EQ(reduce9.verdict, Verdict::kSlow);
  ASSERT_TRUE(reduce9.code);
  EXPECT_EQ(reduce9.code->comparison, CodeComparison::kUnknown);
  EXPECT_EQ(reduce9.code->baseline_missing, CodeSideMissing::kCaptured);
  EXPECT_EQ(reduce9.code->current_missing, CodeSideMissing::kNotCaptured);
  EXPECT_NE(reduce9.code->current_capture_status.find("unreadable: damaged.json: fingerprints['" + std::string(kReduce9) +
                                                      "'].schema is 9, this build reads 1"),
            std::string::npos)
      << reduce9.code->current_capture_status;
}

TEST(SkipUnchanged, OnlyTheSameCodeOnTheSamePlatformIsLeftUntimed) {
  const Baseline baseline = fingerprinted_baseline();
  const std::vector<ResultsFile> fingerprints = {load_results(testdata("results_fingerprint_only.json"))};
  EXPECT_TRUE(fingerprints[0].benchmarks.empty()) << "a --fingerprint-only file is read though it times nothing";
  EXPECT_EQ(unchanged_benchmarks(baseline, fingerprints, Selection{}), std::set<std::string>{kPointerChase});
  EXPECT_TRUE(unchanged_benchmarks(baseline, fingerprints, Selection::family("reduction")).empty());
  EXPECT_TRUE(platform_changes_preventing_skipping(baseline, fingerprints).empty());

  const std::vector<ResultsFile> other_driver = {load_results(testdata("results_fingerprint_only_driver_590.json"))};
  EXPECT_TRUE(unchanged_benchmarks(baseline, other_driver, Selection{}).empty());
  const std::vector<PlatformChange> blocking = platform_changes_preventing_skipping(baseline, other_driver);
  ASSERT_EQ(blocking.size(), 1u);
  EXPECT_EQ(blocking[0].field, "driver");
  EXPECT_EQ(blocking[0].kind, PlatformChange::Kind::kChanged);
  EXPECT_EQ(blocking[0].before, "580.159.04");
  EXPECT_EQ(blocking[0].now, "590.44.01");
  EXPECT_EQ(platform_prevents_skipping_words(blocking), "the platform is not the baseline's (driver 580.159.04 -> 590.44.01)");
}

// As perf_test.sh --skip-unchanged judges: the fingerprint-only process, then the changed benchmarks timed.
Comparison skip_unchanged_comparison(const std::string& fingerprint_file) {
  std::vector<ResultsFile> results = processes("results_changed_only_");
  results.push_back(load_results(testdata(fingerprint_file)));
  return compared(fingerprinted_baseline(), results, true);
}

TEST(SkipUnchanged, UnchangedPassesChangedIsJudged) {
  const Comparison c = skip_unchanged_comparison("results_fingerprint_only.json");
  EXPECT_EQ(row_of(c, kPointerChase).verdict, Verdict::kUnchanged);
  EXPECT_EQ(row_of(c, kReduce9).verdict, Verdict::kSlow);
  EXPECT_EQ(row_of(c, kReduce1).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kRemoved).verdict, Verdict::kMissing) << "no fingerprint in the baseline: not skippable";
  EXPECT_EQ(same_code_counts(c)[static_cast<int>(Verdict::kUnchanged)], 1);
  EXPECT_EQ(exit_code(c), 1);
  const Comparison not_skipping = compared(fingerprinted_baseline(), processes("results_changed_only_"), false);
  EXPECT_EQ(row_of(not_skipping, kPointerChase).verdict, Verdict::kMissing) << "only with --skip-unchanged";
}

// What was left untimed was decided on the checking process, before the timing processes ran: a timing
// process on another driver (updated in between) leaves the decision, and the report says the platform
// changed; it does not turn a benchmark nobody timed into MISSING.
TEST(SkipUnchanged, TheDecisionIsTheCheckingProcesssNotTheTimingProcesses) {
  std::vector<ResultsFile> results = processes("results_changed_only_");
  for (ResultsFile& file : results) file.gpu.driver = "590.44.01";
  results.push_back(load_results(testdata("results_fingerprint_only.json")));
  const Comparison c = compared(fingerprinted_baseline(), results, true);
  EXPECT_EQ(row_of(c, kPointerChase).verdict, Verdict::kUnchanged);
  EXPECT_EQ(row_of(c, kReduce9).verdict, Verdict::kSlow);
  bool driver_listed = false;
  for (const PlatformChange& change : c.platform) driver_listed = driver_listed || change.field == "driver";
  EXPECT_TRUE(driver_listed) << "the timing processes' driver is still reported";
}

TEST(SkipUnchanged, AnotherDriverSkipsNothing) {
  const Comparison c = skip_unchanged_comparison("results_fingerprint_only_driver_590.json");
  EXPECT_EQ(row_of(c, kPointerChase).verdict, Verdict::kMissing);
}

TEST(GoldenReports, CodeChangeConsole) {
  expect_golden("code_change_console.txt", console_of(compared(fingerprinted_baseline(), processes("results_code_change_"))));
}
TEST(GoldenReports, CodeChangeMarkdown) {
  expect_golden("code_change_summary.md", markdown_of(compared(fingerprinted_baseline(), processes("results_code_change_"))));
}
TEST(GoldenReports, CodeChangeJson) {
  expect_golden("code_change_report.json", json_report(compared(fingerprinted_baseline(), processes("results_code_change_"))));
}
TEST(GoldenReports, SameCodeSlowConsole) {
  expect_golden("same_code_slow_console.txt",
                console_of(compared(fingerprinted_baseline(), processes("results_same_code_slow_"))));
}
TEST(GoldenReports, SkipUnchangedMarkdown) {
  expect_golden("skip_unchanged_summary.md", markdown_of(skip_unchanged_comparison("results_fingerprint_only.json")));
}

}  // namespace
}  // namespace gpuperf::gate
