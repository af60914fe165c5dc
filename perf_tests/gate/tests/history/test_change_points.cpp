// Change points of a series (history/change_points.h): none in noise, steps at their index with their
// p-value, small effects dropped, a ramp's range, a fresh step's range, series of many windows, short
// series, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "gate/history/change_points.h"
#include "gate/history/change_points_runners.h"
#include "gate/tests/history/test_change_points_support.h"

namespace gpuperf::gate::history {
namespace {

using testing::append;
using testing::flat;
using testing::kNoiseSd;
using testing::series_of;
using testing::SeriesMaker;

TEST(ChangePoints, AFlatNoisySeriesHasNone) {
  SeriesMaker maker(1);
  const ChangePointOptions options;
  for (int s = 0; s < 5; ++s) {
    EXPECT_TRUE(find_change_points(maker.values(flat(100, 250.0), kNoiseSd), options).empty()) << "series " << s;
  }
}

TEST(ChangePoints, OneFivePercentStepIsFoundAtItsIndexWithItsSize) {
  std::vector<double> levels = flat(60, 100.0);
  append(levels, 40, 105.0);
  const ChangePointOptions options;
  const std::vector<ChangePoint> found = find_change_points(SeriesMaker(2).values(levels, kNoiseSd), options);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 60u);
  EXPECT_EQ(found[0].good_index, 59u);
  EXPECT_EQ(found[0].bad_index, 60u);
  EXPECT_LE(found[0].p_value, options.alpha);
  EXPECT_NEAR(found[0].before, 100.0, 0.3);
  EXPECT_NEAR(found[0].after, 105.0, 0.3);
  EXPECT_NEAR(found[0].change_pct, 5.0, 0.4);
}

TEST(ChangePoints, AFasterStepHasANegativeChange) {
  std::vector<double> levels = flat(50, 100.0);
  append(levels, 50, 96.0);
  const std::vector<ChangePoint> found = find_change_points(SeriesMaker(3).values(levels, kNoiseSd), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 50u);
  EXPECT_NEAR(found[0].change_pct, -4.0, 0.4);
}

TEST(ChangePoints, TwoStepsAreBothFound) {
  std::vector<double> levels = flat(30, 100.0);
  append(levels, 40, 103.0);
  append(levels, 30, 107.12);
  const std::vector<ChangePoint> found = find_change_points(SeriesMaker(4).values(levels, kNoiseSd), {});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].index, 30u);
  EXPECT_EQ(found[1].index, 70u);
  EXPECT_NEAR(found[0].change_pct, 3.0, 0.4);
  EXPECT_NEAR(found[1].change_pct, 4.0, 0.4);
}

// Five merged changes of 1.5% each: every one passes a 2% gate, each is a change point.
TEST(ChangePoints, FiveStepsOfOneAndAHalfPercentAreEachFound) {
  std::vector<double> levels;
  double level = 100.0;
  for (int step = 0; step < 6; ++step, level *= 1.015) append(levels, 20, level);
  const std::vector<ChangePoint> found = find_change_points(SeriesMaker(5).values(levels, kNoiseSd), {});
  ASSERT_EQ(found.size(), 5u);
  for (std::size_t i = 0; i < found.size(); ++i) {
    EXPECT_NEAR(static_cast<double>(found[i].index), 20.0 * static_cast<double>(i + 1), 1.0) << i;
    EXPECT_NEAR(found[i].change_pct, 1.5, 0.4) << i;
  }
}

// A 0.5% step in little noise is significant, but under the minimum effect of 1%: not reported.
TEST(ChangePoints, AStepUnderTheMinimumEffectIsNotReported) {
  std::vector<double> levels = flat(50, 100.0);
  append(levels, 50, 100.5);
  const std::vector<double> values = SeriesMaker(6).values(levels, 0.0005);
  EXPECT_TRUE(find_change_points(values, {}).empty());
  ChangePointOptions smaller;
  smaller.min_effect_pct = 0.25;
  const std::vector<ChangePoint> found = find_change_points(values, smaller);
  ASSERT_EQ(found.size(), 1u);  // it is there: the minimum effect alone hid it
  EXPECT_EQ(found[0].index, 50u);
}

