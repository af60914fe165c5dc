// Profiler diagnosis: the fixed metric set, parsing ncu's raw-page CSV (the fixtures testdata/ncu_before.csv
// and ncu_after.csv: reduce9's two passes, the after build with 40 registers instead of 16, lower occupancy
// and a 16% longer duration; the ncu_bad_*.csv files, one defect each), the JSON round trip, the aggregation
// rules and the top stalls of the diff, and its Markdown table (golden file); the profiles stored beside a
// baseline (ncu/stored_profiles.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>

#include "formats/input_error.h"
#include "formats/json_input.h"
#include "gate/ncu/profile.h"
#include "gate/ncu/stored_profiles.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate {
namespace {

using testing::expect_golden;
using testing::expect_words;
using testing::read_fixture_text;

constexpr const char* kReduce9Kernel =
    "void gpuperf::reduction::(anonymous namespace)::reduce9_kernel<256>(const int *, long, int *)";
const std::string kLongScoreboard = ncu_stall_metric("long_scoreboard");

NcuProfile fixture(const std::string& name) { return parse_ncu_csv(read_fixture_text(name), "ncu.csv"); }

std::string parse_error(const std::string& text) {
  return testing::input_error_of([&] { parse_ncu_csv(text, "ncu.csv"); });
}

// A raw-page table of one kernel row per entry of `rows`, under a header of the fixed columns and
// `metrics`, with ncu's units row.
std::string raw_csv(const std::vector<std::string>& metrics, const std::vector<std::string>& units,
                    const std::vector<std::vector<std::string>>& rows) {
  const auto quoted = [](const std::vector<std::string>& fields) {
    std::string line;
    for (const std::string& f : fields) line += (line.empty() ? "\"" : ",\"") + f + "\"";
    return line + "\n";
  };
  std::vector<std::string> header = {"ID",          "Process ID", "Process Name", "Host Name",
                                     "Kernel Name", "Block Size", "Grid Size"};
  std::vector<std::string> unit_row(header.size(), "");
  header.insert(header.end(), metrics.begin(), metrics.end());
  unit_row.insert(unit_row.end(), units.begin(), units.end());
  std::string text = quoted(header) + quoted(unit_row);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::vector<std::string> row = {std::to_string(i),       "7",           "bench",    "host",
                                    "k" + std::to_string(i), "(256, 1, 1)", "(8, 1, 1)"};
    row.insert(row.end(), rows[i].begin(), rows[i].end());
    text += quoted(row);
  }
  return text;
}

// One launch built in memory: {metric, value} pairs, units left out (the diff reads values only).
KernelProfile launch(std::initializer_list<std::pair<const std::string, double>> metrics) {
  KernelProfile k;
  k.kernel_name = "k";
  k.metrics = metrics;
  return k;
}

const MetricDiff* row_of(const std::vector<MetricDiff>& rows, const std::string& label) {
  for (const MetricDiff& row : rows) {
    if (row.label == label) return &row;
  }
  return nullptr;
}

