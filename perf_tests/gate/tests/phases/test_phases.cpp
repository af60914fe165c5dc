// perf_gate phases: the phase files a run's steps write, read and tabulated. The fixtures
// (testdata/phases/) are one run: a build, two families tested at once on two GPUs, and the profiles
// recorded after them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "gate/phases/phase_files.h"
#include "gate/phases/time_table.h"
#include "gate/phases/time_table_report.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate::phases {
namespace {

using testing::cli;
using testing::CliRun;
using testing::expect_golden;
using testing::expect_words;
using testing::input_error_of;
using testing::ScratchFolderTest;
using testing::testdata;

constexpr double kStart = 1767225000.0;  // [s since the epoch]

// A span from `start` to `end` seconds after kStart.
TimeSpan span(double start, double end) { return {kStart + start, kStart + end}; }

PhaseFile file_of(PhaseFileKind kind, const std::string& family, TimeSpan whole, std::vector<Phase> phases = {}) {
  PhaseFile file;
  file.source = std::string(kind_name(kind)) + "." + family + ".json";
  file.kind = kind;
  file.family = family;
  file.span = whole;
  file.phases = std::move(phases);
  return file;
}

std::string perf_phases_text(const std::string& family_field, const std::string& phase_fields) {
  return R"({"schema_version": 1, "what": "perf_phases", )" + family_field +
         R"("start_epoch_s": 1767225600.5, "end_epoch_s": 1767225610.5, "phases": [{"phase": "checking", )" +
         phase_fields + "}]}";
}

TEST(PhaseFile, ReadsKindFamilySpanAndPhases) {
  const PhaseFile file = parse_phase_file(
      perf_phases_text(R"("family": "reduction", )", R"("start_epoch_s": 1767225601, "end_epoch_s": 1767225603.5)"),
      "p.json");
  EXPECT_EQ(file.kind, PhaseFileKind::kPerfPhases);
  EXPECT_EQ(file.family, "reduction");
  EXPECT_DOUBLE_EQ(file.span.wall_s(), 10.0);
  ASSERT_EQ(file.phases.size(), 1u);
  EXPECT_EQ(file.phases[0].name, "checking");
  EXPECT_DOUBLE_EQ(file.phases[0].span.wall_s(), 2.5);
}

// Each defect is named with its file and field, and says what to do.
TEST(PhaseFile, ABadFileIsAnInputErrorNamingWhatIsWrong) {
  const std::string good_phase = R"("start_epoch_s": 1767225601, "end_epoch_s": 1767225603)";
  const std::string family = R"("family": "reduction", )";
  const auto error = [](const std::string& text) {
    return input_error_of([&text] { parse_phase_file(text, "p.json"); });
  };
  expect_words(error("{\"schema_version\": 1,"), {"p.json"});
  expect_words(error(R"({"what": "build", "start_epoch_s": 1, "end_epoch_s": 2})"),
               {"p.json: schema_version is missing", "run its step again"});
  expect_words(error(R"({"schema_version": 2, "what": "build", "start_epoch_s": 1, "end_epoch_s": 2})"),
               {"schema_version is 2, this perf_gate reads 1"});
  expect_words(error(R"({"schema_version": 1, "what": "lunch", "start_epoch_s": 1, "end_epoch_s": 2})"),
               {"what is 'lunch', expected one of build, correctness_test, perf_test, perf_phases, profiles"});
  expect_words(error(R"({"schema_version": 1, "what": "build", "end_epoch_s": 2})"), {"start_epoch_s is missing"});
  expect_words(error(perf_phases_text("", good_phase)), {"family is missing"});
  expect_words(error(perf_phases_text(R"("family": "a|<img>", )", good_phase)),
               {"p.json: family: family name", "run its step again"});
  expect_words(error(perf_phases_text(family, R"("start_epoch_s": 1767225603, "end_epoch_s": 1767225601)")),
               {"phases[0].end_epoch_s is before start_epoch_s"});
  expect_words(error(perf_phases_text(family, R"("start_epoch_s": "NaN", "end_epoch_s": 1767225601)")),
               {"phases[0].start_epoch_s is NaN"});
  expect_words(error(R"({"schema_version": 1, "what": "perf_phases", "family": "r", "start_epoch_s": 1,
                         "end_epoch_s": 2, "phases": [{"phase": "nap\u001b[31m", "start_epoch_s": 1, "end_epoch_s": 2}]})"),
               {"phases[0].phase is 'nap\\x1b[31m', expected one of lock_wait, checking"});
  expect_words(error(R"({"schema_version": 1, "what": "correctness_test", "family": "r", "start_epoch_s": 1,
                         "end_epoch_s": 2, "phases": [{"phase": "checking", "start_epoch_s": 1, "end_epoch_s": 2}]})"),
               {"expected no phase in a correctness_test file"});
  expect_words(error(R"({"schema_version": 1, "what": "build", "family": "r", "start_epoch_s": 1, "end_epoch_s": 2})"),
               {"family is given, expected none in a build file"});
  expect_words(error(R"({"schema_version": 1, "what": "profiles", "family": "r", "start_epoch_s": 1, "end_epoch_s": 2})"),
               {"family is given, expected none in a profiles file"});
  expect_words(error(R"({"schema_version": 1, "what": "profiles", "start_epoch_s": 1, "end_epoch_s": 2,
                         "phases": [{"phase": "first_look", "start_epoch_s": 1, "end_epoch_s": 2}]})"),
               {"phases[0].phase is 'first_look', expected one of checking, ncu"});
}

