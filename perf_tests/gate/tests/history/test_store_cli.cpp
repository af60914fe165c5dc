// perf_gate history-append, history-export and history-remove end to end: the gate's own reports and
// results in, the series export out (golden file), and the export's reader.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <utility>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "gate/history/series_json.h"
#include "gate/history/store_connection.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate::testing {
namespace {

class HistoryCli : public ScratchFolderTest {
 protected:
  // perf_gate compare's --json report of `results` (fixtures) against `baseline`, in the scratch folder.
  std::string verdict(const std::string& name, const std::string& baseline, const std::vector<std::string>& results) {
    std::vector<std::string> args = {"compare", "--baseline", testdata(baseline), "--json", path(name), "--results"};
    for (const std::string& file : results) args.push_back(testdata(file));
    const CliRun run = cli(args);
    EXPECT_NE(run.code, formats::kExitInvalidInput) << run.err;
    return path(name);
  }

  CliRun append(const std::string& verdict_path, const std::vector<std::string>& results, const std::string& key,
                const std::string& commit, const std::string& date) {
    std::vector<std::string> args = {"history-append", "--store", store(), "--verdict", verdict_path, "--commit",
                                     commit, "--date", date, "--run-key", key, "--runner", "gpu-runner-1", "--results"};
    for (const std::string& file : results) args.push_back(testdata(file));
    return cli(args);
  }

  std::string store() const { return "sqlite:" + path("history.sqlite"); }

  std::string read(const std::string& file) const {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

const std::vector<std::string> kUnchanged = {"results_run1.json", "results_run2.json", "results_run3.json"};
const std::vector<std::string> kCodeChange = {"results_code_change_1.json", "results_code_change_2.json",
                                              "results_code_change_3.json"};

// Two runs on main: the second with reduce9 10% slower on changed code (a new code_hash); exported as the
// dashboard and the change points read it.
TEST_F(HistoryCli, AppendedRunsExportAsTheSeriesOfTheirGpu) {
  const std::string first = verdict("first.verdict.json", "baseline_h200.json", kUnchanged);
  CliRun run = append(first, kUnchanged, "o/r/101/GPU-1234", "1111111", "2026-11-24T17:05:38Z");
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, "appended run o/r/101/GPU-1234: 3 benchmarks\n");
  run = append(first, kUnchanged, "o/r/101/GPU-1234", "1111111", "2026-11-24T17:05:38Z");
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, "run o/r/101/GPU-1234 is stored already: nothing added\n");
  const std::string second = verdict("second.verdict.json", "baseline_h200_fingerprints.json", kCodeChange);
  run = append(second, kCodeChange, "o/r/102/GPU-1234", "2222222", "2026-11-25T09:00:00Z");
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;

  const std::string ledger = write("ledger.json", R"({"schema_version": 1, "tallies": {}})");
  run = cli({"history-export", "--store", store(), "--gpu", "nvidia-h200", "--json", path("export.json"), "--ledger",
             ledger});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out, "exported 3 series of nvidia-h200 (2 runs) to " + path("export.json") + "\n");
  const std::string text = read(path("export.json"));
  expect_golden("history_export.json", text);

  const history::SeriesExport document = history::read_series_json(text, "export.json");
  EXPECT_EQ(history::series_json(document), text) << "the reader reads back what the writer wrote";
  ASSERT_EQ(document.series.size(), 3u);
  const history::Series& reduce9 = document.series[1].series;
  EXPECT_EQ(reduce9.benchmark, "reduction/reduce9_shfl_down_last_warp/n:33554432");
  ASSERT_EQ(reduce9.points.size(), 2u);
  EXPECT_EQ(reduce9.points[1].verdict, "SLOW");
  EXPECT_GT(reduce9.points[1].value, 1.05 * reduce9.points[0].value);
  EXPECT_EQ(reduce9.points[0].code_hash, "") << "the first run has no fingerprints";
  EXPECT_TRUE(std::regex_match(reduce9.points[1].code_hash, std::regex("[0-9a-f]{16}"))) << reduce9.points[1].code_hash;
  EXPECT_EQ(document.ledger["schema_version"], 1);
}

