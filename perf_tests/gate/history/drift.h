#pragma once
// Whether a benchmark has drifted from its baseline: five merged changes of 1.5% each pass the
// per-pull-request gate one by one, and together are 7.7% slower. The runs' own verdicts are counted
// (verdicts_since), not assumed: the later of those runs may well have been judged SLOW.
//
// The latest level is the median of the last segment: the points after the last change point (all of
// the series when there is none). A segment has no significant change inside by construction, so all of
// its points measure one level and the median of all of them is the most precise. A change in the last
// min_segment - 1 points cannot be a change point yet (ChangePointOptions::min_segment): it moves the
// latest level only as far as it moves that median, and the per-pull-request gate judges those runs.
//
// The drift is counted since the baseline the latest run was judged against: the trailing points whose
// baseline_recorded is the latest point's. It built up over the change points inside that span: from the
// first one's good commit to the last one's bad commit (a ramp: its range, see change_points.h); with
// none there, over the whole span (the baseline may have been recorded on another level, or another
// machine: nothing in the history says where).

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gate/history/change_points.h"
#include "gate/history/series.h"

namespace gpuperf::gate::history {

// The latest run's runner with enough runs of the baseline's code (history/runner_offsets.h,
// statistics/runner_history.h): the drift is then that runner's latest level against its own level of the
// baseline's code, at the same-GPU tolerance, and no machine offset hides in it.
struct RunnerReference {
  std::string gpu_uuid;
  double level_value = 0.0;  // the runner's level of the baseline's code [the series' unit]
  double offset_pct = 0.0;   // that level against the baseline's [percent]
  int runs = 0;              // the runs of the baseline's code it is from
};

struct Drift {
  std::string since;             // the baseline's recorded date (ISO 8601 UTC); "" if the runs named none
  double baseline_value = 0.0;   // [the series' unit]
  double latest_value = 0.0;     // the median of the last segment [the series' unit]
  double change_pct = 0.0;       // 100 * (latest / baseline - 1) [%]; > 0: the values grew (a time: slower)
  double tolerance_pct = 0.0;    // the baseline's tolerance [%]
  bool beyond_tolerance = false; // |change_pct| > tolerance_pct: faster counts too (the baseline is stale)
  // Where it built up: points[good_index] .. points[bad_index] (indices into the series' points).
  std::size_t good_index = 0;
  std::size_t bad_index = 0;
  std::string good_commit;
  std::string bad_commit;
  std::size_t change_points_since = 0;  // the change points inside the span since the baseline
  std::size_t latest_points = 0;        // the points the latest level is the median of
  std::size_t runs_since = 0;           // the span since the baseline: the runs judged against it
  std::map<std::string, std::size_t> verdicts_since;  // their verdicts (SAME, SLOW, ...; "" none stored): count
  std::optional<RunnerReference> runner;  // set: baseline_value is the runner's level, latest_value its runs'
};

// The drift of `series` from the baseline's value, given the series' change points
// (find_change_points over its values); with `runner`, from that runner's level of the baseline's code, the
// latest level taken over the last segment's points on that runner (all of the segment's where it has none).
// Throws formats::InputError when the series has no points, when
// baseline_value is not finite and positive, or tolerance_pct not finite and >= 0, or a change point's
// index is outside the series.
Drift find_drift(const Series& series, const std::vector<ChangePoint>& change_points, double baseline_value,
                 double tolerance_pct, const std::optional<RunnerReference>& runner = std::nullopt);

}  // namespace gpuperf::gate::history
