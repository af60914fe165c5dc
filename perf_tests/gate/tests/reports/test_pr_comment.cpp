// The pull-request comment (reports/pr_comment.h, perf_gate pr-comment): compared byte for byte with what
// scripts/ci/pr_comment_body.sh's jq wrote for the same reports before the comment moved into the gate
// (testdata/pr_comment/*.md, captured once from it: the CI fixtures, the gate's own golden reports, no
// report); a run URL that is not one and a report the reader refuses, which the command says are refused
// (exit 2). Where the two differ on purpose (a report with a name outside the rule is refused whole, as
// the annotations do, instead of printed with placeholders) the test says so.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/pr_comment.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::cli;
using testing::CliRun;
using testing::read_fixture_text;
using testing::testdata;

const std::string kRunUrl = "https://example.invalid/run/1";

PrCommentInput pr_comment_fixture(const std::string& name) {
  return {name, read_verdict_report(read_fixture_text("pr_comment/" + name), name)};
}

// The CI scripts' fixtures (scripts/tests/fixtures/ci/error and slow): an ERROR with a reason, a
// NOT_JUDGED, two SLOW; the comment scripts/tests/fixtures/ci/expected_comment.md reviews too.
TEST(PrCommentGolden, OfTheCiFixturesIsWhatJqWrote) {
  EXPECT_EQ(pr_comment_markdown({pr_comment_fixture("fake_error.verdict.json"),
                                 pr_comment_fixture("fake_slow.verdict.json")},
                                kRunUrl),
            read_fixture_text("pr_comment/fake_error_slow.md"));
}

// The gate's golden reports: A/B (only in A, only in B), a PLATFORM pass, a stored comparison with
// MISSING, NOT_JUDGED, AMBIGUOUS and NEW; the families sorted, the counts in the gate's order.
TEST(PrCommentGolden, OfTheGateReportsIsWhatJqWrote) {
  EXPECT_EQ(pr_comment_markdown({pr_comment_fixture("ab.verdict.json"), pr_comment_fixture("platform.verdict.json"),
                                 pr_comment_fixture("reduction.verdict.json")},
                                "https://github.com/acme/gpu/actions/runs/42"),
            read_fixture_text("pr_comment/gate_reports.md"));
}

TEST(PrCommentGolden, OfNoReportSaysNothingWasJudged) {
  EXPECT_EQ(pr_comment_markdown({}, kRunUrl), read_fixture_text("pr_comment/no_report.md"));
}

TEST(PrComment, SaysEveryBenchmarkIsSameWhenNoneIsOther) {
  PrCommentInput input = pr_comment_fixture("fake_slow.verdict.json");
  for (VerdictRow& row : input.report->rows) row.verdict = "SAME";
  input.report->outcome = "PASS";
  const std::string md = pr_comment_markdown({input}, kRunUrl);
  EXPECT_NE(md.find("| Fake GPU | fake | compare | PASS | 2 SAME |\n\nEvery benchmark: SAME.\n\nFull reports:"),
            std::string::npos)
      << md;
}

// jq printed a placeholder for a report without a GPU name; the gate names the GPU by its slug, as the
// annotations do.
TEST(PrComment, NamesTheGpuBySlugWhereTheReportNamesNone) {
  PrCommentInput input = pr_comment_fixture("fake_slow.verdict.json");
  input.report->gpu_name = "";
  const std::string md = pr_comment_markdown({input}, kRunUrl);
  EXPECT_NE(md.find("| fake-gpu | fake | compare | FAIL: regression | 2 SLOW |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| SLOW | `fake/long/n:2` | fake-gpu | +10% [+9.9%, +10.1%] | 3% |\n"), std::string::npos) << md;
}

TEST(PrComment, AcceptsOnlyAnHttpsAddressOfARun) {
  EXPECT_EQ(run_url_error("https://github.com/acme/gpu/actions/runs/42"), "");
  for (const std::string& bad : std::vector<std::string>{"http://github.com/acme/gpu/actions/runs/42", "javascript:alert(1)", "",
                                "https://x.invalid/run) [click](https://evil.example",
                                "https://x.invalid/run\n::error::x", "https://x.invalid/a b",
                                "https://x.invalid/" + std::string(kMaxRunUrlLength, 'a')}) {
    const std::string error = run_url_error(bad);
    EXPECT_NE(error.find("is not an https address of a run"), std::string::npos) << bad;
    EXPECT_EQ(error.find('\n'), std::string::npos) << "one line: " << error;
  }
}

TEST(PrCommentCommand, PrintsTheGoldenCommentAndPasses) {
  const CliRun run = cli({"pr-comment", "--run-url", kRunUrl, "--report",
                          testdata("pr_comment/fake_error.verdict.json"), testdata("pr_comment/fake_slow.verdict.json")});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, read_fixture_text("pr_comment/fake_error_slow.md"));
  EXPECT_EQ(run.err, "");
}

TEST(PrCommentCommand, WithoutReportsSaysNothingWasJudged) {
  const CliRun run = cli({"pr-comment", "--run-url", kRunUrl});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, read_fixture_text("pr_comment/no_report.md"));
}

TEST(PrCommentCommand, RefusesARunUrlThatIsNotOneAndWritesNoComment) {
  const CliRun run = cli({"pr-comment", "--run-url", "https://x.invalid/run)[x](https://evil.example", "--report",
                          testdata("pr_comment/fake_slow.verdict.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << run.err;
  EXPECT_EQ(run.out, "");
  EXPECT_NE(run.err.find("is not an https address of a run"), std::string::npos) << run.err;
}

// jq printed a report with names outside the rule, each replaced by a placeholder; the gate's reader
// refuses such a report whole (none that perf_gate writes), so the comment shows none of its fields: one
// row says it was refused, the log says why, the other reports are shown, exit 2.
TEST(PrCommentCommand, SaysARefusedReportIsRefusedAndShowsTheOthers) {
  const CliRun run = cli({"pr-comment", "--run-url", kRunUrl, "--report", testdata("annotations_refused.verdict.json"),
                          testdata("pr_comment/fake_slow.verdict.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << run.err;
  EXPECT_NE(run.out.find("| (report refused) | `annotations_refused.verdict.json` |  | INVALID: not a verdict report "
                         "perf_gate wrote |  |\n| Fake GPU | fake | compare | FAIL: regression | 2 SLOW |\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("| SLOW | `fake/short/n:1` | Fake GPU |"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("pwned"), std::string::npos) << "nothing of the refused report: " << run.out;
  EXPECT_NE(run.err.find("annotations_refused.verdict.json: benchmarks[0].name"), std::string::npos) << run.err;
}

// The outcome is printed as the report words it, so the reader keeps only the gate's own form.
TEST(PrCommentCommand, ARefusedOutcomeRefusesTheReport) {
  std::string text = read_fixture_text("pr_comment/fake_slow.verdict.json");
  const std::string outcome = "\"outcome\": \"FAIL: regression\"";
  ASSERT_NE(text.find(outcome), std::string::npos);
  text.replace(text.find(outcome), outcome.size(), "\"outcome\": \"PASS <img src=x> @octocat\"");
  EXPECT_THROW(read_verdict_report(text, "fake.verdict.json"), formats::InputError);
  try {
    read_verdict_report(text, "fake.verdict.json");
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("outcome is 'PASS <img src=x> @octocat', expected an outcome of perf_gate"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpuperf::gate