TEST_F(HistoryCli, ABadNameInAVerdictReportIsRefusedAndNothingIsStored) {
  std::string report = read(verdict("v.json", "baseline_h200.json", kUnchanged));
  const std::string name = "reduction/reduce9_shfl_down_last_warp/n:33554432";
  report.replace(report.find(name), name.size(), "reduction/reduce9`<img src=x>/n:1");
  const CliRun run = append(write("bad.verdict.json", report), kUnchanged, "k", "1111111", "2026-11-24T17:05:38Z");
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_TRUE(std::regex_search(run.err, std::regex(R"(bad\.verdict\.json: benchmarks\[\d\]\.name benchmark name)")))
      << run.err;
  EXPECT_FALSE(std::filesystem::exists(path("history.sqlite"))) << "nothing opened or created";
}

TEST_F(HistoryCli, BadLabelsAreRefusedBeforeAnythingIsRead) {
  const std::string report = verdict("v.json", "baseline_h200.json", kUnchanged);
  const std::vector<std::vector<std::string>> bad = {
      {"k", "1111111", "2026-11-24 17:05:38", "--date"},
      {"k", "HEAD", "2026-11-24T17:05:38Z", "--commit"},
      {"k\n::error::x", "1111111", "2026-11-24T17:05:38Z", "--run-key"},
  };
  for (const std::vector<std::string>& labels : bad) {
    const CliRun run = append(report, kUnchanged, labels[0], labels[1], labels[2]);
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << labels[3];
    EXPECT_NE(run.err.find(labels[3]), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("\n::error::x"), std::string::npos) << "escaped: " << run.err;
  }
  EXPECT_FALSE(std::filesystem::exists(path("history.sqlite")));
}

TEST_F(HistoryCli, ReportsOfAnotherGpuThanTheResultsAreRefused) {
  const std::string report = verdict("v.json", "baseline_h200.json", kUnchanged);
  const CliRun run = append(report, {"results_other_gpu.json"}, "k", "1111111", "2026-11-24T17:05:38Z");
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("the reports judged nvidia-h200"), std::string::npos) << run.err;
}

