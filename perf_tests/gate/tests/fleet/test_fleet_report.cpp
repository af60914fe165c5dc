// The fleet report (perf_gate report): the numbers it computes (% of ceiling, speedup, GPU ratio) on the
// fixtures fleet_cases.json, fleet_baseline_h100.json and fleet_baseline_h200.json, its Markdown and JSON
// byte for byte against testdata/expected/, results files grouped by GPU, and every bad input refused
// with exit 2 and no file written.
//
// The fixtures, by design: the H100's read-only stream takes 400 us for 1 GiB (2684 GB/s), the H200's
// 250 us (4295 GB/s); reduce9 at 2^25 takes 60 and 50 us, reduce1 (the naive one) 480 and 330 us; reduce9
// at 2^28 exists on the H200 only; matmul 4096^3 in TF32 takes 1000 and 875 us against cuBLAS TF32's 400
// and 350 us (40% on both); matmul's naive variant is compared with FP32 cuBLAS, which neither measured;
// the shared-memory latency is in cycles (46 and 44); transpose is in the H100 baseline but not the listing;
// the wave sweep at 1 wave is on the H200 only, its listing written without a GPU (4096 bytes, no flops),
// its baseline counting 4.4 GFLOP; at 2 waves it is listed but measured on neither; one reduction case is
// correctness-only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "formats/case_listing.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/version.h"
#include "gate/cli/cli.h"
#include "gate/fleet/measurements.h"
#include "gate/fleet/render.h"
#include "gate/fleet/table.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::cli;
using testing::CliRun;
using testing::expect_golden;
using testing::ScratchFolderTest;
using testing::testdata;

constexpr const char* kH100 = "nvidia-h100-80gb-hbm3";
constexpr const char* kReduce9Small = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kReduce9Large = "reduction/reduce9_shfl_down_last_warp/n:268435456";
constexpr const char* kTf32 = "matmul/tf32_mma_tensor_core/m:4096,n:4096,k:4096";
constexpr const char* kNaiveMatmul = "matmul/naive/m:4096,n:4096,k:4096";
constexpr const char* kCublasTf32 = "matmul/cublas_sgemm_tf32/m:4096,n:4096,k:4096";
constexpr const char* kLatency = "smem_latency/ld_volatile_shared_u32/i:1,w:1,c:1";

FleetReport fixture_report() {
  std::vector<FleetInput> inputs;
  inputs.emplace_back(BaselineInput{"h100", load_baseline(testdata("fleet_baseline_h100.json"))});
  inputs.emplace_back(BaselineInput{"h200", load_baseline(testdata("fleet_baseline_h200.json"))});
  return build_fleet_report(formats::load_case_listing(testdata("fleet_cases.json")), fleet_gpus(std::move(inputs)));
}

const FleetFamily& family(const FleetReport& report, const std::string& name) {
  for (const FleetFamily& f : report.families) {
    if (f.name == name) return f;
  }
  throw std::runtime_error("no family " + name);
}

const FleetRow& row(const FleetReport& report, const std::string& name) {
  for (const FleetFamily& f : report.families) {
    for (const FleetRow& r : f.rows) {
      if (r.name == name) return r;
    }
  }
  throw std::runtime_error("no row " + name);
}

std::string markdown(const FleetReport& report, FleetChart chart = FleetChart::kMermaid) {
  std::ostringstream out;
  write_fleet_markdown(report, chart, out);
  return out.str();
}

TEST(FleetReport, FamiliesAndRowsInRegistryOrderWithoutCorrectnessOnlyOrUnmeasuredCases) {
  const FleetReport report = fixture_report();
  ASSERT_EQ(report.gpus.size(), 2u);
  EXPECT_EQ(report.gpus[0].slug, kH100);
  EXPECT_EQ(report.gpus[0].label, "H100");
  EXPECT_EQ(report.gpus[1].label, "H200");
  std::vector<std::string> families;
  for (const FleetFamily& f : report.families) families.push_back(f.name);
  EXPECT_EQ(families, (std::vector<std::string>{"ceiling", "reduction", "matmul", "occupancy", "smem_latency"}));
  std::vector<std::string> reduction;
  for (const FleetRow& r : family(report, "reduction").rows) reduction.push_back(r.variant + "/" + r.shape);
  EXPECT_EQ(reduction, (std::vector<std::string>{"reduce1_interleaved_divergent/n:33554432",
                                                 "reduce1_interleaved_divergent/n:268435456",
                                                 "reduce9_shfl_down_last_warp/n:33554432",
                                                 "reduce9_shfl_down_last_warp/n:268435456"}));
  EXPECT_EQ(report.unmeasured_cases, 1) << "2 waves; the correctness-only case is no perf case";
}