TEST(NcuMetrics, TheFixedSetAsNcuTakesIt) {
  const std::vector<std::string> names = ncu_metric_names();
  EXPECT_EQ(names.size(), 8u + ncu_stall_reasons().size());
  EXPECT_EQ(ncu_stall_reasons().size(), 18u);
  EXPECT_EQ(names.front(), "gpu__time_duration.sum");
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size()) << "no name twice";
  for (const char* name :
       {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smsp__inst_executed.sum",
        "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
        "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  const std::string argument = ncu_metrics_argument();
  EXPECT_EQ(argument.rfind("gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,", 0), 0u)
      << argument;
  EXPECT_EQ(argument.find(' '), std::string::npos) << "one argument: no spaces";
  EXPECT_EQ(static_cast<std::size_t>(std::count(argument.begin(), argument.end(), ',')), names.size() - 1);
}

TEST(NcuCsv, ReadsTheFixture) {
  const NcuProfile p = fixture("ncu_before.csv");
  ASSERT_EQ(p.kernels.size(), 2u) << "the program's output and ==PROF== lines are skipped";
  const KernelProfile& first = p.kernels[0];
  EXPECT_EQ(first.kernel_name, kReduce9Kernel) << "commas inside quotes";
  EXPECT_EQ(first.block_size, "(256, 1, 1)");
  EXPECT_EQ(first.grid_size, "(1056, 1, 1)");
  EXPECT_EQ(p.kernels[1].grid_size, "(1, 1, 1)");
  EXPECT_EQ(first.metrics.size(), ncu_metric_names().size());
  EXPECT_DOUBLE_EQ(first.metrics.at(kNcuDuration), 38912.0) << "\"38,912\"";
  EXPECT_EQ(first.units.at(kNcuDuration), "nsecond");
  EXPECT_DOUBLE_EQ(first.metrics.at(kNcuInstructionsExecuted), 6422528.0) << "\"6,422,528\"";
  EXPECT_EQ(first.units.at(kNcuInstructionsExecuted), "inst");
  EXPECT_DOUBLE_EQ(first.metrics.at(kNcuDramThroughput), 86.41);
  EXPECT_EQ(first.units.at(kNcuDramThroughput), "%");
  EXPECT_DOUBLE_EQ(first.metrics.at(kNcuRegistersPerThread), 16.0);
  EXPECT_EQ(first.units.at(kNcuRegistersPerThread), "register/thread");
  EXPECT_DOUBLE_EQ(first.metrics.at(kNcuSharedBankConflictsStore), 0.0);
  EXPECT_EQ(first.units.at(kNcuSharedBankConflictsStore), "");
  EXPECT_DOUBLE_EQ(first.metrics.at(kLongScoreboard), 18.42);
  EXPECT_DOUBLE_EQ(p.kernels[1].metrics.at(kNcuDuration), 2688.0);
}

TEST(NcuCsv, NumbersWithThousandsSeparatorsAndExponents) {
  const NcuProfile p =
      parse_ncu_csv(raw_csv({kNcuDuration, kNcuInstructionsExecuted, kLongScoreboard}, {"nsecond", "inst", "inst"},
                            {{"1,215,000,000.50", "12,345", "4.0e-05"}, {"999", "-1,000", "0"}}), "ncu.csv");
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_DOUBLE_EQ(p.kernels[0].metrics.at(kNcuDuration), 1215000000.5);
  EXPECT_DOUBLE_EQ(p.kernels[0].metrics.at(kNcuInstructionsExecuted), 12345.0);
  EXPECT_DOUBLE_EQ(p.kernels[0].metrics.at(kLongScoreboard), 4e-5);
  EXPECT_DOUBLE_EQ(p.kernels[1].metrics.at(kNcuDuration), 999.0);
  EXPECT_DOUBLE_EQ(p.kernels[1].metrics.at(kNcuInstructionsExecuted), -1000.0);
}

TEST(NcuCsv, ScaledUnitsBecomeNanosecondsAndInstructions) {
  const NcuProfile p =
      parse_ncu_csv(raw_csv({kNcuDuration, kNcuInstructionsExecuted}, {"usecond", "Minst"}, {{"12.5", "6.42"}}), "ncu.csv");
  EXPECT_DOUBLE_EQ(p.kernels[0].metrics.at(kNcuDuration), 12500.0);
  EXPECT_EQ(p.kernels[0].units.at(kNcuDuration), "nsecond");
  EXPECT_DOUBLE_EQ(p.kernels[0].metrics.at(kNcuInstructionsExecuted), 6420000.0);
  EXPECT_EQ(p.kernels[0].units.at(kNcuInstructionsExecuted), "inst");
  EXPECT_DOUBLE_EQ(parse_ncu_csv(raw_csv({kNcuDuration}, {"msecond"}, {{"1.5"}}), "ncu.csv").kernels[0].metrics.at(kNcuDuration),
                   1.5e6);
}

TEST(NcuCsv, AbsentMetricsAreLeftOut) {
  const NcuProfile p =
      parse_ncu_csv(raw_csv({kNcuDuration, kNcuDramThroughput, "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
                            {"nsecond", "%", "%"}, {{"1,000", "n/a", "55.0"}, {"2,000", "", "x"}}), "ncu.csv");
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[0].metrics.count(kNcuDramThroughput), 0u) << "\"n/a\"";
  EXPECT_EQ(p.kernels[1].metrics.count(kNcuDramThroughput), 0u) << "empty";
  EXPECT_EQ(p.kernels[0].metrics.count(kNcuAchievedOccupancy), 0u) << "no column";
  EXPECT_EQ(p.kernels[0].metrics.count("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 0u)
      << "a metric outside the set is not read (its \"x\" is no error)";
  EXPECT_EQ(p.kernels[0].metrics.size(), 1u);
}

TEST(NcuCsv, ProfilerLinesAnywhereCrLfAndUnquotedFields) {
  const std::string text =
      "==PROF== Connected to process 1 (bench)\r\n"
      "ID,Process ID,Kernel Name,gpu__time_duration.sum\r\n"
      "==WARNING== something ncu wanted to say\r\n"
      ",,,nsecond\r\n"
      "\r\n"
      "0,1,\"say \"\"hi\"\"\",\"1,500\"\r\n"
      "==PROF== Disconnected from process 1\r\n";
  const NcuProfile p = parse_ncu_csv(text, "ncu.csv");
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].kernel_name, "say \"hi\"");
  EXPECT_EQ(p.kernels[0].block_size, "") << "no such column";
  EXPECT_DOUBLE_EQ(p.kernels[0].metrics.at(kNcuDuration), 1500.0);
}

TEST(NcuCsv, BadFixturesSayWhatIsWrong) {
  expect_words(parse_error(read_fixture_text("ncu_bad_no_header.csv")),
               {"ncu.csv: ncu csv: ", "no header row", "--csv --page raw"});
  expect_words(parse_error(read_fixture_text("ncu_bad_field_count.csv")),
               {"ncu csv: ", "line 10 has 36 fields, the header (line 7) has 37"});
  expect_words(parse_error(read_fixture_text("ncu_bad_value.csv")),
               {"ncu csv: ", "line 10, sm__warps_active.avg.pct_of_peak_sustained_active: \"12,48\" is not a number"});
}

TEST(NcuCsv, OtherDefectsSayWhatIsWrong) {
  expect_words(parse_error(""), {"ncu csv: no header row"});
  expect_words(parse_error(raw_csv({kNcuDuration}, {"nsecond"}, {{"fast"}})),
               {"line 3, gpu__time_duration.sum: \"fast\" is not a number"});
  expect_words(parse_error(raw_csv({kNcuDuration}, {"nsecond"}, {{"1.2.3"}})), {"\"1.2.3\" is not a number"});
  expect_words(parse_error(raw_csv({kNcuDuration}, {"nsecond"}, {{"12,34"}})), {"\"12,34\" is not a number"});
  expect_words(parse_error(raw_csv({kNcuDuration}, {"nsecond"}, {{"1234,567"}})), {"\"1234,567\" is not a number"});
  expect_words(parse_error(raw_csv({kNcuDuration}, {"nsecond"}, {{"inf"}})), {"\"inf\" is not a number"});
  expect_words(parse_error(raw_csv({kNcuDuration}, {"nsecond"}, {})), {"no kernel row under the header (line 1)"});
  expect_words(parse_error(raw_csv({kNcuDuration}, {"cycle"}, {{"1"}})),
               {"line 2, gpu__time_duration.sum: unit \"cycle\" is not a time"});
  expect_words(parse_error("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"1\"\n"),
               {"line 2 is a kernel row, not the units row"});
  expect_words(parse_error("\"ID\",\"Kernel Name\"\n"), {"no units row under the header (line 1)"});
  expect_words(parse_error("\"ID\",\"Kernel Name\"\n\"\",\"\"\n\"0\",\"k(int\n"),
               {"line 3 has a quoted field that is not closed"});
  expect_words(parse_error("\"ID\",\"Process ID\"\n"), {"line 1: the header has no \"Kernel Name\" column"});
  expect_words(
      parse_error("\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"),
      {"line 1 is the header of ncu's details page", "--page raw"});
}

TEST(NcuProfileJson, RoundTrip) {
  const NcuProfile before = fixture("ncu_before.csv");
  const nlohmann::json doc = before;
  EXPECT_EQ(doc["kernels"][0]["metrics"]["gpu__time_duration.sum"]["unit"], "nsecond") << "units beside values";
  EXPECT_EQ(doc["kernels"][0]["metrics"]["gpu__time_duration.sum"]["value"], 38912.0);
  const NcuProfile back = nlohmann::json::parse(doc.dump()).get<NcuProfile>();
  ASSERT_EQ(back.kernels.size(), before.kernels.size());
  for (std::size_t i = 0; i < back.kernels.size(); ++i) {
    EXPECT_EQ(back.kernels[i].kernel_name, before.kernels[i].kernel_name);
    EXPECT_EQ(back.kernels[i].block_size, before.kernels[i].block_size);
    EXPECT_EQ(back.kernels[i].grid_size, before.kernels[i].grid_size);
    EXPECT_EQ(back.kernels[i].metrics, before.kernels[i].metrics) << "doubles survive the text";
    EXPECT_EQ(back.kernels[i].units, before.kernels[i].units);
  }
}

TEST(NcuProfileJson, BadDocumentsSayWhatIsWrong) {
  const auto error = [](const char* text) {
    try {
      formats::parse_json_document(text, "p.json").get<NcuProfile>();
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  expect_words(error(R"([])"), {"ncu profile json: the top level is an array, expected an object"});
  expect_words(error(R"({})"), {"ncu profile json: kernels is missing - record the profiles again"});
  expect_words(error(R"({"kernels": [{"kernel_name": 1}]})"), {"kernels[0].kernel_name is a number, expected a string"});
  expect_words(error(R"({"kernels": [{"kernel_name": "k", "block_size": "", "grid_size": ""}]})"),
               {"kernels[0].metrics is missing"});
  expect_words(error(R"({"kernels": [{"kernel_name": "k", "block_size": "", "grid_size": "",
                                      "metrics": {"gpu__time_duration.sum": {"value": "12", "unit": "nsecond"}}}]})"),
               {"kernels[0].metrics['gpu__time_duration.sum'].value is a string, expected a number"});
  expect_words(error(R"({"kernels": [{"kernel_name": "k", "block_size": "", "grid_size": "",
                                      "metrics": {"gpu__time_duration.sum": {"value": 12}}}]})"),
               {"kernels[0].metrics['gpu__time_duration.sum'].unit is missing"});
  expect_words(error(R"({"kernels": [{"kernel_name": "k", "block_size": "", "grid_size": "",
                                      "metrics": {"gpu__time_duration.sum": {"value": NaN, "unit": "ns"}}}]})"),
               {"value is NaN, expected a finite number"});
}

