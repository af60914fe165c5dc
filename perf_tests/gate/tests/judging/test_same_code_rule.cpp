// PLATFORM: the same code as the baseline's, beyond its tolerance. The rule on every case of the code's
// evidence (covered, kernels only, not compared, changed; the method changed; SLOW and FAST sides), the
// method change between baseline and results, the exit code with and without --fail-on-platform, and the
// rule applied by compare_with_baseline on the fixtures (testdata/make_fixtures.py).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <sstream>

#include "formats/exit_codes.h"
#include "gate/cli/cli.h"
#include "gate/judging/outcome.h"
#include "gate/judging/same_code_rule.h"
#include "gate/judging/stored_mode.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/code_lines.h"
#include "gate/reports/numbers.h"
#include "gate/reports/reports.h"
#include "gate/reports/wording.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

// The words of the note NoteCode::kKernelsOnly, as every report writes them.
const std::string kKernelsOnlyWords = notes_text({note_of(NoteCode::kKernelsOnly)});

using testing::notes_of;
using testing::console_of;
using testing::expect_golden;
using testing::markdown_of;
using testing::testdata;

constexpr const char* kSameCodeSlow = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr bool kMethodChanged = true;
constexpr bool kSameMethod = false;

CodeChange same_code(bool covers_all_gpu_work) {
  CodeChange code;
  code.comparison = CodeComparison::kSame;
  code.covers_all_gpu_work = covers_all_gpu_work;
  return code;
}

CodeChange other_code(CodeComparison comparison) {
  CodeChange code;
  code.comparison = comparison;
  return code;
}

TEST(SameCodeRule, SameCodeCoveringAllGpuWorkBeyondToleranceIsPlatformOnBothSides) {
  EXPECT_EQ(rule_same_code(Verdict::kSlow, same_code(true), kSameMethod), SameCodeRuling::kPlatform);
  EXPECT_EQ(rule_same_code(Verdict::kFast, same_code(true), kSameMethod), SameCodeRuling::kPlatform);
}

TEST(SameCodeRule, KernelsOnlyFingerprintsKeepTheVerdictAndSayWhy) {
  EXPECT_EQ(rule_same_code(Verdict::kSlow, same_code(false), kSameMethod), SameCodeRuling::kKernelsOnly);
  EXPECT_EQ(rule_same_code(Verdict::kFast, same_code(false), kSameMethod), SameCodeRuling::kKernelsOnly);
}

TEST(SameCodeRule, AMethodChangeMakesKernelsOnlySameCodePlatform) {
  EXPECT_EQ(rule_same_code(Verdict::kSlow, same_code(false), kMethodChanged), SameCodeRuling::kPlatform);
  EXPECT_EQ(rule_same_code(Verdict::kFast, same_code(false), kMethodChanged), SameCodeRuling::kPlatform);
}

TEST(SameCodeRule, NoFingerprintOrOtherCodeKeepsTheOldRule) {
  for (bool method_changed : {kSameMethod, kMethodChanged}) {
    EXPECT_EQ(rule_same_code(Verdict::kSlow, std::nullopt, method_changed), SameCodeRuling::kKeep);
    EXPECT_EQ(rule_same_code(Verdict::kSlow, other_code(CodeComparison::kUnknown), method_changed), SameCodeRuling::kKeep);
    EXPECT_EQ(rule_same_code(Verdict::kSlow, other_code(CodeComparison::kChanged), method_changed), SameCodeRuling::kKeep);
  }
}

TEST(SameCodeRule, VerdictsWithinOrShortOfTheToleranceStand) {
  for (Verdict verdict : {Verdict::kSame, Verdict::kAmbiguous, Verdict::kNotJudged, Verdict::kMissing, Verdict::kError,
                          Verdict::kNew, Verdict::kUnchanged}) {
    EXPECT_EQ(rule_same_code(verdict, same_code(true), kMethodChanged), SameCodeRuling::kKeep) << verdict_name(verdict);
  }
}

