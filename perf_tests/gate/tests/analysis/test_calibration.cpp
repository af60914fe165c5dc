// perf_gate calibration-report: the reports of scripts/calibrate.sh from its trials' verdicts
// (testdata/calibration_verdicts.tsv: two benchmarks in stored mode at +0/2/5/10%, one in A/B mode at
// +0/1.5/10%).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/analysis/calibration.h"
#include "gate/analysis/calibration_report.h"
#include "gate/cli/cli.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate::analysis {
namespace {

using testing::cli;
using testing::CliRun;
using testing::expect_golden;
using testing::read_fixture_text;
using testing::ScratchFolderTest;
using testing::testdata;

CalibrationSettings fixture_settings() {
  CalibrationSettings s;
  s.gpu_name = "NVIDIA H200";
  s.trials_per_cell = 4;
  s.processes = 3;
  s.repetitions = 30;
  s.max_remeasure = 3;
  s.ab_rounds = 6;
  s.ab_repetitions = 20;
  s.ab_max_remeasure = 4;
  return s;
}

CalibrationReport fixture_report() {
  return build_calibration_report(
      parse_calibration_trials(read_fixture_text("calibration_verdicts.tsv"), "calibration_verdicts.tsv"),
      fixture_settings());
}

std::vector<std::string> fixture_arguments() {
  return {"calibration-report", "--verdicts", testdata("calibration_verdicts.tsv"), "--gpu", "NVIDIA H200",
          "--trials", "4", "--processes", "3", "--repetitions", "30", "--max-remeasure", "3", "--rounds", "6",
          "--ab-repetitions", "20", "--ab-max-remeasure", "4"};
}

CalibrationCell cell(double pct, int slow, int trials) {
  CalibrationCell c;
  c.slowdown_pct = pct;
  c.slow = slow;
  c.trials = trials;
  return c;
}

TEST(Calibration, CellsCountFinalFirstAndAmbiguousVerdictsByModeBenchmarkAndSlowdown) {
  const CalibrationReport report = fixture_report();
  EXPECT_EQ(report.modes, (std::vector<std::string>{"stored", "ab"}));  // in the order they ran
  ASSERT_EQ(report.cells.size(), 11u);
  const CalibrationCell& first = report.cells.front();  // "ab" sorts first, as in the jq version's JSON
  EXPECT_EQ(first.mode, "ab");
  EXPECT_EQ(first.slowdown_pct, 0.0);
  const CalibrationCell* two = nullptr;
  for (const CalibrationCell& c : report.cells) {
    if (c.mode == "stored" && c.benchmark == "fake/long/n:2" && c.slowdown_pct == 2.0) two = &c;
  }
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->trials, 4);
  EXPECT_EQ(two->slow, 2);
  EXPECT_EQ(two->slow_at_first, 1);
  EXPECT_EQ(two->ambiguous, 1);
  EXPECT_EQ(two->verdicts, (std::map<std::string, int>{{"AMBIGUOUS", 1}, {"SAME", 1}, {"SLOW", 2}}));
}

TEST(Calibration, SmallestReliablyCaughtIsWhereEveryLargerSlowdownWasCaughtToo) {
  EXPECT_EQ(smallest_reliably_caught_pct({cell(0, 0, 20), cell(2, 18, 20), cell(3, 19, 20), cell(5, 20, 20)}), 3.0);
  // +2% caught, +3% not: nothing below +5% counts.
  EXPECT_EQ(smallest_reliably_caught_pct({cell(2, 20, 20), cell(3, 18, 20), cell(5, 20, 20)}), 5.0);
  EXPECT_EQ(smallest_reliably_caught_pct({cell(2, 20, 20), cell(5, 18, 20)}), std::nullopt);
  EXPECT_EQ(smallest_reliably_caught_pct({cell(0, 0, 20)}), std::nullopt);
}