TEST(NcuDiff, AggregationRules) {
  NcuProfile before;
  before.kernels = {launch({{kNcuDuration, 1000.0},
                            {kNcuDramThroughput, 40.0},
                            {kNcuAchievedOccupancy, 90.0},
                            {kNcuRegistersPerThread, 32.0},
                            {kNcuSharedBankConflictsLoad, 10.0},
                            {kNcuSharedBankConflictsStore, 5.0},
                            {kNcuInstructionsExecuted, 100.0}}),
                    launch({{kNcuDuration, 3000.0},
                            {kNcuDramThroughput, 80.0},
                            {kNcuAchievedOccupancy, 50.0},
                            {kNcuRegistersPerThread, 64.0},
                            {kNcuSharedBankConflictsLoad, 1.0},
                            {kNcuInstructionsExecuted, 300.0}})};
  NcuProfile after;
  after.kernels = {launch({{kNcuDuration, 5000.0}, {kNcuDramThroughput, 60.0}, {kNcuRegistersPerThread, 40.0}})};
  const std::vector<MetricDiff> rows = diff_profiles(before, after);
  ASSERT_EQ(rows.size(), 6u) << "no L2 throughput in either profile: no row";
  EXPECT_EQ(rows[0].label, "duration");
  EXPECT_EQ(rows[0].unit, "us");
  EXPECT_DOUBLE_EQ(rows[0].before, 4.0) << "sum, in microseconds";
  EXPECT_DOUBLE_EQ(rows[0].after, 5.0);
  EXPECT_EQ(rows[1].label, "DRAM throughput");
  EXPECT_DOUBLE_EQ(rows[1].before, 70.0) << "(40 x 1000 + 80 x 3000) / 4000";
  EXPECT_DOUBLE_EQ(rows[1].after, 60.0);
  EXPECT_EQ(rows[2].label, "achieved occupancy");
  EXPECT_DOUBLE_EQ(rows[2].before, 60.0) << "(90 x 1000 + 50 x 3000) / 4000";
  EXPECT_TRUE(std::isnan(rows[2].after)) << "the after profile has none";
  EXPECT_EQ(rows[3].label, "registers/thread");
  EXPECT_DOUBLE_EQ(rows[3].before, 64.0) << "max";
  EXPECT_EQ(rows[4].label, "shared bank conflicts");
  EXPECT_DOUBLE_EQ(rows[4].before, 16.0) << "loads and stores of both launches";
  EXPECT_TRUE(std::isnan(rows[4].after));
  EXPECT_EQ(rows[5].label, "instructions executed");
  EXPECT_DOUBLE_EQ(rows[5].before, 400.0);
}

