// What a person and a machine read: the console lines, the Markdown table and the JSON report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "gate/comparator.h"
#include "gate/format.h"
#include "gate/reports.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::testdata;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";

Comparison slow_comparison() {
  return compare_with_baseline(load_baseline(testdata("baseline_h200.json")),
                               {load_results(testdata("results_slow.json"))}, {});
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

TEST(ConsoleReport, SlowLineIsActionableAndSummaryCounts) {
  std::ostringstream out;
  write_console_report(slow_comparison(), out);
  const std::string text = out.str();
  const std::regex slow_line(
      std::string(R"(SLOW +reduction/reduce9_shfl_down_last_warp/n:33554432  )") +
      R"(4\d\.\d\d us -> 4\d\.\d\d us  \+\d+\.\d% \[\+\d+\.\d, \+\d+\.\d\] )" + R"(\(tolerance 2\.0%, p=\de-\d+\)  )" +
      R"(-> fix the slowdown, or if intended refresh the baseline: scripts/update_baseline\.sh)");
  EXPECT_TRUE(std::regex_search(text, slow_line)) << text;
  EXPECT_NE(text.find("MISSING    reduction/reduce0_removed_variant/n:1024"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nSAME"), std::string::npos) << "SAME rows are not printed: " << text;
  EXPECT_NE(text.find("perf_gate compare: FAIL: regression - NVIDIA H200 (nvidia-h200)"), std::string::npos) << text;
  EXPECT_NE(text.find("1 SLOW, 1 MISSING, 2 SAME (exit 1)"), std::string::npos) << text;
  EXPECT_LT(text.find("SLOW"), text.find("MISSING")) << "most severe first";
}

TEST(MarkdownReport, HeaderAndSortedTable) {
  std::ostringstream out;
  write_markdown_report(slow_comparison(), out);
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("### Perf gate (compare) on NVIDIA H200 (`nvidia-h200`): FAIL: regression", 0), 0u) << text;
  EXPECT_NE(
      text.find("| Verdict | Benchmark | Baseline | Now | Change [99% CI] | Tolerance | GB/s now | TFLOP/s now |"),
      std::string::npos);
  const std::size_t slow = text.find("| SLOW | `reduction/reduce9");
  const std::size_t same = text.find("| SAME |");
  EXPECT_NE(slow, std::string::npos) << text;
  EXPECT_LT(slow, same);
  // reduce9 moves 128 MiB in about 46 us: about 2900 GB/s.
  EXPECT_TRUE(
      std::regex_search(text, std::regex(R"(\| SLOW \| `[^`]+` \|[^|]+\|[^|]+\|[^|]+\| 2\.0% \| 2[89]\d\d\.\d \|)")))
      << text;
}

TEST(JsonReport, HoldsEveryNumberAndTheVerdicts) {
  const nlohmann::json doc = nlohmann::json::parse(json_report(slow_comparison()));
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["gpu"]["slug"], "nvidia-h200");
  EXPECT_EQ(doc["exit_code"], 1);
  EXPECT_EQ(doc["counts"]["SLOW"], 1);
  const nlohmann::json& first = doc["benchmarks"][0];
  EXPECT_EQ(first["name"], kReduce9);
  EXPECT_EQ(first["verdict"], "SLOW");
  EXPECT_GT(first["change_pct"].get<double>(), 8.0);
  EXPECT_LT(first["ci_low_pct"].get<double>(), first["change_pct"].get<double>());
  EXPECT_GT(first["ci_high_pct"].get<double>(), first["change_pct"].get<double>());
  EXPECT_EQ(first["samples_current"], 30);
  EXPECT_EQ(first["tolerance_pct"], 2.0);
  EXPECT_TRUE(doc["benchmarks"][1]["ratio"].is_null()) << "MISSING has no ratio";
}

// reduce9 3% slower on the GPU that recorded the baseline, which sets a 2% same-GPU default.
Comparison same_gpu_comparison() {
  Baseline baseline = testing::baseline_for(testing::kH200, 4.0);
  baseline.same_gpu_tolerance_pct = 2.0;
  baseline.recorded.date = "2026-12-01T00:00:00Z";
  baseline.recorded.commit = "abc123";
  baseline.recorded.gpu_uuids = {"GPU-1234"};
  baseline.benchmarks[kReduce9] = testing::baseline_entry(testing::noisy_samples(100.0, 0.002, 30, 1));
  ResultsFile results = testing::results_for(testing::kH200);
  results.gpu.uuid = "GPU-1234";
  results.benchmarks[kReduce9] = testing::time_samples(testing::noisy_samples(103.0, 0.002, 30, 2));
  return compare_with_baseline(baseline, {results}, {});
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
  EXPECT_NE(markdown.str().find(std::string("compared with ") + kSameGpuAgainst + ";"), std::string::npos)
      << markdown.str();

  const nlohmann::json doc = nlohmann::json::parse(json_report(c));
  EXPECT_EQ(doc["same_gpu"], true);
  EXPECT_EQ(doc["against"], kSameGpuAgainst);
  EXPECT_EQ(doc["benchmarks"][0]["tolerance_source"], "default, same GPU as the baseline");
  EXPECT_EQ(doc["benchmarks"][0]["tolerance_pct"], 2.0);

  const nlohmann::json other = nlohmann::json::parse(json_report(slow_comparison()));
  ASSERT_TRUE(other.contains("same_gpu"));
  EXPECT_EQ(other["same_gpu"], false) << "the fixture baseline lists no GPU and sets no same-GPU tolerance";
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