TEST(GoldenReports, CalibrationMarkdown) { expect_golden("calibration.md", calibration_markdown(fixture_report())); }
TEST(GoldenReports, CalibrationJson) { expect_golden("calibration.json", calibration_json(fixture_report())); }

TEST(CalibrationTrials, EachDefectOfALineIsNamedWithItsLine) {
  const struct {
    std::string text;
    std::string message;
  } cases[] = {
      {"stored\t0\tfake/a/n:1\tSAME\tSAME\n", "5 tab-separated fields, expected 6"},
      {"stored\t0\tfake/a/n:1\tSAME\tSAME\t2%\textra\n", "7 tab-separated fields"},
      {"stored\t0\tfake/a/n:1\tSAME\tSAME\t2%\nba\t0\tfake/a/n:1\tSAME\tSAME\t2%\n", "v.tsv:2: mode 'ba'"},
      {"ab\t-1\tfake/a/n:1\tSAME\tSAME\t2%\n", "slowdown '-1' is not a number >= 0"},
      {"ab\t5%\tfake/a/n:1\tSAME\tSAME\t2%\n", "slowdown '5%'"},
      {"ab\tnan\tfake/a/n:1\tSAME\tSAME\t2%\n", "slowdown 'nan'"},
      {"ab\t5\t\tSAME\tSAME\t2%\n", "v.tsv:1: "},
      {"ab\t5\tfake/a/n:1\tSAME\tslow\t2%\n", "'slow' is not a verdict of the gate"},
      {"ab\t5\tfake/a/n:1\t\tSAME\t2%\n", "'' is not a verdict of the gate"},
      {"\n", "holds no trial"},
  };
  for (const auto& c : cases) {
    try {
      parse_calibration_trials(c.text, "v.tsv");
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const formats::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
  }
}

class CalibrationCli : public ScratchFolderTest {};

TEST_F(CalibrationCli, WritesTheGoldenMarkdownAndJson) {
  std::vector<std::string> args = fixture_arguments();
  args.insert(args.end(), {"--markdown", path("c.md"), "--json", path("c.json")});
  const CliRun run = cli(args);
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, "calibration report: 11 cells of 2 modes from " + testdata("calibration_verdicts.tsv") + "\n");
  std::ifstream md(path("c.md"));
  std::ifstream json(path("c.json"));
  std::ostringstream md_text;
  std::ostringstream json_text;
  md_text << md.rdbuf();
  json_text << json.rdbuf();
  EXPECT_EQ(md_text.str(), read_fixture_text("expected/calibration.md"));
  EXPECT_EQ(json_text.str(), read_fixture_text("expected/calibration.json"));
}

TEST_F(CalibrationCli, BadInputExits2AndWritesNothing) {
  const std::string bad = write("bad.tsv", "stored\t0\tfake/a/n:1\tSAME\n");
  const auto with = [](std::vector<std::string> args, const std::string& option, const std::string& value) {
    for (std::size_t i = 0; i + 1 < args.size(); ++i) {
      if (args[i] == option) args[i + 1] = value;
    }
    return args;
  };
  const struct {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {with(fixture_arguments(), "--verdicts", bad), "bad.tsv:1: 4 tab-separated fields"},
      {with(fixture_arguments(), "--verdicts", path("absent.tsv")), "absent.tsv"},
      {with(fixture_arguments(), "--trials", "2.5"), "--trials must be a whole number"},
      {with(fixture_arguments(), "--rounds", "0"), "--rounds '0' must be a number in [1, "},
      {with(fixture_arguments(), "--gpu", "NVIDIA\nH200"), "--gpu: "},
      {{"calibration-report", "--verdicts", testdata("calibration_verdicts.tsv")}, "--gpu is required"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--markdown", path("c.md"), "--json", path("c.json")});
    const CliRun run = cli(args);
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << c.message;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(path("c.md")));
    EXPECT_FALSE(std::filesystem::exists(path("c.json")));
  }
}

}  // namespace
}  // namespace gpuperf::gate::analysis
