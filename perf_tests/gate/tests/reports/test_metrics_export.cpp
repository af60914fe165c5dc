// perf_gate metrics: a run's verdict reports as Bencher Metric Format and github-action-benchmark JSON,
// golden files of the compare report fixture, and the inputs it refuses.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/metrics_export.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::cli;
using testing::ScratchFolderTest;
using testing::testdata;

// The compare report's golden file: SLOW, MISSING, NOT_JUDGED (cycles), AMBIGUOUS x2, NEW, SAME.
VerdictReport compare_report() {
  const std::string path = testdata("expected/compare_report.json");
  return read_verdict_report(formats::read_text_file(path, ""), path);
}

TEST(MetricsExport, BencherMetricFormatMatchesItsGoldenFile) {
  const MetricsExport metrics = metrics_from_reports({compare_report()});
  testing::expect_golden("metrics_bmf.json", bencher_metric_format(metrics));
}

TEST(MetricsExport, GithubBenchmarkMatchesItsGoldenFile) {
  const MetricsExport metrics = metrics_from_reports({compare_report()});
  testing::expect_golden("metrics_github_benchmark.json", github_benchmark_json(metrics));
}

TEST(MetricsExport, MicrosecondsAreBencherLatencyInNanosecondsAndOnlyMeasuredBenchmarksGoOut) {
  const VerdictReport report = compare_report();
  const MetricsExport metrics = metrics_from_reports({report});
  const nlohmann::json bmf = nlohmann::json::parse(bencher_metric_format(metrics));
  const std::string reduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
  EXPECT_DOUBLE_EQ(bmf[reduce9]["latency"]["value"].get<double>(), 1000.0 * *report.rows[0].current_median);
  EXPECT_FALSE(bmf[reduce9]["latency"].contains("lower_value"));  // the gate's interval is of the change
  EXPECT_FALSE(bmf.contains("reduction/reduce0_removed_variant/n:1024"));  // MISSING: no median of this run
  EXPECT_EQ(metrics.measured.size() + metrics.left_out.size(), report.rows.size());
  for (const VerdictRow& row : metrics.measured) EXPECT_TRUE(row.current_median.has_value()) << row.name;
}

TEST(MetricsExport, ALaterReportOfTheSameBenchmarkWins) {
  VerdictReport first = compare_report();
  VerdictReport remeasured = first;
  remeasured.rows = {first.rows[0]};
  remeasured.rows[0].current_median = 50.0;
  remeasured.rows[0].verdict = "SAME";
  const MetricsExport metrics = metrics_from_reports({first, remeasured});
  const nlohmann::json gab = nlohmann::json::parse(github_benchmark_json(metrics));
  EXPECT_EQ(gab[0]["name"], first.rows[0].name);  // in the order first seen
  EXPECT_DOUBLE_EQ(gab[0]["value"].get<double>(), 50.0);
  EXPECT_EQ(gab[0]["extra"].get<std::string>().rfind("SAME", 0), 0u);
}

TEST(MetricsExport, ReportsOfTwoGpusAreRefused) {
  VerdictReport h200 = compare_report();
  VerdictReport h100 = h200;
  h100.gpu_slug = "nvidia-h100-80gb-hbm3";
  try {
    metrics_from_reports({h200, h100});
    FAIL() << "two GPUs were exported as one";
  } catch (const formats::InputError& e) {
    testing::expect_words(e.what(), {"nvidia-h200", "nvidia-h100-80gb-hbm3", "one GPU"});
  }
}

class MetricsCli : public ScratchFolderTest {};

TEST_F(MetricsCli, WritesBothFilesAndSaysWhatItLeftOut) {
  const std::string bmf = path("bmf.json");
  const std::string gab = path("gab.json");
  const testing::CliRun run = cli({"metrics", "--verdict", testdata("expected/compare_report.json"), "--bmf", bmf,
                                   "--github-benchmark", gab});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_NE(run.out.find("metrics of nvidia-h200: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("left out"), std::string::npos) << run.out;
  EXPECT_TRUE(nlohmann::json::parse(formats::read_text_file(bmf, "")).is_object());
  EXPECT_TRUE(nlohmann::json::parse(formats::read_text_file(gab, "")).is_array());
}

TEST_F(MetricsCli, ANameOutsideTheRuleIsRefusedAndNothingIsWritten) {
  std::string text = formats::read_text_file(testdata("expected/compare_report.json"), "");
  const std::string name = "reduction/reduce9_shfl_down_last_warp/n:33554432";
  text.replace(text.find(name), name.size(), "reduction/<img src=x>/n:1");
  const std::string report = write("hostile.verdict.json", text);
  const std::string bmf = path("bmf.json");
  const testing::CliRun run = cli({"metrics", "--verdict", report, "--bmf", bmf});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("benchmark name"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(bmf));
}

TEST_F(MetricsCli, NoOutputIsAUsageError) {
  const testing::CliRun run = cli({"metrics", "--verdict", testdata("expected/compare_report.json")});
  EXPECT_EQ(run.code, formats::kExitInvalidInput);
  EXPECT_NE(run.err.find("--bmf"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace gpuperf::gate