TEST_F(HistoryCli, ExportingAStoreThatIsNotThereIsExitTwo) {
  const CliRun run = cli({"history-export", "--store", store(), "--gpu", "nvidia-h200", "--json", path("e.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("no file"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(path("e.json")));
  EXPECT_FALSE(std::filesystem::exists(path("history.sqlite")));
}

// Two runs of kUnchanged kept in the scratch folder's store.
class HistoryCliTwoRuns : public HistoryCli {
 protected:
  void SetUp() override {
    HistoryCli::SetUp();
    const std::string report = verdict("v.json", "baseline_h200.json", kUnchanged);
    ASSERT_EQ(append(report, kUnchanged, "o/r/101/GPU-1234", "1111111", "2026-11-24T17:05:38Z").code, 0);
    ASSERT_EQ(append(report, kUnchanged, "o/r/102/GPU-1234", "2222222", "2026-11-25T09:00:00Z").code, 0);
  }
};

// `history-export --store S --json S` replaced the store with its export.
TEST_F(HistoryCliTwoRuns, NoCommandWritesItsOutputOverTheStore) {
  const std::string before = read(path("history.sqlite"));
  const std::vector<std::vector<std::string>> commands = {
      {"history-export", "--store", store(), "--gpu", "nvidia-h200", "--json", path("history.sqlite")},
      {"history-export", "--store", path("history.sqlite"), "--gpu", "nvidia-h200", "--json",
       path("sub/../history.sqlite")},
      {"history-changes", "--store", store(), "--gpu", "nvidia-h200", "--json", path("c.json"), "--markdown",
       path("history.sqlite")},
      {"history-changes", "--store", store(), "--gpu", "nvidia-h200", "--json", path("history.sqlite-journal")},
  };
  std::filesystem::create_directories(path("sub"));
  for (const std::vector<std::string>& command : commands) {
    const CliRun run = cli(command);
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << command[0] << " " << command.back();
    // Refused where the arguments are read (the output names an input), or by the store itself (its journal).
    const bool refused = run.err.find("would replace an input") != std::string::npos ||
                         run.err.find("is the history store") != std::string::npos;
    EXPECT_TRUE(refused) << run.err;
  }
  EXPECT_EQ(read(path("history.sqlite")), before) << "the store is as it was";
  EXPECT_FALSE(std::filesystem::exists(path("c.json"))) << "no output of a refused call";
  EXPECT_FALSE(std::filesystem::exists(path("history.sqlite-journal")));
}

TEST_F(HistoryCliTwoRuns, HistoryRemoveTakesOutOneRunAndSaysWhich) {
  CliRun run = cli({"history-remove", "--store", store(), "--run-key", "o/r/101/GPU-1234"});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(run.out,
            "removed run o/r/101/GPU-1234 of nvidia-h200 (commit 1111111, 2026-11-24T17:05:38Z): 3 benchmarks\n");
  run = cli({"history-export", "--store", store(), "--gpu", "nvidia-h200", "--json", path("e.json")});
  EXPECT_EQ(run.out, "exported 3 series of nvidia-h200 (1 runs) to " + path("e.json") + "\n");
  EXPECT_EQ(read(path("e.json")).find("o/r/101/GPU-1234"), std::string::npos) << "gone from the export";

  run = cli({"history-remove", "--store", store(), "--run-key", "o/r/101/GPU-1234"});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("holds no run o/r/101/GPU-1234: nothing removed"), std::string::npos) << run.err;
  run = cli({"history-remove", "--store", store(), "--run-key", "k\n::error::x"});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("--run-key"), std::string::npos) << run.err;
  run = cli({"history-remove", "--store", path("none.sqlite"), "--run-key", "o/r/102/GPU-1234"});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("no file"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(path("none.sqlite"))) << "nothing created";
}

// Medians of 1e300 and 1e-280 (a ratio of 1e580) made an infinite change, written as null, which the
// dashboard refused for every GPU; 0 and -5 were exported without complaint.
TEST_F(HistoryCliTwoRuns, AStoredMedianThatIsNotATimeStopsTheExportNamingItsRun) {
  const std::string file = path("history.sqlite");
  const std::unique_ptr<history::StoreConnection> db =
      history::connect_sqlite(file, file, history::StoreAccess::kAppend, history::StoreOptions{});
  const std::string by_key =
      "UPDATE results SET process_medians = $1 WHERE run_id = (SELECT id FROM runs WHERE run_key = $2)";
  for (const auto& [first, second] : std::vector<std::pair<std::string, std::string>>{
           {"[1e300,1e300,1e300]", "[1e-280,1e-280,1e-280]"}, {"[0]", "[255]"}, {"[255]", "[-5]"}}) {
    db->run(by_key, {first, std::string("o/r/101/GPU-1234")});
    db->run(by_key, {second, std::string("o/r/102/GPU-1234")});
    for (const std::string command : {"history-export", "history-changes"}) {
      const CliRun run = cli({command, "--store", store(), "--gpu", "nvidia-h200", "--json", path("out.json")});
      EXPECT_EQ(run.code, formats::kExitInvalidInput) << command << " " << first << " " << second;
      EXPECT_TRUE(std::regex_search(run.err, std::regex(R"(run o/r/10[12]/GPU-1234, benchmark \S+: process median)")))
          << run.err;
      EXPECT_NE(run.err.find("history-remove"), std::string::npos) << run.err;
      EXPECT_FALSE(std::filesystem::exists(path("out.json"))) << "nothing written";
    }
  }
}

TEST(SeriesJson, ANumberThatIsNotFiniteIsNeverWrittenAsNull) {
  history::Series series{"nvidia-h200", "reduction/reduce9/n:1", "us", {}};
  series.points.push_back(history::SeriesPoint{"k1", "1111111", "2026-11-24T17:05:38Z", "GPU-1", {1e-280}, 1e-280,
                                               "SAME", "", ""});
  series.points.push_back(history::SeriesPoint{"k2", "2222222", "2026-11-25T17:05:38Z", "GPU-1", {1e300}, 1e300,
                                               "SAME", "", ""});
  history::SeriesExport document = history::export_of("nvidia-h200", {series});
  const double change_pct = (1e300 / 1e-280 - 1.0) * 100.0;  // as changes.cpp forms it: overflows
  ASSERT_TRUE(std::isinf(change_pct));
  document.series[0].change_points.push_back({1, "1111111", "2222222", 1e-280, 1e300, change_pct, 0.001});
  expect_words(input_error_of([&] { history::series_json(document); }),
               {"series reduction/reduce9/n:1: change_points[0].change_pct", "not a finite number",
                "nothing was written"});
  document.series[0].change_points.clear();
  document.series[0].drift =
      history::ExportedDrift{"2026-11-23T00:00:00Z", 2.0, 4.0, std::nan(""), 2.0, true, "c1", "c2", "", 0.0, 0};
  expect_words(input_error_of([&] { history::series_json(document); }), {"drift.change_pct", "not a finite number"});
}

// What the CI job checks before it uploads a store (no fewer runs than downloaded) and before it appends a
// workflow run late (is it kept already?).
TEST_F(HistoryCli, HistoryRunsCountsTheRunsStoredOrThoseOfAKeyPrefix) {
  CliRun run = cli({"history-runs", "--store", store()});
  EXPECT_EQ(run.code, formats::kExitInvalidInput) << "no store to count";
  EXPECT_FALSE(std::filesystem::exists(path("history.sqlite"))) << "nothing created";
  const std::string report = verdict("v.json", "baseline_h200.json", kUnchanged);
  for (const char* key : {"o/r/101/GPU-1", "o/r/1010/GPU-1", "o/r/101/GPU-2", "o/r/102/GPU-1"}) {
    ASSERT_EQ(append(report, kUnchanged, key, "1111111", "2026-11-24T17:05:38Z").code, formats::kExitPass) << key;
  }
  const auto count = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"history-runs", "--store", store()});
    const CliRun counted = cli(args);
    EXPECT_EQ(counted.code, formats::kExitPass) << counted.err;
    return counted.out;
  };
  EXPECT_EQ(count({}), "4\n");
  EXPECT_EQ(count({"--key-prefix", "o/r/101/"}), "2\n") << "both GPUs of run 101, not run 1010";
  EXPECT_EQ(count({"--key-prefix", "o/r/103/"}), "0\n");
  EXPECT_EQ(count({"--key-prefix", ""}), "4\n");
}

