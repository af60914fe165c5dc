// The running count of verdicts on unchanged code (ledger/same_code_ledger.h): what one report adds, the file
// and its errors, the line a person reads (golden), and
// `perf_gate ledger` end to end on reports of the fixtures.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/fnv1a.h"
#include "formats/input_error.h"
#include "gate/cli/cli.h"
#include "gate/judging/stored_mode.h"
#include "gate/ledger/same_code_ledger.h"
#include "gate/reports/reports.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::file_text;
using testing::expect_golden;
using testing::ScratchFolderTest;
using testing::testdata;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";

// The JSON report of the fixtures' baseline with fingerprints against `prefix`1..3.json, as written.
std::string report_text(const std::string& prefix) {
  const Baseline baseline = load_baseline(testdata("baseline_h200_fingerprints.json"));
  const std::vector<ResultsFile> results =
      load_results_files({testdata(prefix + "1.json"), testdata(prefix + "2.json"), testdata(prefix + "3.json")});
  return json_report(compare_with_baseline(baseline, results, CompareOptions{}));
}

nlohmann::json report_of(const std::string& prefix) { return nlohmann::json::parse(report_text(prefix)); }

SameCodeVerdicts verdicts_in(const nlohmann::json& report, const std::string& source) {
  return same_code_verdicts(read_verdict_report(report.dump(), source));
}

TEST(SameCodeVerdicts, CountsOnlyTimedVerdictsOnUnchangedCode) {
  // reduce9 changed its code and is SLOW: no false alarm. The other two ran the same code.
  const SameCodeVerdicts changed = verdicts_in(report_of("results_code_change_"), "code_change.json");
  EXPECT_EQ(changed.gpu_slug, "nvidia-h200");
  EXPECT_EQ(changed.mode, "compare");
  EXPECT_EQ(changed.slow + changed.fast, 0);
  EXPECT_TRUE(changed.false_alarms.empty());
  EXPECT_GE(changed.timed(), 1);

  // reduce9 SLOW over the same code: a false alarm of the gate (or a cause outside the code).
  const SameCodeVerdicts same = verdicts_in(report_of("results_same_code_slow_"), "same_code_slow.json");
  EXPECT_EQ(same.slow, 1);
  ASSERT_EQ(same.false_alarms.size(), 1u);
  EXPECT_EQ(same.false_alarms[0], kReduce9);
}

TEST(SameCodeVerdicts, PlatformIsAPlatformMoveNotAFalseAlarm) {
  // The same fixtures judged after a change of the measuring method: reduce9 is PLATFORM.
  Baseline baseline = load_baseline(testdata("baseline_h200_fingerprints.json"));
  baseline.recorded.measuring_method = 1;
  std::vector<ResultsFile> results = load_results_files({testdata("results_same_code_slow_1.json"),
                                                         testdata("results_same_code_slow_2.json"),
                                                         testdata("results_same_code_slow_3.json")});
  for (ResultsFile& file : results) file.measuring_method = 2;
  const nlohmann::json report = nlohmann::json::parse(json_report(compare_with_baseline(baseline, results, {})));
  const SameCodeVerdicts same = verdicts_in(report, "platform.json");
  EXPECT_EQ(same.platform, 1);
  EXPECT_EQ(same.slow + same.fast, 0);
  EXPECT_TRUE(same.false_alarms.empty());

  SameCodeLedger ledger;
  add_to_ledger(ledger, same, "2026-11-23T01:02:03Z");
  const SameCodeTally& tally = ledger.tallies.at("nvidia-h200").at("compare");
  EXPECT_EQ(tally.platform, 1);
  EXPECT_EQ(tally.reports_with_false_alarms, 0);
  const std::string line = ledger_line(tally, "compare");
  EXPECT_NE(line.find("(false alarms in 0% of verdicts, 0 of 1 reports); 1 PLATFORM (the machine, driver or harness "
                      "moved, not the code: no false alarms)"),
            std::string::npos)
      << line;
  // Written and read back; a file written before PLATFORM was counted reads as none.
  const SameCodeLedger again = ledger_from_text(ledger_to_text(ledger), "ledger.json");
  EXPECT_EQ(again.tallies.at("nvidia-h200").at("compare").platform, 1);
  nlohmann::json older = nlohmann::json::parse(ledger_to_text(ledger));
  older["gpus"]["nvidia-h200"]["compare"]["verdicts"].erase("PLATFORM");
  older["gpus"]["nvidia-h200"]["compare"]["verdicts"]["SAME"] = 3;
  EXPECT_EQ(ledger_from_text(older.dump(), "old.json").tallies.at("nvidia-h200").at("compare").platform, 0);
}