TEST(FleetReport, PercentOfTheGpusOwnCeilingSpeedupOverNaiveAndGpuRatio) {
  const FleetReport report = fixture_report();
  const FleetRow& r = row(report, kReduce9Small);
  EXPECT_EQ(r.throughput, Throughput::kGbPerS);
  ASSERT_EQ(r.cells.size(), 2u);
  const FleetCell& h100 = r.cells[0];
  const FleetCell& h200 = r.cells[1];
  EXPECT_DOUBLE_EQ(*h100.time, 60.0);
  EXPECT_NEAR(*h100.throughput, 134217728.0 / 60.0 / 1e3, 1e-9);  // 2237 GB/s
  // (2^27 B / 60 us) / (2^30 B / 400 us) on the H100; (2^27 / 50) / (2^30 / 250) on the H200.
  EXPECT_NEAR(*h100.pct_of_ceiling, 83.3333333, 1e-6);
  EXPECT_NEAR(*h200.pct_of_ceiling, 62.5, 1e-9);
  EXPECT_NEAR(*h100.speedup, 480.0 / 60.0, 1e-12);
  EXPECT_NEAR(*h200.speedup, 330.0 / 50.0, 1e-12);
  ASSERT_EQ(r.time_ratios.size(), 1u);
  EXPECT_NEAR(*r.time_ratios[0], 1.2, 1e-12) << "H100 time / H200 time: 1.2x faster on the H200";
}

TEST(FleetReport, ABenchmarkOfOneGpuKeepsItsRowWithBlankCellsOnTheOther) {
  const FleetReport report = fixture_report();
  const FleetRow& r = row(report, kReduce9Large);
  EXPECT_FALSE(r.cells[0].time);
  EXPECT_FALSE(r.cells[0].throughput);
  EXPECT_DOUBLE_EQ(*r.cells[1].time, 300.0);
  EXPECT_NEAR(*r.cells[1].speedup, 2550.0 / 300.0, 1e-12);
  EXPECT_FALSE(r.time_ratios[0]);
}

TEST(FleetReport, MatmulIsReadInTflopsAgainstCublasOfItsPrecision) {
  const FleetReport report = fixture_report();
  const FleetRow& tf32 = row(report, kTf32);
  EXPECT_EQ(tf32.throughput, Throughput::kTflopPerS);
  EXPECT_NEAR(*tf32.cells[0].throughput, 137438953472.0 / 1000.0 / 1e6, 1e-9);  // 137.4 TFLOP/s
  EXPECT_NEAR(*tf32.cells[0].pct_of_ceiling, 40.0, 1e-9);
  EXPECT_NEAR(*tf32.cells[1].pct_of_ceiling, 40.0, 1e-9);
  EXPECT_NEAR(*tf32.cells[0].speedup, 25.0, 1e-12);
  EXPECT_NEAR(*tf32.cells[1].speedup, 28.0, 1e-12);
  EXPECT_NEAR(*row(report, kCublasTf32).cells[0].pct_of_ceiling, 100.0, 1e-9) << "its own yardstick";
  const FleetRow& naive = row(report, kNaiveMatmul);
  EXPECT_EQ(naive.throughput, Throughput::kTflopPerS) << "FP32 cuBLAS is unlisted: read by its intensity";
  EXPECT_FALSE(naive.cells[0].pct_of_ceiling) << "FP32 cuBLAS was not measured";
  EXPECT_NEAR(*naive.cells[0].speedup, 1.0, 1e-12);
}

TEST(FleetReport, TheMeasuredCountsDecideTheThroughputBeforeTheListings) {
  const FleetRow& r = row(fixture_report(), "occupancy/wave_sweep/waves:1.00");
  EXPECT_EQ(r.throughput, Throughput::kTflopPerS) << "8130 flops per byte as measured; the listing counts no flops";
  EXPECT_NEAR(*r.cells[1].throughput, 4429185024.0 / 75.0 / 1e6, 1e-9);  // 59.1 TFLOP/s
}

TEST(FleetReport, CyclesHaveNoThroughputButARatio) {
  const FleetReport report = fixture_report();
  const FleetRow& r = row(report, kLatency);
  EXPECT_EQ(r.throughput, Throughput::kNone);
  EXPECT_EQ(r.cells[0].unit, "cycles");
  EXPECT_FALSE(r.cells[0].throughput);
  EXPECT_FALSE(r.cells[0].pct_of_ceiling);
  EXPECT_NEAR(*r.time_ratios[0], 46.0 / 44.0, 1e-12);
  EXPECT_TRUE(family(report, "smem_latency").chart_shape.empty());
}

