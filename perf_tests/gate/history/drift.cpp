#include "gate/history/drift.h"

#include <algorithm>
#include <cmath>

#include "formats/input_error.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::history {
namespace {

void validate(const Series& series, const std::vector<ChangePoint>& change_points, double baseline_value,
              double tolerance_pct) {
  const std::string name = "drift of '" + series.benchmark + "': ";
  if (series.points.empty()) throw formats::InputError(name + "the series has no points - nothing to compare");
  if (!std::isfinite(baseline_value) || baseline_value <= 0.0) {
    throw formats::InputError(name + "the baseline's value " + std::to_string(baseline_value) +
                              " is not a finite, positive measurement - check the baseline file");
  }
  if (!std::isfinite(tolerance_pct) || tolerance_pct < 0.0) {
    throw formats::InputError(name + "the tolerance " + std::to_string(tolerance_pct) +
                              "% is not a finite number >= 0 - check the baseline file");
  }
  for (const ChangePoint& cp : change_points) {
    if (cp.index == 0 || cp.index >= series.points.size() || cp.bad_index >= series.points.size()) {
      throw formats::InputError(name + "change point at index " + std::to_string(cp.index) +
                                " is outside the series of " + std::to_string(series.points.size()) +
                                " points - find the change points of this series");
    }
  }
}

}  // namespace

Drift find_drift(const Series& series, const std::vector<ChangePoint>& change_points, double baseline_value,
                 double tolerance_pct, const std::optional<RunnerReference>& runner) {
  validate(series, change_points, runner ? runner->level_value : baseline_value, tolerance_pct);
  if (runner) baseline_value = runner->level_value;
  const std::vector<SeriesPoint>& points = series.points;
  const std::size_t n = points.size();

  Drift drift;
  drift.since = points.back().baseline_recorded;
  drift.baseline_value = baseline_value;
  drift.tolerance_pct = tolerance_pct;
  drift.runner = runner;

  // The span since the baseline: the trailing points judged against the latest point's baseline.
  std::size_t span_begin = n - 1;
  while (span_begin > 0 && points[span_begin - 1].baseline_recorded == drift.since) --span_begin;
  drift.runs_since = n - span_begin;
  for (std::size_t i = span_begin; i < n; ++i) ++drift.verdicts_since[points[i].verdict];

  const std::size_t last_segment_begin = change_points.empty() ? 0 : change_points.back().index;
  std::vector<double> latest;
  for (std::size_t i = last_segment_begin; i < n; ++i) {
    if (!runner || points[i].gpu_uuid == runner->gpu_uuid) latest.push_back(points[i].value);
  }
  if (latest.empty()) {
    for (std::size_t i = last_segment_begin; i < n; ++i) latest.push_back(points[i].value);
  }
  drift.latest_points = latest.size();
  drift.latest_value = median(std::move(latest));
  drift.change_pct = 100.0 * (drift.latest_value / baseline_value - 1.0);
  drift.beyond_tolerance = std::fabs(drift.change_pct) > tolerance_pct;

  // A change point is inside the span when its change happened after the span's first point.
  drift.good_index = span_begin;
  drift.bad_index = n - 1;
  bool first = true;
  for (const ChangePoint& cp : change_points) {
    if (cp.index <= span_begin) continue;
    ++drift.change_points_since;
    if (first) drift.good_index = std::max(cp.good_index, span_begin);
    first = false;
    drift.bad_index = cp.bad_index;
  }
  drift.good_commit = points[drift.good_index].commit;
  drift.bad_commit = points[drift.bad_index].commit;
  return drift;
}

}  // namespace gpuperf::gate::history
