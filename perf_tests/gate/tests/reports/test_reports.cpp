// What a person and a machine read: the console lines, the Markdown table and the JSON report, compared
// byte for byte with the golden files of testdata/expected/ (GATE_UPDATE_GOLDEN=1 rewrites them; see
// testdata/README.md), so that any change of a report is a reviewed diff.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "formats/version.h"
#include "gate/judging/ab_mode.h"
#include "gate/judging/stored_mode.h"
#include "gate/reports/numbers.h"
#include "gate/reports/reports.h"
#include "gate/reports/wording.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::console_of;
using testing::expect_golden;
using testing::markdown_of;
using testing::testdata;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";

// Five samples whose median is exactly `median`: golden numbers that no random draw decides.
BenchmarkSamples samples_with_median(double median, const std::string& unit = formats::kUnitMicroseconds) {
  BenchmarkSamples b = testing::time_samples({median * 0.998, median * 0.999, median, median * 1.001, median * 1.002});
  b.unit = unit;
  return b;
}

BenchmarkSamples throttled_samples(double median) {
  BenchmarkSamples b = testing::time_samples({median, median});
  b.unit = formats::kUnitCycles;
  b.throttled = 28;
  b.power_capped = 28;
  b.repetitions = 30;
  return b;
}

BaselineEntry entry(std::vector<double> process_medians, double bytes = 0.0, const std::string& unit = formats::kUnitMicroseconds) {
  BaselineEntry e = testing::baseline_entry(std::move(process_medians));
  e.unit = unit;
  e.bytes = bytes;
  return e;
}

// A stored comparison with one row of each kind a person must act on: reduce9 10% slower in 3 processes
// (SLOW), reduce5 8% slower in one process only and transpose 3% slower against a baseline of 3 processes
// (AMBIGUOUS, each with its note), the pointer chase throttled (NOT_JUDGED), a removed benchmark
// (MISSING), a new one (NEW), and reduce1 unchanged (SAME: in the table, not on the console).
Comparison stored_comparison() {
  Baseline baseline = testing::baseline_for(testing::kH200, 3.0);
  baseline.recorded.date = "2026-11-22T03:00:00Z";
  baseline.recorded.commit = "abc123";
  baseline.benchmarks[kReduce9] =
      entry({42.0, 42.1, 41.9, 42.2, 41.8, 42.0, 42.1, 41.9, 42.05, 41.95}, 134217728.0);
  baseline.benchmarks[kReduce9].tolerance_pct = 2.0;
  baseline.benchmarks["reduction/reduce1_interleaved_divergent/n:1048576"] =
      entry({9.10, 9.12, 9.08, 9.11, 9.09, 9.10, 9.13, 9.07, 9.10, 9.10}, 4194304.0);
  baseline.benchmarks["reduction/reduce5_unrolled_last_warp/n:1048576"] =
      entry({3.00, 3.01, 2.99, 3.00, 3.02, 2.98, 3.00, 3.01, 2.99, 3.00}, 4194304.0);
  baseline.benchmarks["transpose/naive/n:4096"] = entry({120.0, 121.0, 119.5}, 134217728.0);
  baseline.benchmarks["smem_latency/pointer_chase/stride:1"] =
      entry({31.0, 31.0, 31.0, 31.0, 31.0, 31.0, 31.0, 31.0, 31.0, 31.0}, 0.0, formats::kUnitCycles);
  baseline.benchmarks["reduction/reduce0_removed_variant/n:1024"] = entry({5.0, 5.01, 4.99}, 4096.0);

  std::vector<ResultsFile> results;
  const double reduce9[] = {46.2, 46.3, 46.1};
  const double reduce1[] = {9.11, 9.10, 9.12};
  const double transpose[] = {123.0, 124.5, 123.3};
  for (int p = 0; p < 3; ++p) {
    ResultsFile file = testing::results_for(testing::kH200, "results_" + std::to_string(p + 1) + ".json");
    file.benchmarks[kReduce9] = samples_with_median(reduce9[p]);
    file.benchmarks[kReduce9].bytes = 134217728.0;
    file.benchmarks["reduction/reduce1_interleaved_divergent/n:1048576"] = samples_with_median(reduce1[p]);
    file.benchmarks["transpose/naive/n:4096"] = samples_with_median(transpose[p]);
    file.benchmarks["smem_latency/pointer_chase/stride:1"] = throttled_samples(31.0);
    file.benchmarks["fusion/bias_relu_fused/n:16777216"] = samples_with_median(88.0);
    results.push_back(file);
  }
  results[0].benchmarks["reduction/reduce5_unrolled_last_warp/n:1048576"] = samples_with_median(3.24);
  return compare_with_baseline(baseline, results, CompareOptions{});
}

