// The GitHub annotations of a verdict report (reports/annotations.h, perf_gate annotations): compared
// byte for byte with golden files of testdata/expected/ (GATE_UPDATE_GOLDEN=1 rewrites them), rendered
// from the gate's own golden JSON reports and from a hostile one whose free text tries to end the line or
// start a workflow command; and a report the reader refuses, which the command says is refused (exit 2).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>
#include <sstream>
#include <string>

#include "formats/exit_codes.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/annotations.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::cli;
using testing::CliRun;
using testing::expect_golden;
using testing::read_fixture_text;
using testing::testdata;

std::string annotations_of_fixture(const std::string& name, const std::string& shown_as) {
  return annotation_lines(read_verdict_report(read_fixture_text(name), name), shown_as);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The gate's golden reports (tests/reports/test_reports.cpp writes them): SLOW and MISSING as errors,
// NOT_JUDGED and AMBIGUOUS as warnings, NEW and SAME none.
TEST(GoldenAnnotations, OfTheStoredComparisonReport) {
  expect_golden("compare_annotations.txt", annotations_of_fixture("expected/compare_report.json", "reduction.verdict.json"));
}
TEST(GoldenAnnotations, OfTheAbComparisonReport) {
  expect_golden("ab_annotations.txt", annotations_of_fixture("expected/ab_report.json", "ab.verdict.json"));
}
TEST(GoldenAnnotations, OfAPlatformReportAPlatformIsAWarning) {
  const std::string lines = annotations_of_fixture("expected/platform_report.json", "reduction.verdict.json");
  expect_golden("platform_annotations.txt", lines);
  EXPECT_NE(lines.find("::warning title=PLATFORM "), std::string::npos) << lines;
  EXPECT_EQ(lines.find("::error title=PLATFORM"), std::string::npos) << lines;
}

// Text a run of a pull request's code can put in its report: a reason with a newline and a workflow
// command, CR, ESC, NUL, '%' and a written "%0A", a C1 control, non-ASCII, a right-to-left override; a
// name with ':' and ','. Every line stays one annotation that nothing in it ends.
TEST(GoldenAnnotations, OfAHostileReportStayOneLineEach) {
  const std::string lines = annotations_of_fixture("annotations_hostile.verdict.json", "hostile.verdict.json");
  expect_golden("hostile_annotations.txt", lines);
  const std::vector<std::string> each = lines_of(lines);
  EXPECT_EQ(each.size(), 6u) << "SLOW, ERROR, PLATFORM, MISSING, NOT_JUDGED, AMBIGUOUS; not FAST, NEW, SAME";
  const std::regex one_annotation(R"(::(error|warning) title=[^:,]*::[^\r]*)");
  const std::regex printable(R"([\x20-\x7e]*)");
  for (const std::string& line : each) {
    EXPECT_TRUE(std::regex_match(line, one_annotation)) << line;
    EXPECT_TRUE(std::regex_match(line, printable)) << line;
  }
  EXPECT_NE(lines.find("::error title=ERROR fake/error/n%3A1::fake/error/n:1 on NVIDIA H100 80GB HBM3: ERROR, "
                       "change n/a (tolerance 0%25): wrong%0A::error::reason%0D\\x1b[31m\\x00 @octocat 100%25 "
                       "%250A \\x5cx0a \\xc2\\x85 caf\\xc3\\xa9 \\xe2\\x80\\xae [hostile.verdict.json]\n"),
            std::string::npos)
      << lines;
}

TEST(Annotations, NameTheGpuBySlugWhereTheReportNamesNoGpu) {
  VerdictReport report;
  report.gpu_slug = "nvidia-h200";
  VerdictRow row;
  row.name = "fake/long/n:2";
  row.verdict = "SLOW";
  row.change_pct = 10.0;
  row.tolerance_pct = 3.0;
  report.rows.push_back(row);
  EXPECT_EQ(annotation_lines(report, "fake.verdict.json"),
            "::error title=SLOW fake/long/n%3A2::fake/long/n:2 on nvidia-h200: SLOW, change +10%25 (tolerance 3%25) "
            "[fake.verdict.json]\n");
}

// As the scripts' jq wrote them: one decimal, no trailing ".0", '+' where positive; and never "-0%".
TEST(Annotations, WriteAChangeToOneDecimal) {
  EXPECT_EQ(annotation_pct(10.000000000000009, true), "+10%");
  EXPECT_EQ(annotation_pct(4.25, true), "+4.3%");
  EXPECT_EQ(annotation_pct(-12.34, true), "-12.3%");
  EXPECT_EQ(annotation_pct(-0.04, true), "0%");
  EXPECT_EQ(annotation_pct(3.0, false), "3%");
  EXPECT_EQ(annotation_pct(std::nullopt, true), "n/a");
  EXPECT_EQ(annotation_pct(std::numeric_limits<double>::quiet_NaN(), true), "n/a");
  EXPECT_EQ(annotation_pct(std::numeric_limits<double>::infinity(), true), "n/a");
}

// A name outside the rule: the reader refuses the whole report, so none of its benchmarks is annotated
// (no field of it can be trusted); the command says so in one ::error::, annotates the other reports and
// exits 2.
TEST(AnnotationsCommand, SaysARefusedReportIsRefusedAndAnnotatesTheOthers) {
  const CliRun run = cli({"annotations", "--report", testdata("annotations_refused.verdict.json"),
                          testdata("annotations_hostile.verdict.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << run.err;
  const std::vector<std::string> each = lines_of(run.out);
  ASSERT_EQ(each.size(), 7u) << run.out;
  EXPECT_EQ(each[0].rfind("::error title=Verdict report refused::", 0), 0u) << each[0];
  EXPECT_EQ(each[0], "::error title=Verdict report refused::annotations_refused.verdict.json: perf_gate cannot read "
                     "it as a verdict report it wrote (the job's log says why: a name outside the rule, an unknown "
                     "verdict, another schema_version, not JSON); none of its benchmarks is annotated");
  EXPECT_EQ(each[1].rfind("::error title=SLOW count_equal/warp_shuffle_vec4/n%3A268435456%2Cmatch%3A0.0001::", 0), 0u)
      << each[1];
  EXPECT_NE(run.err.find("perf_gate: error: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("annotations_refused.verdict.json: benchmarks[0].name benchmark name "
                         "'fake/x\\x0a::error::pwned/n:1' has a control character"),
            std::string::npos)
      << "the log says why, the name escaped: " << run.err;
  EXPECT_EQ(run.err.find('\n'), run.err.size() - 1) << "one line: " << run.err;
}

TEST(AnnotationsCommand, PrintsTheGoldenLinesAndPasses) {
  const CliRun run = cli({"annotations", "--report", testdata("annotations_hostile.verdict.json")});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, annotations_of_fixture("annotations_hostile.verdict.json", "annotations_hostile.verdict.json"));
  EXPECT_EQ(run.err, "");
}

}  // namespace
}  // namespace gpuperf::gate