TEST(SameCodeRule, MethodChangeNeedsBothSidesRecordedAndDifferent) {
  Baseline baseline;
  baseline.recorded.measuring_method = 1;
  std::vector<ResultsFile> results(2);
  results[0].measuring_method = 2;
  results[1].measuring_method = 2;
  const std::optional<MethodChange> change = method_change_of(baseline, results);
  ASSERT_TRUE(change.has_value());
  EXPECT_EQ(change->baseline, 1);
  EXPECT_EQ(change->results, 2);

  results[0].measuring_method = results[1].measuring_method = 1;
  EXPECT_FALSE(method_change_of(baseline, results)) << "the same method";
  results[0].measuring_method = results[1].measuring_method = 0;
  EXPECT_FALSE(method_change_of(baseline, results)) << "a team suite's results: its method is its own";
  baseline.recorded.measuring_method = 0;
  results[0].measuring_method = results[1].measuring_method = 2;
  EXPECT_FALSE(method_change_of(baseline, results)) << "a team suite's baseline entries";
}

Comparison with_platform_row(bool fail_on_platform) {
  Comparison c;
  c.mode = "compare";
  c.fail_on_platform = fail_on_platform;
  BenchmarkComparison row;
  row.name = kSameCodeSlow;
  row.verdict = Verdict::kPlatform;
  row.ratio = 1.05;
  c.benchmarks = {row};
  BenchmarkComparison same = row;
  same.name = "reduction/reduce1_interleaved_divergent/n:1048576";
  same.verdict = Verdict::kSame;
  c.benchmarks.push_back(same);
  return c;
}

TEST(SameCodeRule, PlatformPassesUnlessFailOnPlatform) {
  EXPECT_EQ(exit_code(with_platform_row(false)), formats::kExitPass);
  EXPECT_EQ(outcome_text(with_platform_row(false)), "PASS");
  EXPECT_EQ(exit_code(with_platform_row(true)), formats::kExitRegression);
  EXPECT_EQ(outcome_text(with_platform_row(true)), "FAIL: the platform moved (--fail-on-platform)");
  Comparison slow_too = with_platform_row(true);
  slow_too.benchmarks[1].verdict = Verdict::kSlow;
  EXPECT_EQ(outcome_text(slow_too), "FAIL: regression") << "a regression is named before the platform";
}

TEST(SameCodeRule, PlatformIsFinalNeverReMeasured) {
  // The driver re-measures what remeasure_list names (driver/looks.h): AMBIGUOUS only.
  Comparison c = with_platform_row(false);
  EXPECT_EQ(remeasure_list(c), "");
  c.benchmarks[1].verdict = Verdict::kAmbiguous;
  EXPECT_EQ(remeasure_list(c), c.benchmarks[1].name + "\n");
}

TEST(SameCodeRule, PlatformIsListedAfterSlowAndMissing) {
  std::vector<BenchmarkComparison> rows(3);
  rows[0].name = "a";
  rows[0].verdict = Verdict::kPlatform;
  rows[1].name = "b";
  rows[1].verdict = Verdict::kMissing;
  rows[2].name = "c";
  rows[2].verdict = Verdict::kSlow;
  sort_by_severity(rows);
  EXPECT_EQ(rows[0].verdict, Verdict::kSlow);
  EXPECT_EQ(rows[1].verdict, Verdict::kMissing);
  EXPECT_EQ(rows[2].verdict, Verdict::kPlatform);
  EXPECT_STREQ(verdict_name(Verdict::kPlatform), "PLATFORM");
}

// The fixtures: reduce9 10% slower over fingerprints (schema 1: kernels only) equal to the baseline's.
std::vector<ResultsFile> same_code_slow_processes(int measuring_method) {
  std::vector<ResultsFile> results = load_results_files({testdata("results_same_code_slow_1.json"),
                                                         testdata("results_same_code_slow_2.json"),
                                                         testdata("results_same_code_slow_3.json")});
  for (ResultsFile& file : results) file.measuring_method = measuring_method;
  return results;
}

Comparison same_code_slow(int baseline_method, int results_method, bool fail_on_platform = false) {
  Baseline baseline = load_baseline(testdata("baseline_h200_fingerprints.json"));
  baseline.recorded.measuring_method = baseline_method;
  CompareOptions options;
  options.fail_on_platform = fail_on_platform;
  return compare_with_baseline(baseline, same_code_slow_processes(results_method), options);
}

const BenchmarkComparison& row_named(const Comparison& comparison, const std::string& name) {
  const auto it = std::find_if(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                               [&name](const BenchmarkComparison& row) { return row.name == name; });
  if (it == comparison.benchmarks.end()) throw std::runtime_error("no row " + name);
  return *it;
}