TEST(NcuDiff, LaunchWithoutDurationCountsInNoWeightedMean) {
  NcuProfile p;
  p.kernels = {launch({{kNcuDuration, 2000.0}, {kNcuL2Throughput, 30.0}}), launch({{kNcuL2Throughput, 90.0}}),
               launch({{kNcuDuration, 0.0}, {kNcuL2Throughput, 70.0}})};
  const MetricDiff* l2 = row_of(diff_profiles(p, p), "L2 throughput");
  ASSERT_NE(l2, nullptr);
  EXPECT_DOUBLE_EQ(l2->before, 30.0);
}

TEST(NcuDiff, TopThreeStallsByTheLargerSide) {
  const auto stalls = [](std::initializer_list<std::pair<const char*, double>> values) {
    KernelProfile k = launch({{kNcuDuration, 1000.0}});
    for (const auto& [reason, value] : values) k.metrics[ncu_stall_metric(reason)] = value;
    NcuProfile p;
    p.kernels = {k};
    return p;
  };
  const NcuProfile before = stalls({{"long_scoreboard", 5.0},
                                    {"barrier", 1.0},
                                    {"wait", 3.0},
                                    {"drain", 0.5},
                                    {"selected", 9.0},
                                    {"mio_throttle", 3.0}});
  const NcuProfile after =
      stalls({{"long_scoreboard", 4.0}, {"barrier", 10.0}, {"wait", 2.0}, {"drain", 0.5}, {"selected", 9.0}});
  const std::vector<MetricDiff> rows = diff_profiles(before, after);
  ASSERT_EQ(rows.size(), 4u) << "duration and 3 stalls";
  EXPECT_EQ(rows[1].label, "stall: barrier") << "10 after: it rose the most";
  EXPECT_EQ(rows[1].unit, "cycles/issue");
  EXPECT_DOUBLE_EQ(rows[1].before, 1.0);
  EXPECT_DOUBLE_EQ(rows[1].after, 10.0);
  EXPECT_EQ(rows[2].label, "stall: long_scoreboard");
  EXPECT_EQ(rows[3].label, "stall: mio_throttle") << "3 before, a tie with wait broken by name; selected is no stall";
  EXPECT_TRUE(std::isnan(rows[3].after)) << "not in the after profile";
}

