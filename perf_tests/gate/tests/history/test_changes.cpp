// perf_gate history-changes' analysis (history/changes.h): the change points and the drift of every series
// of a GPU, and the report a default-branch run adds to its job summary (golden files).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gate/history/changes.h"
#include "gate/tests/history/test_change_points_support.h"
#include "gate/tests/support/golden_file.h"

namespace gpuperf::gate::history {
namespace {

using testing::append;
using testing::series_of;
using testing::SeriesMaker;

// Two benchmarks of one GPU: one stepped up 5% at run 20 (each run passed a 4% gate against the run
// before it, the sum did not), one flat; the baseline holds both at their first level.
SeriesExport two_series() {
  std::vector<double> stepped;
  append(stepped, 20, 100.0);
  append(stepped, 12, 105.0);
  Series step = series_of(SeriesMaker(5).values(stepped, 0.002));
  step.benchmark = "reduction/reduce7_many_elements_per_thread/n:268435456";
  Series flat = series_of(SeriesMaker(6).values(std::vector<double>(32, 50.0), 0.002));
  flat.benchmark = "reduction/reduce9_shfl_down_last_warp/n:268435456";
  return export_of("nvidia-h100-80gb-hbm3", {step, flat});
}

Baseline baseline_of_both() {
  Baseline baseline;
  baseline.default_tolerance_pct = 2.0;
  for (const auto& [name, median] : {std::pair<std::string, double>{"reduction/reduce7_many_elements_per_thread/n:268435456", 100.0},
                                     {"reduction/reduce9_shfl_down_last_warp/n:268435456", 50.0}}) {
    BaselineEntry entry;
    entry.median = median;
    entry.process_medians = {median};
    entry.unit = "us";
    baseline.benchmarks[name] = entry;
  }
  return baseline;
}

TEST(HistoryChanges, AStepIsAChangePointAndADriftBeyondTheTolerance) {
  SeriesExport document = two_series();
  add_changes(document, baseline_of_both(), {});
  const ExportedSeries& step = document.series[0];
  ASSERT_EQ(step.change_points.size(), 1u);
  EXPECT_EQ(step.change_points[0].index, 20u);
  EXPECT_EQ(step.change_points[0].good_commit, "c19");
  EXPECT_EQ(step.change_points[0].bad_commit, "c20");
  EXPECT_NEAR(step.change_points[0].change_pct, 5.0, 0.5);
  ASSERT_TRUE(step.drift);
  EXPECT_TRUE(step.drift->beyond_tolerance);
  EXPECT_EQ(step.drift->good_commit, "c19");
  EXPECT_EQ(step.drift->bad_commit, "c20");
  const ExportedSeries& flat = document.series[1];
  EXPECT_TRUE(flat.change_points.empty());
  ASSERT_TRUE(flat.drift);
  EXPECT_FALSE(flat.drift->beyond_tolerance);
  // The export holds them, and reads back as written.
  const std::string text = series_json(document);
  EXPECT_EQ(series_json(read_series_json(text, "changes.json")), text);
}

TEST(HistoryChanges, WithoutABaselineNoDriftIsJudged) {
  SeriesExport document = two_series();
  add_changes(document, std::nullopt, {});
  EXPECT_EQ(document.series[0].change_points.size(), 1u);
  EXPECT_FALSE(document.series[0].drift);
  EXPECT_FALSE(document.series[1].drift);
}

TEST(HistoryChanges, TooShortASeriesHasNoChangePoint) {
  std::vector<double> values;
  append(values, 4, 100.0);
  append(values, 4, 120.0);
  SeriesExport document = export_of("nvidia-h200", {series_of(values)});
  add_changes(document, std::nullopt, {});  // 8 points < 2 x 5
  EXPECT_TRUE(document.series[0].change_points.empty());
  EXPECT_EQ(changes_console(document), "no change point and no drift in 1 series\n");
}

TEST(HistoryChanges, ReportsSayWhatMovedAndHowToBisectIt) {
  SeriesExport document = two_series();
  add_changes(document, baseline_of_both(), {});
  gate::testing::expect_golden("history_changes.txt", changes_console(document));
  gate::testing::expect_golden("history_changes.md", changes_markdown(document));
}

}  // namespace
}  // namespace gpuperf::gate::history
