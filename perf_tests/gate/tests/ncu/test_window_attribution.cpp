// One ncu pass over many benchmarks split into each benchmark's profile (ncu/window_attribution.h): rows in
// the order that the windows ran pass; a row missing, added, renamed or of another grid is an error naming
// the benchmark, and where it loses the order of the rows after it, an error for the whole pass.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/fingerprint.h"
#include "gate/ncu/window_attribution.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::expect_words;

ExpectedLaunch launch(const std::string& name, int grid_x) { return {name, {grid_x, 1, 1}, {256, 1, 1}}; }

KernelProfile row(const ExpectedLaunch& launch, double duration_ns = 1000.0) {
  KernelProfile kernel;
  kernel.kernel_name = launch.mangled_name;
  kernel.grid_size = dimensions_text(launch.grid);
  kernel.block_size = dimensions_text(launch.block);
  kernel.metrics[kNcuDuration] = duration_ns;
  kernel.units[kNcuDuration] = "nsecond";
  return kernel;
}

// Three benchmarks as the suite has them: two shapes of one variant (the same kernel, other grids) and a
// two-kernel one.
const std::vector<Window> kWindows = {
    {"f/v/n:1", {launch("_Z4passPi", 8)}},
    {"f/v/n:2", {launch("_Z4passPi", 16)}},
    {"f/two/n:1", {launch("_Z4passPi", 8), launch("_Z6finishPi", 1)}},
};

// The rows ncu prints for kWindows, each launch's duration its position [ns] to tell them apart.
NcuProfile rows_of(const std::vector<Window>& windows) {
  NcuProfile rows;
  for (const Window& window : windows) {
    for (const ExpectedLaunch& l : window.launches) rows.kernels.push_back(row(l, rows.kernels.size() + 1.0));
  }
  return rows;
}

std::string attribution_error(const NcuProfile& rows, const std::vector<Window>& windows = kWindows) {
  return testing::input_error_of([&] { attribute_windows(rows, windows, "pass.csv"); });
}

TEST(WindowAttribution, RowsInTheOrderTheWindowsRanAreEachBenchmarksProfile) {
  const WindowAttribution split = attribute_windows(rows_of(kWindows), kWindows, "pass.csv");
  EXPECT_TRUE(split.left_out.empty());
  ASSERT_EQ(split.profiles.size(), 3u);
  ASSERT_EQ(split.profiles.at("f/v/n:2").kernels.size(), 1u);
  EXPECT_EQ(split.profiles.at("f/v/n:2").kernels[0].metrics.at(kNcuDuration), 2.0) << "its own row, the second";
  ASSERT_EQ(split.profiles.at("f/two/n:1").kernels.size(), 2u);
  EXPECT_EQ(split.profiles.at("f/two/n:1").kernels[1].kernel_name, "_Z6finishPi");
}

TEST(WindowAttribution, AnotherOrderIsRefusedThoughTheNamesMatch) {
  // The two shapes ran the other way round: the same kernel, so only the grid tells them apart.
  const std::vector<Window> swapped = {kWindows[1], kWindows[0], kWindows[2]};
  const WindowAttribution split = attribute_windows(rows_of(swapped), kWindows, "pass.csv");
  EXPECT_TRUE(split.profiles.count("f/v/n:1") == 0 && split.profiles.count("f/v/n:2") == 0);
  ASSERT_EQ(split.left_out.size(), 2u);
  expect_words(split.left_out[0].reason, {"launch 1 of 1 is _Z4passPi <<<(8, 1, 1), (256, 1, 1)>>> by its fingerprint",
                                          "ncu's row 1 is _Z4passPi <<<(16, 1, 1), (256, 1, 1)>>>"});
  EXPECT_EQ(split.profiles.size(), 1u) << "the third's rows are its own";
}

TEST(WindowAttribution, ARenamedKernelLeavesOutItsBenchmarkAlone) {
  NcuProfile rows = rows_of(kWindows);
  rows.kernels[3].kernel_name = "_Z7finish2Pi";
  const WindowAttribution split = attribute_windows(rows, kWindows, "pass.csv");
  EXPECT_EQ(split.profiles.size(), 2u);
  ASSERT_EQ(split.left_out.size(), 1u);
  EXPECT_EQ(split.left_out[0].benchmark, "f/two/n:1");
  expect_words(split.left_out[0].reason, {"its rows are not its fingerprint's launches: launch 2 of 2 is _Z6finishPi",
                                          "ncu's row 4 is _Z7finish2Pi"});
}

