// perf_gate order-table: the table of scripts/order_check.sh, computed with the gate's results reader and
// median. The fixtures (testdata/order_check/) are 2 rounds of the ways checked, unchecked and reverse.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/analysis/order_table.h"
#include "gate/analysis/order_table_report.h"
#include "gate/cli/cli.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate::analysis {
namespace {

using testing::cli;
using testing::CliRun;
using testing::expect_golden;
using testing::ScratchFolderTest;
using testing::testdata;
using testing::time_samples;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";

OrderRun run_of(const std::string& way, int round, const std::string& name, std::vector<double> samples) {
  OrderRun run{way, round, {}};
  run.results.source = way + ".round" + std::to_string(round) + ".json";
  run.results.benchmarks[name] = time_samples(std::move(samples));
  return run;
}

// Five samples with this median [us].
std::vector<double> around(double median) {
  return {median * 0.99, median * 0.995, median, median * 1.005, median * 1.01};
}

TEST(OrderRunName, WayAndRoundFromTheFileNameAndNothingFromOtherFiles) {
  const std::optional<OrderRunName> name = parse_order_run_name("no_pause.round12.json");
  ASSERT_TRUE(name);
  EXPECT_EQ(name->way, "no_pause");
  EXPECT_EQ(name->round, 12);
  EXPECT_FALSE(parse_order_run_name("checked.round1.json.log"));
  EXPECT_FALSE(parse_order_run_name("order_check.md"));
  EXPECT_FALSE(parse_order_run_name("part0.json"));
  EXPECT_FALSE(parse_order_run_name("a b.round1.json"));
}

TEST(OrderTable, NearestRankPercentile) {
  EXPECT_EQ(nearest_rank_percentile({5, 1, 4, 2, 3}, 0.9), 5);  // index round(4 x 0.9) = 4
  EXPECT_EQ(nearest_rank_percentile({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 0.9), 10);
  EXPECT_TRUE(std::isnan(nearest_rank_percentile({}, 0.9)));
}

// The gate's median: the mean of the two middle values over an even number of rounds (the jq table took
// the upper one, 40.2 here, and called a benchmark 0.25% away that is 0.25% nearer).
TEST(OrderTable, MedianOverRoundsIsTheGatesMedianAndSpreadIsMaxOverMin) {
  const OrderTable table = build_order_table({run_of("checked", 1, kReduce9, around(40.0)),
                                              run_of("checked", 2, kReduce9, around(40.2)),
                                              run_of("unchecked", 1, kReduce9, around(40.1))});
  ASSERT_EQ(table.checked.size(), 1u);
  EXPECT_NEAR(table.checked.at(kReduce9).median, 40.1, 1e-9);
  EXPECT_NEAR(table.checked.at(kReduce9).spread_pct, 0.5, 1e-9);
  ASSERT_EQ(table.ways.size(), 1u);
  EXPECT_NEAR(table.ways[0].rows[0].difference_pct, 0.0, 1e-9);
}

TEST(OrderTable, AProcessWithTooFewValidSamplesGivesNoMedian) {
  const OrderTable table = build_order_table({run_of("checked", 1, kReduce9, around(40.0)),
                                              run_of("reverse", 1, kReduce9, {50.0, 50.0, 50.0, 50.0}),
                                              run_of("reverse", 2, kReduce9, around(40.4))});
  ASSERT_EQ(table.ways.size(), 1u);
  EXPECT_NEAR(table.ways[0].largest.difference_pct, 1.0, 1e-9);
}

TEST(OrderTable, LargestAbsoluteDifferenceKeepsItsSign) {
  OrderRun checked = run_of("checked", 1, "a/x/n:1", around(10.0));
  checked.results.benchmarks["a/y/n:1"] = time_samples(around(10.0));
  OrderRun family = run_of("family", 1, "a/x/n:1", around(10.1));
  family.results.benchmarks["a/y/n:1"] = time_samples(around(9.7));
  const OrderTable table = build_order_table({checked, family});
  EXPECT_EQ(table.ways[0].largest.name, "a/y/n:1");
  EXPECT_NEAR(table.ways[0].largest.difference_pct, -3.0, 1e-9);
  EXPECT_NEAR(table.ways[0].median_abs_pct, 2.0, 1e-9);
}

TEST(OrderTable, WithoutTheCheckedWayThereIsNothingToCompareWith) {
  EXPECT_THROW(build_order_table({run_of("unchecked", 1, kReduce9, around(40.0))}), formats::InputError);
}

TEST(OrderTable, ABenchmarkInCyclesInOneProcessAndMicrosecondsInAnotherIsRefused) {
  OrderRun cycles = run_of("unchecked", 1, kReduce9, around(160));
  cycles.results.benchmarks[kReduce9].unit = formats::kUnitCycles;
  EXPECT_THROW(build_order_table({run_of("checked", 1, kReduce9, around(40.0)), cycles}), formats::InputError);
}

TEST(OrderTableMarkdown, NoBenchmarkBeyondOnePercentSaysSo) {
  const std::string md = order_table_markdown(
      build_order_table({run_of("checked", 1, kReduce9, around(40.0)), run_of("unchecked", 1, kReduce9, around(40.1))}));
  EXPECT_NE(md.find("| unchecked | 1 | 0.25% | 0.25% | +0.25% " + std::string(kReduce9) + " |"), std::string::npos) << md;
  EXPECT_NE(md.find("No benchmark is more than 1% away in any way.\n"), std::string::npos) << md;
}

// The fixtures through the command: the throttled repetition of unchecked round 1 is left out, the
// nanoseconds of reduce1 read as microseconds, the log beside a round ignored.
TEST(GoldenReports, OrderTableMarkdown) {
  const CliRun run = cli({"order-table", "--dir", testdata("order_check")});
  EXPECT_EQ(run.code, formats::kExitPass) << run.err;
  expect_golden("order_check.md", run.out);
}

class OrderTableCli : public ScratchFolderTest {};

TEST_F(OrderTableCli, WritesTheMarkdownFile) {
  const CliRun run = cli({"order-table", "--dir", testdata("order_check"), "--markdown", path("order.md")});
  ASSERT_EQ(run.code, formats::kExitPass) << run.err;
  EXPECT_NE(run.out.find("order table: 6 processes"), std::string::npos) << run.out;
  std::ifstream in(path("order.md"));
  std::ostringstream written;
  written << in.rdbuf();
  EXPECT_EQ(written.str(), cli({"order-table", "--dir", testdata("order_check")}).out);
}

TEST_F(OrderTableCli, BadInputExits2WithWhatIsWrongAndWritesNothing) {
  const struct {
    std::string dir;
    std::string message;
  } cases[] = {
      {path("absent"), "cannot read the folder"},
      {path("empty"), "no <way>.round<r>.json files in"},
      {path("unchecked_only"), "no process of the way 'checked'"},
      {path("corrupt"), "checked.round1.json"},
  };
  std::filesystem::create_directories(path("empty"));
  std::filesystem::create_directories(path("unchecked_only"));
  std::filesystem::copy_file(testdata("order_check/unchecked.round1.json"), path("unchecked_only/unchecked.round1.json"));
  std::filesystem::create_directories(path("corrupt"));
  write("corrupt/checked.round1.json", "{\"benchmarks\": [");
  for (const auto& c : cases) {
    const CliRun run = cli({"order-table", "--dir", c.dir, "--markdown", path("out.md")});
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << c.dir;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << run.err;
    EXPECT_FALSE(std::filesystem::exists(path("out.md"))) << c.dir;
  }
  const CliRun no_dir = cli({"order-table"});
  EXPECT_EQ(no_dir.code, formats::kExitInvalidInput);
  EXPECT_NE(no_dir.err.find("--dir is required"), std::string::npos) << no_dir.err;
}

}  // namespace
}  // namespace gpuperf::gate::analysis