// +1% per commit over 5 commits (points 40..44), then the new level: one change point inside the ramp,
// its good..bad range covering every commit of it.
TEST(ChangePoints, ARampIsOneChangePointWhoseRangeCoversIt) {
  std::vector<double> levels = flat(40, 100.0);
  for (int k = 1; k <= 5; ++k) levels.push_back(100.0 * (1.0 + 0.01 * k));
  append(levels, 55, 105.0);
  const std::vector<ChangePoint> found = find_change_points(SeriesMaker(7).values(levels, kNoiseSd), {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_GE(found[0].index, 40u);
  EXPECT_LE(found[0].index, 44u);
  EXPECT_LE(found[0].good_index, 39u);  // the last point before the ramp, or earlier
  EXPECT_GE(found[0].bad_index, 44u);   // the ramp's last point, or later
  EXPECT_GE(found[0].good_index, 37u);  // not much wider than the ramp
  EXPECT_LE(found[0].bad_index, 46u);
  EXPECT_NEAR(found[0].change_pct, 5.0, 0.6);
}

// A step at run k, analysed after each new run, k + 1 to k + 10 (as the default-branch job analyses the
// history after each push): whenever the step is reported, its range holds the step's commit, so the
// bisection it prints can find it. Before the fix, after runs k + 2 and k + 3 the split was held 5 runs
// from the end (min_segment) and reported between two commits still at the old level.
TEST(ChangePoints, AFreshStepsRangeHoldsItsCommitAfterEveryNewRun) {
  constexpr std::size_t k = 60;
  int analyses = 0;
  int reported = 0;
  for (const double step : {0.02, 0.03, 0.05}) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      std::vector<double> levels = flat(k, 100.0);
      append(levels, 10, 100.0 * (1.0 + step));
      const std::vector<double> values = SeriesMaker(1000 + seed).values(levels, kNoiseSd);
      for (std::size_t n = k + 2; n <= k + 11; ++n) {  // after run k + 1 .. k + 10
        const std::vector<ChangePoint> found =
            find_change_points(std::vector<double>(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n)), {});
        ++analyses;
        for (const ChangePoint& cp : found) {
          ++reported;
          EXPECT_LT(cp.good_index, k) << "step " << step << " seed " << seed << " after run " << n - 1;
          EXPECT_GE(cp.bad_index, k) << "step " << step << " seed " << seed << " after run " << n - 1;
        }
      }
      // Once 10 runs follow it, it is found at its index, its range a few commits around it.
      const std::vector<ChangePoint> settled = find_change_points(values, {});
      ASSERT_EQ(settled.size(), 1u) << "step " << step << " seed " << seed;
      EXPECT_EQ(settled[0].index, k);
      EXPECT_LE(settled[0].bad_index - settled[0].good_index, 4u) << "step " << step << " seed " << seed;
    }
  }
  EXPECT_GT(reported, analyses / 2) << "most analyses report the step: the ranges above were checked";
}

// A series longer than one search window (ChangePointOptions::window): steps anywhere, near the windows'
// ends included, are found at their index, and nothing else is.
TEST(ChangePoints, StepsInASeriesOfManyWindowsAreEachFoundOnce) {
  ChangePointOptions options;
  options.window = 200;
  const std::vector<std::size_t> steps = {150, 199, 260, 420, 575, 590, 900};
  std::vector<double> levels;
  double level = 100.0;
  for (std::size_t i = 0; i < 1000; ++i) {
    for (std::size_t at : steps) level *= i == at ? 1.03 : 1.0;
    levels.push_back(level);
  }
  const std::vector<ChangePoint> found = find_change_points(SeriesMaker(21).values(levels, kNoiseSd), options);
  ASSERT_EQ(found.size(), steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(found[i].index, steps[i]) << i;
    EXPECT_NEAR(found[i].change_pct, 3.0, 0.4) << i;
  }
}

// Runs added to a long series change only its last windows: the change points of the runs before stay
// as they were, p-values included (the previous analysis' report still names them).
TEST(ChangePoints, ChangePointsOfEarlierRunsStayAsRunsAreAdded) {
  ChangePointOptions options;
  options.window = 200;
  std::vector<double> levels = flat(300, 100.0);
  append(levels, 300, 102.5);
  append(levels, 300, 99.0);
  const std::vector<double> values = SeriesMaker(22).values(levels, 0.006);
  const std::vector<ChangePoint> before =
      find_change_points(std::vector<double>(values.begin(), values.begin() + 800), options);
  const std::vector<ChangePoint> after = find_change_points(values, options);
  ASSERT_GE(before.size(), 2u);
  ASSERT_GE(after.size(), before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(after[i].index, before[i].index) << i;
    EXPECT_EQ(after[i].p_value, before[i].p_value) << i;
  }
}