// An A/B comparison of 3 interleaved pairs: bias_relu 6% slower in B (SLOW), reduce1 8% faster (FAST),
// reduce9 unchanged (SAME), the pointer chase throttled in B (NOT_JUDGED), one benchmark only in A
// (MISSING) and one only in B (NEW).
Comparison ab_comparison() {
  std::vector<ResultsFile> a;
  std::vector<ResultsFile> b;
  const double bias_relu_a[] = {88.0, 88.4, 87.8};
  const double bias_relu_b[] = {93.1, 93.8, 93.1};
  const double reduce9_a[] = {42.0, 42.2, 41.9};
  const double reduce9_b[] = {42.04, 42.16, 41.9};
  const double reduce1_a[] = {9.10, 9.12, 9.09};
  const double reduce1_b[] = {8.37, 8.40, 8.36};
  for (int i = 0; i < 3; ++i) {
    ResultsFile in_a = testing::results_for(testing::kH200, "A" + std::to_string(i + 1) + ".json");
    ResultsFile in_b = testing::results_for(testing::kH200, "B" + std::to_string(i + 1) + ".json");
    in_a.benchmarks["fusion/bias_relu_fused/n:16777216"] = samples_with_median(bias_relu_a[i]);
    in_b.benchmarks["fusion/bias_relu_fused/n:16777216"] = samples_with_median(bias_relu_b[i]);
    in_a.benchmarks[kReduce9] = samples_with_median(reduce9_a[i]);
    in_b.benchmarks[kReduce9] = samples_with_median(reduce9_b[i]);
    in_a.benchmarks["reduction/reduce1_interleaved_divergent/n:1048576"] = samples_with_median(reduce1_a[i]);
    in_b.benchmarks["reduction/reduce1_interleaved_divergent/n:1048576"] = samples_with_median(reduce1_b[i]);
    in_a.benchmarks["smem_latency/pointer_chase/stride:1"] = samples_with_median(31.0, formats::kUnitCycles);
    in_b.benchmarks["smem_latency/pointer_chase/stride:1"] = throttled_samples(31.0);
    in_a.benchmarks["reduction/reduce0_removed_variant/n:1024"] = samples_with_median(5.0);
    in_b.benchmarks["fusion/bias_relu_unfused_baseline/n:16777216"] = samples_with_median(120.0);
    a.push_back(in_a);
    b.push_back(in_b);
  }
  return compare_ab(a, b, AbOptions{});
}


TEST(GoldenReports, StoredComparisonConsole) { expect_golden("compare_console.txt", console_of(stored_comparison())); }
TEST(GoldenReports, StoredComparisonMarkdown) { expect_golden("compare_summary.md", markdown_of(stored_comparison())); }
TEST(GoldenReports, StoredComparisonJson) { expect_golden("compare_report.json", json_report(stored_comparison())); }
TEST(GoldenReports, AbComparisonConsole) { expect_golden("ab_console.txt", console_of(ab_comparison())); }
TEST(GoldenReports, AbComparisonMarkdown) { expect_golden("ab_summary.md", markdown_of(ab_comparison())); }
TEST(GoldenReports, AbComparisonJson) { expect_golden("ab_report.json", json_report(ab_comparison())); }