TEST(TimeTable, ProfilesAreTheirOwnLine) {
  const TimeTable table = build_time_table(
      {file_of(PhaseFileKind::kProfiles, "", span(100, 190), {{"checking", span(100, 110)}, {"ncu", span(110, 189)}})});
  ASSERT_TRUE(table.profiles);
  EXPECT_DOUBLE_EQ(table.profiles->wall_s, 90.0);
  EXPECT_DOUBLE_EQ(*table.profiles->checking_s, 10.0);
  EXPECT_DOUBLE_EQ(*table.profiles->ncu_s, 79.0);
  EXPECT_TRUE(table.families.empty());
  EXPECT_FALSE(table.tests);
  expect_words(time_table_markdown(table), {"Profiles: 90.0 s (checking 10.0 s, ncu 79.0 s)."});
}

TEST(TimeTable, PerfPhasesSplitTheTestAndTheRestIsOther) {
  const TimeTable table = build_time_table(
      {file_of(PhaseFileKind::kPerfTest, "r", span(10, 60)),
       file_of(PhaseFileKind::kPerfPhases, "r", span(10.5, 59.5),
               {{"checking", span(11, 13)}, {"first_look", span(13, 40)}, {"remeasure", span(41, 46)},
                {"remeasure", span(46, 51)}})});
  ASSERT_EQ(table.families.size(), 1u);
  const FamilyTime& row = table.families[0];
  EXPECT_DOUBLE_EQ(*row.perf_s, 50.0);  // the test's own span, not its phases file's
  EXPECT_DOUBLE_EQ(*row.checking_s, 2.0);
  EXPECT_DOUBLE_EQ(*row.first_look_s, 27.0);
  EXPECT_DOUBLE_EQ(*row.remeasure_s, 10.0);
  EXPECT_EQ(row.remeasurements, 2);
  EXPECT_FALSE(row.diagnosis_s);
  EXPECT_FALSE(row.correctness_s);
  EXPECT_NEAR(*row.other_s, 11.0, 1e-6);
  ASSERT_TRUE(table.tests);
  EXPECT_EQ(table.tests->tests, 1);
  EXPECT_FALSE(table.tests->parallel);
}

// Without the launcher's file (ctest run without GPUPERF_PHASES_DIR) the phases file's span is the test.
TEST(TimeTable, APhasesFileAloneStandsForItsTest) {
  const TimeTable table = build_time_table({file_of(PhaseFileKind::kPerfPhases, "r", span(0, 20))});
  EXPECT_DOUBLE_EQ(*table.families[0].perf_s, 20.0);
  EXPECT_DOUBLE_EQ(table.tests->sum_s, 20.0);
}

TEST(TimeTable, TestsOneAfterAnotherAreNotParallelAndTheirWallIsFromFirstStartToLastEnd) {
  const TimeTable table = build_time_table({file_of(PhaseFileKind::kCorrectnessTest, "a", span(0, 5)),
                                            file_of(PhaseFileKind::kPerfTest, "a", span(5, 25)),
                                            file_of(PhaseFileKind::kCorrectnessTest, "b", span(26, 30))});
  EXPECT_EQ(table.tests->tests, 3);
  EXPECT_FALSE(table.tests->parallel);
  EXPECT_NEAR(table.tests->sum_s, 29.0, 1e-6);
  EXPECT_NEAR(table.tests->wall_s, 30.0, 1e-6);
  EXPECT_NEAR(*table.total.correctness_s, 9.0, 1e-6);
}