TEST(FleetReport, ChartsTheLargestShapeOfEachFamily) {
  const FleetReport report = fixture_report();
  EXPECT_EQ(family(report, "reduction").chart_shape, "n:268435456");
  EXPECT_EQ(family(report, "reduction").chart_throughput, Throughput::kGbPerS);
  EXPECT_EQ(family(report, "matmul").chart_throughput, Throughput::kTflopPerS);
}

TEST(FleetReport, BenchmarksMissingFromTheListingAreListedApart) {
  const FleetReport report = fixture_report();
  ASSERT_EQ(report.unlisted.size(), 1u);
  const FleetRow& r = report.unlisted.front();
  EXPECT_EQ(r.name, "transpose/naive/n:4096");
  EXPECT_EQ(r.family, "transpose");
  EXPECT_EQ(r.variant, "naive");
  EXPECT_EQ(r.shape, "n:4096");
  EXPECT_EQ(r.throughput, Throughput::kGbPerS);
  EXPECT_DOUBLE_EQ(*r.cells[0].time, 130.0);
  EXPECT_FALSE(r.cells[1].time);
  EXPECT_FALSE(r.cells[0].pct_of_ceiling);
}

TEST(FleetReport, ThroughputFollowsTheYardstickThenTheArithmeticIntensity) {
  formats::ListedCase cublas;
  cublas.bytes = 12582912.0;
  cublas.flops = 2147483648.0;
  formats::ListedCase copy;
  copy.bytes = 2147483648.0;
  EXPECT_EQ(throughput_of("us", 12582912.0, 2147483648.0, &cublas), Throughput::kTflopPerS);
  // Fusion: bytes and flops, compared with a memory ceiling.
  EXPECT_EQ(throughput_of("us", 3221225472.0, 536870912.0, &copy), Throughput::kGbPerS);
  // No yardstick: 0.25 flops per byte is memory-bound, 8130 compute-bound.
  EXPECT_EQ(throughput_of("us", 536870912.0, 134217728.0, nullptr), Throughput::kGbPerS);
  EXPECT_EQ(throughput_of("us", 544768.0, 4429185024.0, nullptr), Throughput::kTflopPerS);
  EXPECT_EQ(throughput_of("us", 0.0, 5.0, nullptr), Throughput::kTflopPerS);
  EXPECT_EQ(throughput_of("us", 0.0, 0.0, nullptr), Throughput::kNone);
  EXPECT_EQ(throughput_of("cycles", 0.0, 0.0, nullptr), Throughput::kNone);
  EXPECT_EQ(throughput_of("cycles", 4096.0, 0.0, &copy), Throughput::kNone);
}

TEST(FleetReport, GpuLabelsAreTheModelUnlessThatIsAmbiguous) {
  const auto labels = [](const std::vector<std::pair<std::string, std::string>>& names_and_slugs) {
    std::vector<GpuMeasurements> gpus;
    for (const auto& [name, slug] : names_and_slugs) gpus.push_back(GpuMeasurements{name, slug, "", {}});
    return gpu_labels(gpus);
  };
  using Labels = std::vector<std::string>;
  EXPECT_EQ(labels({{"NVIDIA H100 80GB HBM3", "a"}, {"NVIDIA H200", "b"}, {"Tesla T4", "c"},
                    {"NVIDIA GeForce RTX 4090", "d"}, {"", "e-f"}}),
            (Labels{"H100", "H200", "T4", "RTX 4090", "e-f"}));
  EXPECT_EQ(labels({{"NVIDIA H100 80GB HBM3", "a"}, {"NVIDIA H100 PCIe", "b"}}),
            (Labels{"H100 80GB HBM3", "H100 PCIe"}));
  EXPECT_EQ(labels({{"NVIDIA H100", "h100-a"}, {"NVIDIA H100", "h100-b"}}), (Labels{"h100-a", "h100-b"}));
}