// From the fixtures (testdata/README.md): results of an unchanged build on a newer driver, against
// baseline_h200.json; and with SM and memory clocks 10% lower and the time benchmarks 10% slower,
// against baseline_h200_clocks.json (the hint to re-record).
std::vector<ResultsFile> fixture_results(const std::string& stem) {
  std::vector<ResultsFile> files;
  for (int i = 1; i <= 3; ++i) files.push_back(load_results(testdata(stem + std::to_string(i) + ".json")));
  return files;
}

Comparison driver_change_comparison() {
  return compare_with_baseline(load_baseline(testdata("baseline_h200.json")), fixture_results("results_driver_590_"),
                               CompareOptions{});
}

Comparison clocks_low_comparison() {
  return compare_with_baseline(load_baseline(testdata("baseline_h200_clocks.json")),
                               fixture_results("results_clocks_low_"), CompareOptions{});
}

TEST(GoldenReports, DriverChangeConsole) {
  expect_golden("driver_change_console.txt", console_of(driver_change_comparison()));
}
TEST(GoldenReports, DriverChangeMarkdown) {
  expect_golden("driver_change_summary.md", markdown_of(driver_change_comparison()));
}
TEST(GoldenReports, DriverChangeJson) {
  expect_golden("driver_change_report.json", json_report(driver_change_comparison()));
}
TEST(GoldenReports, ClocksLowConsole) { expect_golden("clocks_low_console.txt", console_of(clocks_low_comparison())); }
TEST(GoldenReports, ClocksLowMarkdown) { expect_golden("clocks_low_summary.md", markdown_of(clocks_low_comparison())); }

TEST(GoldenReports, TheComparisonsHoldEveryVerdictTheyAreMeantTo) {
  // So that a change of the statistics cannot silently turn the golden files into other cases.
  const auto verdicts = [](const Comparison& c) {
    std::vector<std::string> names;
    for (const BenchmarkComparison& row : c.benchmarks) names.push_back(verdict_name(row.verdict));
    return names;
  };
  EXPECT_EQ(verdicts(stored_comparison()), (std::vector<std::string>{"SLOW", "MISSING", "NOT_JUDGED", "AMBIGUOUS",
                                                                     "AMBIGUOUS", "NEW", "SAME"}));
  EXPECT_EQ(verdicts(ab_comparison()),
            (std::vector<std::string>{"SLOW", "MISSING", "NOT_JUDGED", "FAST", "NEW", "SAME"}));
  EXPECT_EQ(verdicts(driver_change_comparison()), (std::vector<std::string>{"MISSING", "SAME", "SAME", "SAME"}));
  EXPECT_EQ(verdicts(clocks_low_comparison()), (std::vector<std::string>{"SLOW", "SLOW", "MISSING", "SAME"}));
}

TEST(Format, ChangeWithInterval) {
  BenchmarkComparison row;
  row.ratio = 1.041;
  row.ci_low = 1.023;
  row.ci_high = 1.060;
  EXPECT_EQ(format_change(row), "+4.1% [+2.3, +6.0]");
  row.ratio = 0.9;
  row.ci_low = 0.88;
  row.ci_high = 0.92;
  EXPECT_EQ(format_change(row), "-10.0% [-12.0, -8.0]");
  EXPECT_EQ(format_p(2.04e-11), "2e-11");
  EXPECT_EQ(format_value(41.2, "us"), "41.20 us");
}