TEST(SeriesJson, TheReaderRefusesWhatTheWriterNeverWrites) {
  history::Series series{"nvidia-h200", "reduction/reduce9/n:1", "us", {}};
  series.points.push_back(history::SeriesPoint{"k1", "1111111", "2026-11-24T17:05:38Z", "GPU-1", {1.0, 3.0, 2.0}, 2.0,
                                               "SAME", "", ""});
  series.points.push_back(history::SeriesPoint{"k2", "2222222", "2026-11-25T17:05:38Z", "GPU-1", {4.0}, 4.0, "SLOW",
                                               "", ""});
  history::SeriesExport document = history::export_of("nvidia-h200", {series});
  document.series[0].change_points.push_back({1, "1111111", "2222222", 2.0, 4.0, 100.0, 0.001});
  document.series[0].drift = history::ExportedDrift{"2026-11-23T00:00:00Z", 2.0, 4.0, 100.0, 2.0, true, "c1", "c2",
                                                    "", 0.0, 0};
  const std::string text = history::series_json(document);
  EXPECT_EQ(history::series_json(history::read_series_json(text, "e.json")), text) << "change points and drift too";
  const auto refused = [&](const std::string& from, const std::string& to, std::initializer_list<const char*> words) {
    std::string bad = text;
    ASSERT_NE(bad.find(from), std::string::npos) << from;
    bad.replace(bad.find(from), from.size(), to);
    expect_words(input_error_of([&] { history::read_series_json(bad, "e.json"); }), words);
  };
  refused("\"schema_version\": 1", "\"schema_version\": 2", {"e.json", "schema_version is 2, this perf_gate reads 1"});
  refused("reduction/reduce9/n:1", "reduction/<b>/n:1", {"series[0].benchmark", "benchmark name"});
  refused("\"value\": 2,", "\"value\": 2.5,", {"points[0].value", "median of process_medians"});
  refused("\"index\": 1", "\"index\": 2", {"change_points[0].index"});
  refused("\"beyond_tolerance\": true", "\"beyond_tolerance\": 1", {"beyond_tolerance"});
}

}  // namespace
}  // namespace gpuperf::gate::testing