TEST(FleetMeasurements, ResultsFilesAreGroupedByGpuInTheOrderGivenEachFileOneProcess) {
  std::vector<FleetInput> inputs;
  inputs.emplace_back(load_results(testdata("results_other_gpu.json")));
  for (const char* file : {"results_run1.json", "results_run2.json", "results_run3.json"}) {
    inputs.emplace_back(load_results(testdata(file)));
  }
  const std::vector<GpuMeasurements> gpus = fleet_gpus(std::move(inputs));
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].slug, kH100);
  EXPECT_EQ(gpus[1].slug, testing::kH200);
  EXPECT_EQ(gpus[1].name, "NVIDIA H200");
  EXPECT_EQ(gpus[1].source, "3 results files at commit abc123");
  // The three files' medians are 42.10425, 42.2525 and 41.8446 us: the middle one, not the pooled median.
  const Measurement& m = gpus[1].benchmarks.at(kReduce9Small);
  EXPECT_DOUBLE_EQ(m.time, 42.10425);
  EXPECT_EQ(m.unit, "us");
  EXPECT_DOUBLE_EQ(m.bytes, 134217728.0);
}

TEST(FleetMeasurements, AGpuGivenTwiceOrWithoutSlugIsRefused) {
  std::vector<FleetInput> twice;
  twice.emplace_back(BaselineInput{"baseline_h200.json", load_baseline(testdata("baseline_h200.json"))});
  twice.emplace_back(load_results(testdata("results_run1.json")));
  try {
    fleet_gpus(std::move(twice));
    FAIL() << "a baseline and results of one GPU were accepted";
  } catch (const formats::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("GPU 'nvidia-h200' is given twice"), std::string::npos) << e.what();
  }
  std::vector<FleetInput> no_slug;
  no_slug.emplace_back(load_results(testdata("results_no_gpu_slug.json")));
  EXPECT_THROW(fleet_gpus(std::move(no_slug)), formats::InputError);
}

TEST(CaseListing, ReadsTheListingAndRefusesAnotherSchema) {
  const formats::CaseListing listing = formats::load_case_listing(testdata("fleet_cases.json"));
  ASSERT_EQ(listing.cases.size(), 12u);
  EXPECT_EQ(listing.cases[2].compared_with, "ceiling/read_only_stream/n:268435456");
  EXPECT_TRUE(listing.cases[0].compared_with.empty()) << "null";
  EXPECT_FALSE(listing.cases[1].perf) << "correctness-only";
  EXPECT_EQ(listing.cases.back().unit, "cycles");

  const auto error_of = [](const std::string& text) {
    try {
      formats::parse_case_listing(text, "cases.json");
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error_of(R"({"schema_version": 2, "cases": []})")
                .find("schema_version is 2; this perf_gate reads case listings of schema_version 1"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"cases": []})").find("schema_version is missing"), std::string::npos);
  EXPECT_NE(error_of(R"({"schema_version": 1, "cases": []})").find("names no case"), std::string::npos);
  const std::string one = R"({"name": "a/b/n:1", "family": "a", "variant": "b", "shape": "n:1", "unit": "us"})";
  EXPECT_EQ(error_of(R"({"schema_version": 1, "cases": [)" + one + "]}"), "accepted");
  EXPECT_NE(error_of(R"({"schema_version": 1, "cases": [)" + one + "," + one + "]}").find("lists 'a/b/n:1' twice"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"schema_version": 1, "cases": [{"name": "a/b/n:1", "family": "a", "variant": "b",
                       "shape": "n:1", "unit": "ms"}]})")
                .find("cases[0] ('a/b/n:1').unit is 'ms', expected us or cycles"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"schema_version": 1, "cases": [{"name": "a/b/n:1", "family": "a", "variant": "b",
                       "shape": "n:1", "unit": "us", "bytes": -1}]})")
                .find("bytes is negative"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"schema_version": 1, "cases": [{"name": "a/b/n:1", "variant": "b", "shape": "n:1",
                       "unit": "us"}]})")
                .find("family is missing"),
            std::string::npos);
}

TEST(GoldenReports, FleetMarkdown) { expect_golden("fleet_summary.md", markdown(fixture_report())); }
TEST(GoldenReports, FleetJson) { expect_golden("fleet_report.json", fleet_json_report(fixture_report())); }

TEST(FleetReport, NamesTheHarnessVersionLastInMarkdownAndBesideTheSchemaInJson) {
  const FleetReport report = fixture_report();
  FleetReport all_measured = report;  // ends with a table or chart instead of the count of unmeasured cases
  all_measured.unmeasured_cases = 0;
  all_measured.unlisted.clear();
  const std::string last = "\n\n" + std::string(formats::kHarnessVersionLine) + "\n";
  const FleetReport* const reports[] = {&report, &all_measured};
  for (const FleetReport* r : reports) {
    for (const FleetChart chart : {FleetChart::kMermaid, FleetChart::kNone}) {
      const std::string text = markdown(*r, chart);
      ASSERT_GT(text.size(), last.size());
      EXPECT_EQ(text.substr(text.size() - last.size()), last);
      EXPECT_NE(text.substr(text.size() - last.size() - 1, 1), "\n") << "one blank line before it, not two";
    }
  }
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(fleet_json_report(report));
  EXPECT_EQ(doc["harness_version"], formats::kHarnessVersion);
  EXPECT_EQ(std::next(doc.begin()).key(), "harness_version");
}