TEST(SameCodeVerdicts, RefusesWhatIsNotAGateReport) {
  EXPECT_THROW(verdicts_in(nlohmann::json::parse(R"({"benchmarks": []})"), "x.json"), formats::InputError);
  nlohmann::json report = report_of("results_code_change_");
  report["mode"] = "record";
  EXPECT_THROW(verdicts_in(report, "x.json"), formats::InputError);
  report = report_of("results_code_change_");
  report["benchmarks"] = "none";
  EXPECT_THROW(verdicts_in(report, "x.json"), formats::InputError);
  report = report_of("results_code_change_");
  report["benchmarks"][0]["code"] = {{"comparison", "similar"}};
  EXPECT_THROW(verdicts_in(report, "x.json"), formats::InputError);
}

SameCodeVerdicts verdicts(int same, int slow, std::vector<std::string> false_alarms = {}) {
  SameCodeVerdicts v;
  v.gpu_slug = "nvidia-h100-80gb-hbm3";
  v.gpu_name = "NVIDIA H100 80GB HBM3";
  v.mode = "compare";
  v.same = same;
  v.slow = slow;
  v.false_alarms = std::move(false_alarms);
  return v;
}

TEST(SameCodeLedger, AddsReportsAndKeepsWhenItStarted) {
  SameCodeLedger ledger;
  add_to_ledger(ledger, verdicts(107, 1, {kReduce9}), "2026-11-23T10:00:00Z");
  add_to_ledger(ledger, verdicts(0, 0), "2026-11-23T11:00:00Z");  // nothing timed on unchanged code
  add_to_ledger(ledger, verdicts(108, 0), "2026-11-24T09:00:00Z");
  SameCodeVerdicts ab = verdicts(12, 0);
  ab.mode = "ab";
  add_to_ledger(ledger, ab, "2026-11-24T09:30:00Z");

  const SameCodeTally& stored = ledger.tallies.at("nvidia-h100-80gb-hbm3").at("compare");
  EXPECT_EQ(stored.reports, 2) << "a report with no timed verdict on unchanged code is not counted";
  EXPECT_EQ(stored.timed(), 216);
  EXPECT_EQ(stored.slow, 1);
  EXPECT_EQ(stored.since, "2026-11-23T10:00:00Z");
  EXPECT_EQ(stored.last, "2026-11-24T09:00:00Z");
  EXPECT_EQ(stored.false_alarms.at(kReduce9), 1);
  EXPECT_EQ(stored.reports_with_false_alarms, 1) << "one of the two reports had a false alarm";
  EXPECT_EQ(ledger.tallies.at("nvidia-h100-80gb-hbm3").at("ab").timed(), 12) << "modes are counted apart";
}

TEST(SameCodeLedger, FileRoundTripsAndIsGolden) {
  SameCodeLedger ledger;
  add_to_ledger(ledger, verdicts(107, 1, {kReduce9}), "2026-11-23T10:00:00Z");
  const std::string text = ledger_to_text(ledger);
  EXPECT_EQ(ledger_to_text(ledger_from_text(text, "ledger.json")), text);
  expect_golden("same_code_ledger.json", text);
}