TEST(NcuDiff, FewerStallsThanThreeAndNone) {
  NcuProfile p;
  p.kernels = {launch({{kNcuDuration, 1000.0}, {kLongScoreboard, 2.0}})};
  EXPECT_EQ(diff_profiles(p, p).size(), 2u);
  EXPECT_TRUE(diff_profiles(NcuProfile{}, NcuProfile{}).empty());
}

TEST(NcuMarkdown, FormatsAndChanges) {
  const std::vector<MetricDiff> rows = {{"duration", "us", 41.6, 48.096},
                                        {"DRAM throughput", "%", 80.84, 70.0},
                                        {"shared bank conflicts", "conflicts", 0.0, 12.0},
                                        {"instructions executed", "inst", 6423712.0, 6554816.0},
                                        {"stall: long_scoreboard", "cycles/issue", 17.49, std::nan("")}};
  EXPECT_EQ(markdown_diff_table(rows, "baseline", "now | B"),
            "| Metric | baseline | now \\| B | Change |\n"
            "|---|---:|---:|---:|\n"
            "| duration | 41.60 us | 48.10 us | +15.6% |\n"
            "| DRAM throughput | 80.8% | 70.0% | -13.4% |\n"
            "| shared bank conflicts | 0 | 12 | n/a |\n"
            "| instructions executed | 6,423,712 | 6,554,816 | +2.0% |\n"
            "| stall: long_scoreboard | 17.49 | n/a | n/a |\n");
}

// What a SLOW verdict's diagnosis shows: reduce9 before and after a change that raised its registers.
TEST(GoldenReports, NcuDiffMarkdown) {
  const std::vector<MetricDiff> rows = diff_profiles(fixture("ncu_before.csv"), fixture("ncu_after.csv"));
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows[7].label, "stall: long_scoreboard");
  EXPECT_EQ(rows[8].label, "stall: barrier");
  EXPECT_EQ(rows[9].label, "stall: lg_throttle") << "1.35 after, above wait's 1.19 before";
  expect_golden("ncu_diff.md", markdown_diff_table(rows, "baseline", "now"));
}