TEST(FleetMarkdown, ChartNoneLeavesOutTheMermaidBlocks) {
  const FleetReport report = fixture_report();
  EXPECT_NE(markdown(report).find("```mermaid\nxychart-beta horizontal\n"), std::string::npos);
  EXPECT_EQ(markdown(report, FleetChart::kNone).find("mermaid"), std::string::npos);
  EXPECT_EQ(fleet_mermaid_chart(report, family(report, "smem_latency")), "") << "cycles: nothing to chart";
}

// perf_gate report end to end, in-process.
class FleetCli : public ScratchFolderTest {
 protected:
  static std::string slurp(const std::string& file) {
    std::ifstream in(file);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

TEST_F(FleetCli, WritesTheMarkdownAndJsonOfTheGoldenFiles) {
  const CliRun run = cli({"report", "--cases", testdata("fleet_cases.json"), "--baseline",
                       testdata("fleet_baseline_h100.json"), "--baseline", testdata("fleet_baseline_h200.json"),
                       "--markdown", path("fleet.md"), "--json", path("fleet.json")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_EQ(slurp(path("fleet.md")), markdown(fixture_report()));
  EXPECT_EQ(slurp(path("fleet.json")), fleet_json_report(fixture_report()));
  EXPECT_NE(run.out.find("fleet report: 10 benchmarks in 5 families on 2 GPUs (nvidia-h100-80gb-hbm3, nvidia-h200); "
                         "1 measured but not in "),
            std::string::npos)
      << run.out;
}

TEST_F(FleetCli, GpusFollowTheCommandLineAndMarkdownGoesToStdoutWithoutAnOutputFile) {
  const CliRun run = cli({"report", "--cases", testdata("fleet_cases.json"), "--results", testdata("results_run1.json"),
                       "--baseline", testdata("fleet_baseline_h100.json"), "--results",
                       testdata("results_run2.json"), "--chart", "none"});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_NE(run.out.find("### Fleet report: H200, H100\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("| NVIDIA H200 (`nvidia-h200`) | 2 results files at commit abc123 |"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("H200 / H100 time"), std::string::npos);
  EXPECT_EQ(run.out.find("mermaid"), std::string::npos);
}

TEST_F(FleetCli, BadInputIsExitTwoWithWhatToDoAndNoFileWritten) {
  const std::string other_schema = path("cases_v2.json");
  std::ofstream(other_schema) << R"({"schema_version": 2, "cases": []})";
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::string cases = testdata("fleet_cases.json");
  const std::string h100 = testdata("fleet_baseline_h100.json");
  for (const Case& c : std::vector<Case>{
           {{"report", "--baseline", h100}, "--cases is required"},
           {{"report", "--cases", cases}, "report needs what to tabulate"},
           {{"report", "--cases", path("missing.json"), "--baseline", h100}, "cannot open"},
           {{"report", "--cases", other_schema, "--baseline", h100}, "gpuperf_bench --list-cases"},
           {{"report", "--cases", cases, "--baseline", path("missing.json")}, "cannot open"},
           {{"report", "--cases", cases, "--results", testdata("bad_truncated.json")}, "truncated"},
           {{"report", "--cases", cases, "--baseline", h100, "--baseline", h100}, "is given twice"},
           {{"report", "--cases", cases, "--baseline", h100, "--chart", "svg"}, "must be mermaid or none"},
       }) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--markdown", path("out.md"), "--json", path("out.json")});
    const CliRun run = cli(args);
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << ::testing::PrintToString(args);
    EXPECT_NE(run.err.find(c.says), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(path("out.md"))) << ::testing::PrintToString(args);
    EXPECT_FALSE(std::filesystem::exists(path("out.json"))) << ::testing::PrintToString(args);
  }
}

TEST_F(FleetCli, TheUsageDescribesTheCommand) {
  const CliRun help = cli({"report", "--help"});
  EXPECT_EQ(help.code, formats::kExitPass);
  EXPECT_NE(help.out.find("perf_gate report --cases CASES.json"), std::string::npos);
  EXPECT_NE(help.out.find("perf_tests/gate/fleet/README.md"), std::string::npos);
}

}  // namespace
}  // namespace gpuperf::gate