TEST(TimeTable, OverlappingTestsRanInParallel) {
  const TimeTable table = build_time_table({file_of(PhaseFileKind::kPerfTest, "a", span(0, 20)),
                                            file_of(PhaseFileKind::kPerfTest, "b", span(1, 10)),
                                            file_of(PhaseFileKind::kPerfTest, "c", span(12, 22))});
  EXPECT_TRUE(table.tests->parallel);
  EXPECT_NEAR(table.tests->sum_s, 39.0, 1e-6);
  EXPECT_NEAR(table.tests->wall_s, 22.0, 1e-6);
}

TEST(TimeTable, TwoFilesRecordingOneThingAreRefused) {
  expect_words(input_error_of([] {
                 build_time_table({file_of(PhaseFileKind::kPerfTest, "a", span(0, 1)),
                                   file_of(PhaseFileKind::kPerfTest, "a", span(2, 3))});
               }),
               {"perf_test.a.json: records the perf_test of family a that perf_test.a.json records too"});
}

TEST(TimeTableMarkdown, WithoutAnyTestItSaysSo) {
  const std::string md = time_table_markdown(build_time_table({}));
  EXPECT_EQ(md,
            "### Where the time went\n\nBuild: not recorded (scripts/ci/build.sh records it).\n"
            "Tests: none recorded its time.\n");
}

// The fixtures through the command: the build's line, the two GPUs' tests at once, each family's phases.
TEST(GoldenReports, PhasesMarkdown) {
  const CliRun run = cli({"phases", "--dir", testdata("phases")});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  expect_golden("phases.md", run.out);
}

class PhasesCli : public ScratchFolderTest {};

TEST_F(PhasesCli, WritesTheMarkdownAndJsonFiles) {
  const CliRun run =
      cli({"phases", "--dir", testdata("phases"), "--markdown", path("time.md"), "--json", path("time.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_NE(run.out.find("time table: 8 phase files"), std::string::npos) << run.out;
  std::ifstream markdown(path("time.md"));
  std::ostringstream written;
  written << markdown.rdbuf();
  EXPECT_EQ(written.str(), cli({"phases", "--dir", testdata("phases")}).out);
  std::ifstream json(path("time.json"));
  std::ostringstream json_text;
  json_text << json.rdbuf();
  expect_golden("phases.json", json_text.str());
}

// A family name that breaks the rule is refused where it is read: no report is written.
TEST_F(PhasesCli, BadInputExits2WithWhatIsWrongAndWritesNothing) {
  const struct {
    std::string dir;
    std::string message;
  } cases[] = {
      {path("absent"), "cannot read the folder"},
      {path("empty"), "no phase files (*.json) in"},
      {path("corrupt"), "corrupt/perf_test.a.json"},
      {path("bad_name"), "family: family name"},
      {path("missing_end"), "end_epoch_s is missing"},
  };
  std::filesystem::create_directories(path("empty"));
  write("empty/perf_test.a.json.tmp.AbC123", "{");  // a writer's temporary file is not a phase file
  std::filesystem::create_directories(path("corrupt"));
  write("corrupt/perf_test.a.json", "{\"schema_version\": 1, ");
  std::filesystem::create_directories(path("bad_name"));
  write("bad_name/perf_test.x.json",
        R"({"schema_version": 1, "what": "perf_test", "family": "x`@team", "start_epoch_s": 1, "end_epoch_s": 2})");
  std::filesystem::create_directories(path("missing_end"));
  write("missing_end/build.json", R"({"schema_version": 1, "what": "build", "start_epoch_s": 1})");
  for (const auto& c : cases) {
    const CliRun run = cli({"phases", "--dir", c.dir, "--markdown", path("out.md"), "--json", path("out.json")});
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << c.dir;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(path("out.md"))) << c.dir;
    EXPECT_FALSE(std::filesystem::exists(path("out.json"))) << c.dir;
  }
  const CliRun no_dir = cli({"phases"});
  EXPECT_EQ(no_dir.code, formats::kExitInvalidInput);
  EXPECT_NE(no_dir.err.find("--dir is required"), std::string::npos) << no_dir.err;
}

}  // namespace
}  // namespace gpuperf::gate::phases