// Real captures: ncu 2025.3.1 on an H100 80GB HBM3 (driver 580.159.04), `scripts/ncu_diagnose.sh` over
// reduce9 at 2^28 in the build as committed (a) and in one whose launcher caps the grid at 128 blocks (b):
// the raw page with every device attribute, units in base form ("ns"), three kernel launches per run.
TEST(NcuCsv, ReadsARealCaptureOfAnH100) {
  const NcuProfile a = fixture("ncu_h100_reduce9_a.csv");
  ASSERT_EQ(a.kernels.size(), 3u) << "one timed run: the grid-stride pass and two small ones";
  EXPECT_EQ(a.kernels[0].units.at(kNcuDuration), "nsecond") << "\"ns\" as ncu --print-units base writes it";
  EXPECT_DOUBLE_EQ(a.kernels[0].metrics.at(kNcuDuration), 383424.0);
  EXPECT_EQ(a.kernels[0].metrics.size(), ncu_metric_names().size()) << "every metric of the set, by that name";
}

TEST(GoldenReports, NcuDiffOfARealCodeChange) {
  const std::vector<MetricDiff> rows =
      diff_profiles(fixture("ncu_h100_reduce9_a.csv"), fixture("ncu_h100_reduce9_b.csv"));
  ASSERT_GE(rows.size(), 4u);
  EXPECT_EQ(rows[3].label, "achieved occupancy");
  EXPECT_GT(rows[3].before, 90.0);
  EXPECT_LT(rows[3].after, 15.0) << "128 blocks on 132 SMs: the diagnosis is the occupancy";
  expect_golden("ncu_h100_reduce9_diff.md", markdown_diff_table(rows, "build A", "build B"));
}

// The profiles stored beside a baseline: a real capture round-trips and diffs as the CSV it came from; a
// file that is not one is refused with what is wrong.
TEST(NcuBaseline, StoresProfilesByBenchmarkAndReadsThemBack) {
  NcuBaseline stored;
  stored.gpu_slug = "nvidia-h100-80gb-hbm3";
  stored.benchmarks["reduction/reduce9_shfl_down_last_warp/n:268435456"] = fixture("ncu_h100_reduce9_a.csv");
  const std::string text = ncu_baseline_to_text(stored);
  const NcuBaseline read = ncu_baseline_from_text(text, "h.ncu.json");
  EXPECT_EQ(read.gpu_slug, stored.gpu_slug);
  ASSERT_EQ(read.benchmarks.size(), 1u);
  EXPECT_EQ(ncu_baseline_to_text(read), text);
  const std::vector<MetricDiff> from_file =
      diff_profiles(read.benchmarks.begin()->second, fixture("ncu_h100_reduce9_b.csv"));
  EXPECT_EQ(markdown_diff_table(from_file, "baseline", "now"),
            markdown_diff_table(diff_profiles(fixture("ncu_h100_reduce9_a.csv"), fixture("ncu_h100_reduce9_b.csv")),
                                "baseline", "now"));
}

TEST(NcuBaseline, RefusesWhatIsNotOne) {
  const auto error = [](const std::string& text) {
    try {
      ncu_baseline_from_text(text, "h.ncu.json");
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  expect_words(error("{\"schema_version\": 1, \"gp"), {"h.ncu.json", "not valid JSON"});
  expect_words(error(R"({"schema_version": 2, "gpu_slug": "x", "benchmarks": {}})"), {"h.ncu.json: schema_version is 2, this perf_gate reads 1 - record the profiles again with scripts/record_ncu.sh"});
  expect_words(error(R"({"schema_version": 1, "benchmarks": {}})"), {"gpu_slug"});
  expect_words(error(R"({"schema_version": 1, "gpu_slug": "x", "benchmarks": {"f/b": {"kernels": 3}}})"),
               {"benchmarks['f/b'].kernels is a number, expected an array"});
  // Its slug and names reach file paths and reports: held to the names' rule.
  expect_words(error(R"({"schema_version": 1, "gpu_slug": "../../x", "benchmarks": {}})"),
               {"gpu_slug: GPU slug '../../x' does not start with a lower-case letter or digit"});
  expect_words(error(R"({"schema_version": 1, "gpu_slug": "x", "benchmarks": {"f/`<img>`": {}}})"),
               {"benchmarks: benchmark name 'f/`<img>`' has '`' at 2"});
}

}  // namespace
}  // namespace gpuperf::gate