TEST(ChangePoints, ASeriesShorterThanTwoMinimumSegmentsHasNone) {
  ChangePointOptions options;
  options.min_segment = 5;
  std::vector<double> levels = flat(5, 100.0);
  append(levels, 4, 150.0);
  EXPECT_TRUE(find_change_points(levels, options).empty());  // 9 points
  append(levels, 1, 150.0);
  levels.insert(levels.begin(), 5, 100.0);
  append(levels, 5, 150.0);  // 20 points: now it can split
  ASSERT_EQ(find_change_points(levels, options).size(), 1u);
  EXPECT_TRUE(find_change_points({100.0}, options).empty());
}

TEST(ChangePoints, TheSameSeedGivesTheSameAnswer) {
  std::vector<double> levels = flat(50, 100.0);
  append(levels, 50, 102.0);
  const std::vector<double> values = SeriesMaker(8).values(levels, 0.006);
  ChangePointOptions options;
  options.seed = 42;
  const std::vector<ChangePoint> a = find_change_points(values, options);
  const std::vector<ChangePoint> b = find_change_points(values, options);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_FALSE(a.empty());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].p_value, b[i].p_value);
  }
}

// Two runners 2% apart, the slower one taking runs 20-34 and 75-84: as measured, the stretches are change points;
// with the runners' offsets taken out, none is, and a real 3% step at 60 still is.
TEST(ChangePoints, RunnerOffsetsTakenOutLeaveOnlyTheRealChange) {
  std::vector<double> levels = flat(60, 100.0);
  append(levels, 40, 103.0);
  Series series = series_of(SeriesMaker(9).values(levels, kNoiseSd));
  for (std::size_t i = 0; i < series.points.size(); ++i) {
    const bool slow_runner = (i >= 20 && i < 35) || (i >= 75 && i < 85);
    series.points[i].gpu_uuid = slow_runner ? "GPU-slow" : "GPU-fast";
    if (slow_runner) series.points[i].value *= 1.02;
  }
  std::vector<double> measured;
  for (const SeriesPoint& p : series.points) measured.push_back(p.value);
  EXPECT_GT(find_change_points(measured, {}).size(), 1u);

  const RunnerAdjusted adjusted = without_runner_offsets(series);
  EXPECT_NEAR(adjusted.offset_pct.at("GPU-slow") - adjusted.offset_pct.at("GPU-fast"), 2.0, 0.3);
  const std::vector<ChangePoint> found = find_change_points(adjusted.values, {});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 60u);
  EXPECT_NEAR(found[0].change_pct, 3.0, 0.4);
}

TEST(ChangePoints, RunnerOffsetsRejectABadValue) {
  Series series = series_of(flat(10, 100.0));
  series.points[4].value = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(without_runner_offsets(series), formats::InputError);
}

std::string error_of(const std::vector<double>& values, const ChangePointOptions& options = {}) {
  try {
    find_change_points(values, options);
  } catch (const formats::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ChangePoints, BadInputIsRejectedSayingWhatIsWrong) {
  EXPECT_NE(error_of({}).find("no values"), std::string::npos) << error_of({});
  std::vector<double> values = flat(20, 100.0);
  values[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(error_of(values).find("value 3 of the series is nan"), std::string::npos) << error_of(values);
  values[3] = std::numeric_limits<double>::infinity();
  EXPECT_NE(error_of(values).find("value 3"), std::string::npos);
  values[3] = 0.0;
  EXPECT_NE(error_of(values).find("finite, positive"), std::string::npos);
  values[3] = 100.0;
  EXPECT_EQ(error_of(values), "");
  ChangePointOptions options;
  options.permutations = 50;  // p >= 1/51 > alpha 0.01: no change could ever be significant
  EXPECT_NE(error_of(values, options).find("permutations"), std::string::npos);
  options = {};
  options.min_segment = 1;
  EXPECT_NE(error_of(values, options).find("min_segment"), std::string::npos);
  options = {};
  options.alpha = 0.0;
  EXPECT_NE(error_of(values, options).find("alpha"), std::string::npos);
  options = {};
  options.window = 19;
  EXPECT_NE(error_of(values, options).find("window"), std::string::npos);
}

}  // namespace
}  // namespace gpuperf::gate::history