TEST(SameCodeRule, StoredModeKeepsSlowOverKernelsOnlyFingerprintsWithItsNote) {
  const Comparison c = same_code_slow(1, 1);
  const BenchmarkComparison& row = row_named(c, kSameCodeSlow);
  EXPECT_EQ(row.verdict, Verdict::kSlow);
  EXPECT_NE(notes_of(row).find(kKernelsOnlyWords), std::string::npos) << notes_of(row);
  EXPECT_FALSE(c.method_change.has_value());
  EXPECT_EQ(exit_code(c), formats::kExitRegression);
}

TEST(SameCodeRule, StoredModeJudgesSameCodeAsPlatformWhenTheMethodChanged) {
  const Comparison c = same_code_slow(1, 2);
  ASSERT_TRUE(c.method_change.has_value());
  const BenchmarkComparison& row = row_named(c, kSameCodeSlow);
  EXPECT_EQ(row.verdict, Verdict::kPlatform);
  EXPECT_GT(row.ratio, 1.05) << "ratio, interval and tolerance are kept";
  EXPECT_GT(row.ci_low, 1.0 + row.tolerance_pct / 100.0);
  EXPECT_EQ(notes_of(row).find(kKernelsOnlyWords), std::string::npos) << notes_of(row);
  EXPECT_EQ(c.benchmarks.back().verdict, Verdict::kSame) << "rows re-sorted after the rule";
  EXPECT_EQ(exit_code(c), formats::kExitPass) << "MISSING without --strict passes, PLATFORM too";
  EXPECT_EQ(exit_code(same_code_slow(1, 2, true)), formats::kExitRegression);
  EXPECT_EQ(outcome_text(same_code_slow(1, 2, true)), "FAIL: the platform moved (--fail-on-platform)");
}

TEST(SameCodeRule, PlatformActionNamesTheMoveAndWhatToDo) {
  const Comparison c = same_code_slow(1, 2);
  const BenchmarkComparison& row = row_named(c, kSameCodeSlow);
  EXPECT_EQ(action_hint(row, c.mode),
            "the baseline's own code runs " + format_number("%.1f", (row.ratio - 1.0) * 100.0) +
                "% slower here: the machine, driver or harness changed, not the code; re-record the baseline on "
                "this GPU model (scripts/update_baseline.sh) or check the runner");
  BenchmarkComparison faster = row;
  faster.ratio = 0.97;
  EXPECT_NE(action_hint(faster, c.mode).find("runs 3.0% faster here"), std::string::npos);
}

TEST(SameCodeRule, TheReportReaderAcceptsPlatform) {
  const VerdictReport report = read_verdict_report(json_report(same_code_slow(1, 2)), "platform.verdict.json");
  const auto platform = std::count_if(report.rows.begin(), report.rows.end(),
                                      [](const VerdictRow& row) { return row.verdict == "PLATFORM"; });
  EXPECT_EQ(platform, 1);
}

TEST(SameCodeRule, CompareTakesFailOnPlatformAndItsHelpSaysSo) {
  // The fixtures' reduce9 stays SLOW here (kernels-only fingerprints, one method): the option is accepted.
  std::ostringstream out, err;
  const int rc = run_cli({"compare", "--baseline", testdata("baseline_h200_fingerprints.json"), "--results",
                          testdata("results_same_code_slow_1.json"), testdata("results_same_code_slow_2.json"),
                          testdata("results_same_code_slow_3.json"), "--fail-on-platform"},
                         out, err);
  EXPECT_EQ(rc, formats::kExitRegression) << err.str();
  EXPECT_NE(out.str().find(kKernelsOnlyWords), std::string::npos) << out.str();
  for (const char* command : {"compare", "run"}) {
    std::ostringstream help, help_err;
    run_cli({command, "--help"}, help, help_err);
    EXPECT_NE((help.str() + help_err.str()).find("--fail-on-platform"), std::string::npos) << command;
  }
}

TEST(GoldenReports, PlatformConsole) { expect_golden("platform_console.txt", console_of(same_code_slow(1, 2))); }
TEST(GoldenReports, PlatformMarkdown) { expect_golden("platform_summary.md", markdown_of(same_code_slow(1, 2))); }
TEST(GoldenReports, PlatformJson) { expect_golden("platform_report.json", json_report(same_code_slow(1, 2))); }

}  // namespace
}  // namespace gpuperf::gate