TEST(SameCodeLedger, RefusesACorruptOrInconsistentFileSayingHowToStartOver) {
  SameCodeLedger ledger;
  add_to_ledger(ledger, verdicts(107, 1, {kReduce9}), "2026-11-23T10:00:00Z");
  const nlohmann::json good = nlohmann::json::parse(ledger_to_text(ledger));
  const auto refused = [](const nlohmann::json& doc) {
    try {
      ledger_from_text(doc.dump(), "ledger.json");
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  nlohmann::json doc = good;
  doc["schema_version"] = 2;
  EXPECT_NE(refused(doc).find("schema_version is 2, this perf_gate reads 1"), std::string::npos) << refused(doc);
  doc = good;
  doc["gpus"]["nvidia-h100-80gb-hbm3"]["compare"]["verdicts"]["SAME"] = -1;
  EXPECT_NE(refused(doc).find("verdicts.SAME is -1, expected an integer from 0 to 100000000"), std::string::npos) << refused(doc);
  doc = good;
  doc["gpus"]["nvidia-h100-80gb-hbm3"]["compare"]["false_alarms"] = nlohmann::json::object();
  EXPECT_NE(refused(doc).find("false_alarms list 0 where SLOW + FAST is 1"), std::string::npos) << refused(doc);
  doc = good;
  doc["gpus"]["nvidia-h100-80gb-hbm3"]["compare"]["reports_with_false_alarms"] = 0;
  EXPECT_NE(refused(doc).find("reports_with_false_alarms is 0, which does not fit 1 reports with SLOW + FAST 1"),
            std::string::npos)
      << refused(doc);
  doc = good;
  doc["gpus"]["nvidia-h100-80gb-hbm3"]["stored"] = doc["gpus"]["nvidia-h100-80gb-hbm3"]["compare"];
  EXPECT_NE(refused(doc).find("unknown mode 'stored'"), std::string::npos) << refused(doc);
  // It lives on the runner and its names reach every later report: held to the names' rule on reading.
  doc = good;
  doc["gpus"]["nvidia-h100-80gb-hbm3"]["compare"]["gpu_name"] = "NVIDIA H100\n::error::x";
  EXPECT_NE(refused(doc).find("gpu_name: GPU name 'NVIDIA H100\\x0a::error::x' has a control character"),
            std::string::npos)
      << refused(doc);
  doc = good;
  doc["gpus"]["nvidia-h100-80gb-hbm3"]["compare"]["false_alarms"] = {{"fam/`<img>`/n:1", 1}};
  EXPECT_NE(refused(doc).find("false_alarms: benchmark name 'fam/`<img>`/n:1' has '`' at 4"), std::string::npos)
      << refused(doc);
  doc = good;
  doc["gpus"]["../x"] = doc["gpus"]["nvidia-h100-80gb-hbm3"];
  EXPECT_NE(refused(doc).find("gpus: GPU slug '../x'"), std::string::npos) << refused(doc);
  EXPECT_NE(refused(doc).find("move the file away to start a new count"), std::string::npos) << refused(doc);
  for (const std::string& text : {std::string(""), std::string("{\"schema_version\": 1, \"gp")}) {
    try {
      ledger_from_text(text, "ledger.json");
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const formats::InputError& e) {
      EXPECT_NE(std::string(e.what()).find("move the file away to start a new count"), std::string::npos) << e.what();
    }
  }
}

TEST(SameCodeLedger, LineIsGolden) {
  SameCodeLedger ledger;
  add_to_ledger(ledger, verdicts(1835, 1, {kReduce9}), "2026-11-23T10:00:00Z");
  add_to_ledger(ledger, verdicts(108, 0), "2026-11-24T09:00:00Z");
  SameCodeVerdicts clean = verdicts(540, 0);
  clean.mode = "ab";
  add_to_ledger(ledger, clean, "2026-11-24T09:30:00Z");
  const auto& tallies = ledger.tallies.at("nvidia-h100-80gb-hbm3");
  expect_golden("same_code_ledger_lines.txt",
                ledger_line(tallies.at("compare"), "compare") + "\n" + ledger_line(tallies.at("ab"), "ab") + "\n");
}

int run(const std::vector<std::string>& args, std::string* out = nullptr) {
  std::ostringstream o;
  std::ostringstream e;
  const int code = run_cli(args, o, e);
  if (out != nullptr) *out = o.str() + e.str();
  return code;
}

class LedgerCommand : public ScratchFolderTest {};

// compare --same-code-ledger counts as it judges and renders the count in its reports, written once; the
// ledger command counts a report written before and leaves it as it is.
TEST_F(LedgerCommand, CompareRendersTheCountInItsReportsAndTheLedgerCommandWritesOnlyTheLedger) {
  const std::string ledger = path("ledger.json");
  const std::string report = path("verdict.json");
  const std::string markdown = path("summary.md");
  const std::vector<std::string> compare = {"compare", "--baseline", testdata("baseline_h200_fingerprints.json"),
                                            "--results", testdata("results_same_code_slow_1.json"),
                                            testdata("results_same_code_slow_2.json"),
                                            testdata("results_same_code_slow_3.json"), "--json", report,
                                            "--markdown", markdown, "--same-code-ledger", ledger};
  std::string out;
  ASSERT_EQ(run(compare, &out), formats::kExitRegression) << out;
  EXPECT_NE(out.find("same code on this GPU (NVIDIA H200, against the baseline), 1 report since"), std::string::npos)
      << out;
  nlohmann::ordered_json verdict = nlohmann::ordered_json::parse(file_text(report));
  EXPECT_EQ(verdict.at("same_code_ledger").at("reports"), 1);
  EXPECT_EQ(verdict.at("same_code_ledger").at("verdicts").at("SLOW"), 1);
  EXPECT_EQ(verdict.begin().key(), "schema_version");
  EXPECT_EQ(std::prev(verdict.end()).key(), "same_code_ledger") << "the count comes last, after the benchmarks";
  const std::string md = file_text(markdown);
  EXPECT_EQ(md.rfind("### Perf gate (compare)", 0), 0u) << md;
  EXPECT_NE(md.find("\nsame code on this GPU (NVIDIA H200, against the baseline), 1 report since"), std::string::npos)
      << md;
  // The report, without its count, is what the ledger identifies: the same report given to the ledger
  // command is known, and changes nothing.
  verdict.erase("same_code_ledger");
  const std::string bare = path("bare.json");
  formats::write_file_atomically(bare, verdict.dump(2) + "\n");
  const std::string ledger_once = file_text(ledger);
  ASSERT_EQ(run({"ledger", "--ledger", ledger, "--report", bare}, &out), formats::kExitPass) << out;
  EXPECT_NE(out.find("already (the same report); nothing changed"), std::string::npos) << out;
  EXPECT_EQ(file_text(ledger), ledger_once);

  // Another report (another run): its id differs, so it counts; the report itself is not rewritten.
  const std::string second = path("verdict2.json");
  verdict["run_id"] = "second";
  formats::write_file_atomically(second, verdict.dump(2) + "\n");
  const std::string second_text = file_text(second);
  ASSERT_EQ(run({"ledger", "--ledger", ledger, "--report", second}, &out), formats::kExitPass) << out;
  EXPECT_NE(out.find("2 reports since"), std::string::npos) << out;
  EXPECT_NE(out.find(kReduce9 + std::string(" (2)")), std::string::npos) << out;
  EXPECT_EQ(file_text(second), second_text);
  EXPECT_EQ(ledger_from_text(file_text(ledger), ledger).tallies.at("nvidia-h200").at("compare").slow, 2);

  // --markdown asked the ledger command to rewrite a report: refused, saying what to do instead.
  EXPECT_EQ(run({"ledger", "--ledger", ledger, "--report", second, "--markdown", markdown}, &out),
            formats::kExitInvalidInput);
  EXPECT_NE(out.find("--same-code-ledger"), std::string::npos) << out;

  // A corrupt ledger: exit 2, the file and the report left as they were.
  formats::write_file_atomically(ledger, "{\"schema_version\": 1, \"gp");
  EXPECT_EQ(run({"ledger", "--ledger", ledger, "--report", report}, &out), formats::kExitInvalidInput);
  EXPECT_NE(out.find("start a new count"), std::string::npos) << out;
  EXPECT_EQ(file_text(ledger), "{\"schema_version\": 1, \"gp");
  // compare with that ledger: the verdict stands, its reports written without a count, the ledger untouched.
  const std::string md_before = file_text(markdown);
  EXPECT_EQ(run(compare, &out), formats::kExitRegression) << out;
  EXPECT_NE(out.find("was not updated (the verdict stands)"), std::string::npos) << out;
  EXPECT_FALSE(nlohmann::json::parse(file_text(report)).contains("same_code_ledger"));
  EXPECT_EQ(file_text(ledger), "{\"schema_version\": 1, \"gp");
}

// A retried CI step gives the same report again: it used to be counted twice. The ledger remembers the
// reports it counted, and the second call changes no file and says so.
TEST_F(LedgerCommand, ARetriedCallCountsTheReportOnce) {
  const std::string ledger = path("ledger.json");
  const std::string report = path("verdict.json");
  formats::write_file_atomically(report, report_text("results_same_code_slow_"));
  const std::vector<std::string> args = {"ledger", "--ledger", ledger, "--report", report};

  std::ostringstream out1, err1;
  ASSERT_EQ(run_cli(args, out1, err1), formats::kExitPass) << err1.str();
  EXPECT_NE(out1.str().find("1 report since"), std::string::npos) << out1.str();
  const std::string ledger_once = file_text(ledger), report_once = file_text(report);

  std::ostringstream out2, err2;
  ASSERT_EQ(run_cli(args, out2, err2), formats::kExitPass) << err2.str();
  EXPECT_NE(err2.str().find("was counted in " + ledger + " already"), std::string::npos) << err2.str();
  EXPECT_NE(err2.str().find("nothing changed"), std::string::npos) << err2.str();
  EXPECT_NE(out2.str().find("1 report since"), std::string::npos) << out2.str();
  EXPECT_EQ(file_text(ledger), ledger_once);
  EXPECT_EQ(file_text(report), report_once);
  EXPECT_EQ(ledger_from_text(ledger_once, ledger).tallies.at("nvidia-h200").at("compare").reports, 1);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), std::filesystem::directory_iterator()), 2)
      << "the two files, no temporary file, no lock file (they are in this user's lock folder)";
}