TEST(Format, Throughput) {
  BenchmarkComparison row;
  row.unit = "us";
  row.current_median = 40.0;
  row.bytes = 134217728;
  row.flops = 2e9;
  EXPECT_NEAR(achieved_gb_per_s(row), 134217728 / 40e-6 / 1e9, 1e-9);
  EXPECT_NEAR(achieved_tflop_per_s(row), 2e9 / 40e-6 / 1e12, 1e-9);
  row.unit = "cycles";
  EXPECT_EQ(achieved_gb_per_s(row), 0.0) << "no throughput from cycles";
}

TEST(Format, ActionHintFitsTheMode) {
  BenchmarkComparison row;
  row.verdict = Verdict::kSlow;
  EXPECT_NE(action_hint(row, "compare").find("refresh the baseline: scripts/update_baseline.sh"), std::string::npos);
  const std::string ab = action_hint(row, "ab");
  EXPECT_NE(ab.find("fix the slowdown in build B"), std::string::npos) << ab;
  EXPECT_EQ(ab.find("baseline:"), std::string::npos) << "A/B has no baseline to refresh: " << ab;
  for (Verdict v : {Verdict::kMissing, Verdict::kFast, Verdict::kNew}) {
    row.verdict = v;
    EXPECT_EQ(action_hint(row, "ab").find("update_baseline"), std::string::npos) << verdict_name(v);
    EXPECT_NE(action_hint(row, "compare").find("update_baseline"), std::string::npos) << verdict_name(v);
  }
  row.verdict = Verdict::kSame;
  EXPECT_EQ(action_hint(row, "ab"), "");
}

TEST(Format, NoiseAndErrorControl) {
  BenchmarkComparison row;
  row.ratio = 1.02;
  row.ci_low = 1.01;
  row.ci_high = 1.03;
  row.process_sd_pct = 0.314;
  row.current_processes = 3;
  row.baseline_processes = 10;
  row.pairs = 12;
  row.verdict = Verdict::kSame;
  EXPECT_EQ(format_noise(row, "compare"), "process sd 0.31%, 3 processes vs 10 recorded");
  row.current_processes = 1;
  EXPECT_EQ(format_noise(row, "compare"), "process sd 0.31%, 1 process vs 10 recorded");
  EXPECT_EQ(format_noise(row, "ab"), "pair sd 0.31%, 12 pairs");
  row.ratio = 0.0;  // no ratio was computed
  EXPECT_EQ(format_noise(row, "compare"), "") << "nothing judged, no noise assumed";
  EXPECT_EQ(format_error_control(ErrorBudget{0.01, 108, 3}),
            "family-wise false-alarm rate 1% per run (108 benchmarks x 3 looks: each test at p < 3.1e-05; intervals "
            "99% over all looks, each built at 99.67%)");
  EXPECT_EQ(format_error_control(ErrorBudget{}),
            "family-wise false-alarm rate 1% per run (1 benchmarks x 1 look: each test at p < 0.01; intervals 99%)");
}

TEST(JsonReport, SchemaTwoWithItsErrorControlAndNullsWhereNothingWasJudged) {
  const nlohmann::json doc = nlohmann::json::parse(json_report(stored_comparison()));
  EXPECT_EQ(doc["schema_version"], kReportSchemaVersion);
  EXPECT_EQ(kReportSchemaVersion, 2);
  EXPECT_FALSE(doc.contains("alpha")) << "error_control replaces it";
  EXPECT_EQ(doc["error_control"]["benchmarks"], 6);
  for (const nlohmann::json& row : doc["benchmarks"]) {
    const bool judged = row["verdict"] == "SLOW" || row["verdict"] == "AMBIGUOUS" || row["verdict"] == "SAME";
    for (const char* key : {"ratio", "change_pct", "ci_low_pct", "ci_high_pct", "p_slower", "process_sd_pct", "df"}) {
      EXPECT_EQ(row[key].is_null(), !judged) << row["name"] << " " << key;
    }
  }
}

