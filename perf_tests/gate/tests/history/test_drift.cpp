// Drift from the baseline over the history (history/drift.h): merged changes that each passed the gate,
// the span since the baseline and its runs' verdicts, the range it built up over, faster drift, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/history/change_points.h"
#include "gate/history/drift.h"
#include "gate/tests/history/test_change_points_support.h"

namespace gpuperf::gate::history {
namespace {

using testing::append;
using testing::flat;
using testing::kNoiseSd;
using testing::series_of;
using testing::SeriesMaker;

Drift drift_of(const Series& series, double baseline_value, double tolerance_pct) {
  std::vector<double> values;
  for (const SeriesPoint& p : series.points) values.push_back(p.value);
  return find_drift(series, find_change_points(values, {}), baseline_value, tolerance_pct);
}

// Five merged changes of 1.5% each (at points 20, 40, .., 100): each passed a 2% gate; together 7.7%.
TEST(Drift, FiveSmallMergedChangesAddUpBeyondTheTolerance) {
  std::vector<double> levels;
  double level = 100.0;
  for (int step = 0; step < 6; ++step, level *= 1.015) append(levels, 20, level);
  const Drift drift = drift_of(series_of(SeriesMaker(11).values(levels, kNoiseSd)), 100.0, 2.0);
  EXPECT_TRUE(drift.beyond_tolerance);
  EXPECT_NEAR(drift.change_pct, 100.0 * (std::pow(1.015, 5) - 1.0), 0.4);
  EXPECT_NEAR(drift.latest_value, 100.0 * std::pow(1.015, 5), 0.4);
  EXPECT_EQ(drift.latest_points, 20u);
  EXPECT_EQ(drift.change_points_since, 5u);
  EXPECT_EQ(drift.baseline_value, 100.0);
  EXPECT_EQ(drift.tolerance_pct, 2.0);
  EXPECT_EQ(drift.since, "2026-11-01T00:00:00Z");
  // From the first change's good commit to the last change's bad commit.
  EXPECT_EQ(drift.good_commit, "c19");
  EXPECT_EQ(drift.bad_commit, "c100");
  EXPECT_EQ(drift.good_index, 19u);
  EXPECT_EQ(drift.bad_index, 100u);
}

TEST(Drift, AFlatSeriesAtTheBaselineHasNotDrifted) {
  const Drift drift = drift_of(series_of(SeriesMaker(12).values(flat(80, 100.0), kNoiseSd)), 100.0, 2.0);
  EXPECT_FALSE(drift.beyond_tolerance);
  EXPECT_NEAR(drift.change_pct, 0.0, 0.2);
  EXPECT_EQ(drift.change_points_since, 0u);
  EXPECT_EQ(drift.latest_points, 80u);
  EXPECT_EQ(drift.good_commit, "c0");  // no change point: the whole span
  EXPECT_EQ(drift.bad_commit, "c79");
}

// A series recorded on another level than its baseline (another machine): the drift is there, with no
// change point to say where, so the range is the whole span since the baseline.
TEST(Drift, ALevelOffTheBaselineWithoutAChangeSpansTheWholeSeries) {
  const Drift drift = drift_of(series_of(SeriesMaker(13).values(flat(60, 103.0), kNoiseSd)), 100.0, 2.0);
  EXPECT_TRUE(drift.beyond_tolerance);
  EXPECT_NEAR(drift.change_pct, 3.0, 0.3);
  EXPECT_EQ(drift.good_index, 0u);
  EXPECT_EQ(drift.bad_index, 59u);
}

TEST(Drift, FasterBeyondTheToleranceCountsToo) {
  std::vector<double> levels = flat(40, 100.0);
  append(levels, 40, 96.5);
  const Drift drift = drift_of(series_of(SeriesMaker(14).values(levels, kNoiseSd)), 100.0, 2.0);
  EXPECT_TRUE(drift.beyond_tolerance);
  EXPECT_NEAR(drift.change_pct, -3.5, 0.3);
  EXPECT_EQ(drift.good_commit, "c39");
  EXPECT_EQ(drift.bad_commit, "c40");
}

// Within the tolerance: drifted, but not beyond it.
TEST(Drift, AChangeWithinTheToleranceIsNotBeyondIt) {
  std::vector<double> levels = flat(40, 100.0);
  append(levels, 40, 101.5);
  const Drift drift = drift_of(series_of(SeriesMaker(15).values(levels, kNoiseSd)), 100.0, 2.0);
  EXPECT_FALSE(drift.beyond_tolerance);
  EXPECT_NEAR(drift.change_pct, 1.5, 0.3);
  EXPECT_EQ(drift.change_points_since, 1u);
}

// The baseline was re-recorded at point 50: the step at 25 was before it and is not its drift.
TEST(Drift, OnlyChangesSinceTheBaselineTheLatestRunWasJudgedAgainstCount) {
  std::vector<double> levels = flat(25, 100.0);
  append(levels, 55, 104.0);
  append(levels, 20, 106.08);
  Series series = series_of(SeriesMaker(16).values(levels, kNoiseSd), "2026-10-01T00:00:00Z");
  for (std::size_t i = 50; i < series.points.size(); ++i) series.points[i].baseline_recorded = "2026-11-01T00:00:00Z";
  const Drift drift = drift_of(series, 104.0, 2.0);
  EXPECT_EQ(drift.since, "2026-11-01T00:00:00Z");
  EXPECT_EQ(drift.change_points_since, 1u);
  EXPECT_EQ(drift.good_commit, "c79");
  EXPECT_EQ(drift.bad_commit, "c80");
  EXPECT_NEAR(drift.change_pct, 2.0, 0.3);
}

// The runs judged against the latest baseline are counted by their verdicts: a drift is found over runs
// judged SLOW as well as over runs that passed, and the report says which.
TEST(Drift, TheVerdictsOfTheRunsSinceTheBaselineAreCounted) {
  std::vector<double> levels = flat(50, 100.0);
  append(levels, 30, 103.0);
  Series series = series_of(SeriesMaker(18).values(levels, kNoiseSd), "2026-10-01T00:00:00Z");
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    if (i >= 20) series.points[i].baseline_recorded = "2026-11-01T00:00:00Z";
    series.points[i].verdict = i < 60 ? "SAME" : (i < 78 ? "SLOW" : "");
  }
  const Drift drift = drift_of(series, 100.0, 2.0);
  EXPECT_TRUE(drift.beyond_tolerance);
  EXPECT_EQ(drift.runs_since, 60u);
  EXPECT_EQ(drift.verdicts_since, (std::map<std::string, std::size_t>{{"SAME", 40}, {"SLOW", 18}, {"", 2}}));
}

// +1% per commit over commits 40..44: the drift's range is the change point's, which covers the whole
// ramp (in little noise here: in typical noise its first commit is sometimes taken as the level before,
// tests/history/test_history_simulation.cpp measures how often).
TEST(Drift, ARampsRangeCoversEveryCommitOfIt) {
  std::vector<double> levels = flat(40, 100.0);
  for (int k = 1; k <= 5; ++k) levels.push_back(100.0 * (1.0 + 0.01 * k));
  append(levels, 35, 105.0);
  const Drift drift = drift_of(series_of(SeriesMaker(17).values(levels, 0.001)), 100.0, 2.0);
  EXPECT_TRUE(drift.beyond_tolerance);
  EXPECT_LE(drift.good_index, 39u);
  EXPECT_GE(drift.bad_index, 44u);
}

std::string error_of(const Series& series, const std::vector<ChangePoint>& change_points, double baseline,
                     double tolerance) {
  try {
    find_drift(series, change_points, baseline, tolerance);
  } catch (const formats::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Drift, BadInputIsRejectedSayingWhatIsWrong) {
  const Series series = series_of(flat(20, 100.0));
  EXPECT_NE(error_of(series_of({}), {}, 100.0, 2.0).find("no points"), std::string::npos);
  EXPECT_NE(error_of(series, {}, 0.0, 2.0).find("baseline's value"), std::string::npos);
  EXPECT_NE(error_of(series, {}, std::numeric_limits<double>::quiet_NaN(), 2.0).find("baseline's value"),
            std::string::npos);
  EXPECT_NE(error_of(series, {}, 100.0, -1.0).find("tolerance"), std::string::npos);
  ChangePoint outside;
  outside.index = 20;
  outside.bad_index = 20;
  EXPECT_NE(error_of(series, {outside}, 100.0, 2.0).find("outside the series of 20 points"), std::string::npos);
  EXPECT_EQ(error_of(series, {}, 100.0, 2.0), "");
}

}  // namespace
}  // namespace gpuperf::gate::history