TEST(SameCodeLedger, RemembersTheLatestReportsOnly) {
  SameCodeLedger ledger;
  for (std::size_t i = 0; i < kCountedReportsKept + 20; ++i) {
    add_to_ledger(ledger, verdicts(10, 0), "2026-11-23T10:00:00Z", formats::hex16(i));
  }
  ASSERT_EQ(ledger.counted_reports.size(), kCountedReportsKept);
  EXPECT_EQ(ledger.counted_reports.front(), formats::hex16(20));
  EXPECT_FALSE(counted_before(ledger, formats::hex16(19)));
  EXPECT_TRUE(counted_before(ledger, formats::hex16(kCountedReportsKept + 19)));
  const SameCodeLedger read = ledger_from_text(ledger_to_text(ledger), "l.json");
  EXPECT_EQ(read.counted_reports, ledger.counted_reports);

  const auto error = [](const std::string& ids) {
    try {
      ledger_from_text(R"({"schema_version": 1, "gpus": {}, "counted_reports": )" + ids + "}", "l.json");
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error(R"(["abc"])").find("not a report id"), std::string::npos);
  EXPECT_NE(error("{}").find("counted_reports"), std::string::npos);
  EXPECT_EQ(error(R"(["0123456789abcdef"])"), "accepted");
}

TEST(SameCodeLedger, AReportWithItsCountKeepsItsId) {
  nlohmann::json report = nlohmann::json::parse(report_text("results_same_code_slow_"));
  const std::string id = report_id(report);
  report["same_code_ledger"] = {{"reports", 1}};
  EXPECT_EQ(report_id(report), id);
  report["run"] = "another";
  EXPECT_NE(report_id(report), id);
}

}  // namespace
}  // namespace gpuperf::gate