// The golden files hold the version as written when they were last rewritten; these say it is the
// running harness's, and where each report puts it.
TEST(Reports, NameTheHarnessVersionInMarkdownAndJsonButNotOnTheConsole) {
  for (const Comparison& c : {stored_comparison(), ab_comparison()}) {
    const std::string markdown = markdown_of(c);
    const std::string last_line = std::string(formats::kHarnessVersionLine) + "\n";
    ASSERT_GT(markdown.size(), last_line.size() + 3);
    EXPECT_EQ(markdown.substr(markdown.size() - last_line.size() - 3), "|\n\n" + last_line)
        << "after the table, a paragraph of its own: " << markdown.substr(markdown.size() - 80);

    const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(json_report(c));
    EXPECT_EQ(doc["harness_version"], formats::kHarnessVersion);
    ASSERT_GE(doc.size(), 2u);
    EXPECT_EQ(doc.begin().key(), "schema_version");
    EXPECT_EQ(std::next(doc.begin()).key(), "harness_version") << "beside the format's version";

    EXPECT_EQ(console_of(c).find("gpuperf "), std::string::npos) << "the console lines stay as they were";
  }
}

// reduce9 3% slower on the GPU that recorded the baseline, which sets a 2% same-GPU default.
Comparison same_gpu_comparison() {
  Baseline baseline = testing::baseline_for(testing::kH200, 4.0);
  baseline.same_gpu_tolerance_pct = 2.0;
  baseline.recorded.date = "2026-12-01T00:00:00Z";
  baseline.recorded.commit = "abc123";
  baseline.recorded.gpu_uuids = {"GPU-1234"};
  baseline.benchmarks[kReduce9] = testing::baseline_entry(testing::noisy_samples(100.0, 0.002, 10, 1));
  std::vector<ResultsFile> results = testing::processes(kReduce9, 103.0, 0.002, 3, 2);
  for (ResultsFile& file : results) file.gpu.uuid = "GPU-1234";
  return compare_with_baseline(baseline, results, {});
}

constexpr const char* kSameGpuAgainst =
    "baseline recorded 2026-12-01T00:00:00Z at commit abc123 on this GPU (GPU-1234), same-GPU default tolerance 2.0%";

TEST(Reports, SayWhenTheSameGpuToleranceWasInEffect) {
  const Comparison c = same_gpu_comparison();
  std::ostringstream console;
  write_console_report(c, console);
  EXPECT_NE(console.str().find(std::string("vs ") + kSameGpuAgainst + ": 1 SLOW"), std::string::npos)
      << console.str();
  std::ostringstream markdown;
  write_markdown_report(c, markdown);
  EXPECT_NE(markdown.str().find(std::string("compared with ") + kSameGpuAgainst + ".\n"), std::string::npos)
      << markdown.str();

  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  EXPECT_EQ(doc["same_gpu"], true);
  EXPECT_EQ(doc["against"], kSameGpuAgainst);
  EXPECT_EQ(doc["benchmarks"][0]["tolerance_source"], "default, same GPU as the baseline");
  EXPECT_EQ(doc["benchmarks"][0]["tolerance_pct"], 2.0);

  const nlohmann::json other = nlohmann::json::parse(json_report(stored_comparison()));
  ASSERT_TRUE(other.contains("same_gpu"));
  EXPECT_EQ(other["same_gpu"], false) << "that baseline lists no GPU and sets no same-GPU tolerance";
}

TEST(RemeasureList, NamesTheAmbiguousOnesOnly) {
  Comparison c;
  BenchmarkComparison row;
  row.name = "a/ambiguous/n:1";
  row.verdict = Verdict::kAmbiguous;
  c.benchmarks.push_back(row);
  row.name = "a/slow/n:1";
  row.verdict = Verdict::kSlow;
  c.benchmarks.push_back(row);
  EXPECT_EQ(remeasure_list(c), "a/ambiguous/n:1\n");
  EXPECT_EQ(remeasure_list(Comparison{}), "");
}

}  // namespace
}  // namespace gpuperf::gate