TEST(WindowAttribution, AMissingRowInsideThePassLosesTheOrder) {
  NcuProfile rows = rows_of(kWindows);
  rows.kernels.erase(rows.kernels.begin());  // n:1's row: every later row moves up by one
  expect_words(attribution_error(rows),
               {"pass.csv: the rows of f/v/n:1 are not its fingerprint's", "(3 rows for the 4 launches of 3 windows)",
                "no row after it can be attributed", "nothing is stored from this pass"});
}

TEST(WindowAttribution, AnExtraRowLosesTheOrder) {
  NcuProfile rows = rows_of(kWindows);
  rows.kernels.insert(rows.kernels.begin() + 1, row(launch("_Z5extraPi", 1)));
  expect_words(attribution_error(rows), {"the rows of f/v/n:2 are not its fingerprint's", "ncu's row 2 is _Z5extraPi"});
  NcuProfile trailing = rows_of(kWindows);
  trailing.kernels.push_back(row(launch("_Z6finishPi", 1)));
  expect_words(attribution_error(trailing), {"1 rows after the last window's (f/two/n:1)", "(5 rows for the 4 launches"});
}

TEST(WindowAttribution, RowsThatEndEarlyKeepTheBenchmarksBefore) {
  NcuProfile rows = rows_of(kWindows);
  rows.kernels.pop_back();  // ncu stopped within the last window
  WindowAttribution split = attribute_windows(rows, kWindows, "pass.csv");
  EXPECT_EQ(split.profiles.size(), 2u);
  ASSERT_EQ(split.left_out.size(), 1u);
  expect_words(split.left_out[0].reason, {"ncu printed 1 of its 2 launches"});
  rows.kernels.resize(1);  // ... or right after the first
  split = attribute_windows(rows, kWindows, "pass.csv");
  EXPECT_EQ(split.profiles.size(), 1u);
  ASSERT_EQ(split.left_out.size(), 2u);
  EXPECT_EQ(split.left_out[1].benchmark, "f/two/n:1");
  expect_words(split.left_out[0].reason, {"ncu printed no row of its window"});
  // Rows that end early with the wrong kernel are no clean stop: the order is lost.
  rows.kernels[0] = row(launch("_Z6finishPi", 1));
  expect_words(attribution_error(rows), {"the rows of f/v/n:1 are not its fingerprint's"});
}

TEST(WindowAttribution, AWindowWithoutLaunchesCannotBeCounted) {
  const std::vector<Window> windows = {kWindows[0], {"f/none/n:1", {}}};
  expect_words(attribution_error(rows_of(kWindows), windows), {"f/none/n:1 has no captured fingerprint"});
}

TEST(WindowAttribution, ExpectedLaunchesExpandMergedEntriesInOrder) {
  formats::Fingerprint fingerprint;
  fingerprint.capture_status = formats::kCapturedByCupti;
  formats::KernelLaunch a;
  a.mangled_name = "_Z1av";
  a.grid = {4, 2, 1};
  a.launches = 2;
  formats::KernelLaunch b = a;
  b.mangled_name = "_Z1bv";
  b.launches = 1;
  fingerprint.kernels = {a, b, a};
  const std::vector<ExpectedLaunch> launches = expected_launches(fingerprint);
  ASSERT_EQ(launches.size(), 5u);
  EXPECT_EQ(launches[2].mangled_name, "_Z1bv");
  EXPECT_EQ(launches[4].grid, (std::array<int, 3>{4, 2, 1}));
  fingerprint.capture_status = "off: no CUPTI";
  EXPECT_TRUE(expected_launches(fingerprint).empty()) << "a fingerprint not captured counts nothing";
}

TEST(WindowAttribution, LaunchDimensionsAreReadLeniently) {
  NcuProfile rows = rows_of({kWindows[0]});
  rows.kernels[0].grid_size = "8,1,1";
  EXPECT_EQ(attribute_windows(rows, {kWindows[0]}, "pass.csv").profiles.size(), 1u);
  rows.kernels[0].grid_size = "(8, 1)";
  EXPECT_EQ(attribute_windows(rows, {kWindows[0]}, "pass.csv").left_out.size(), 1u) << "two numbers are no grid";
}

TEST(WindowOrder, OneNameALine) {
  EXPECT_EQ(parse_window_order("f/v/n:1\n\nf/v/n:2\r\n", "order.txt"),
            (std::vector<std::string>{"f/v/n:1", "f/v/n:2"}));
  expect_words(testing::input_error_of([] { parse_window_order("f/v/n:1\nf/v/n:1\n", "order.txt"); }),
               {"order.txt: line 2: f/v/n:1 is named twice"});
  expect_words(testing::input_error_of([] { parse_window_order("f/`x`\n", "order.txt"); }),
               {"order.txt: line 1: benchmark name 'f/`x`' has '`'"});
}

}  // namespace
}  // namespace gpuperf::gate
