#pragma once
// What the previous analysis of a GPU model reported (perf_gate history-changes --previous FILE, FILE the
// --json export of the analysis before), so that a push's report lists only what is new since: every
// change point ever found, listed again at every push, was 208 rows at 1,000 runs and would pass GitHub's
// 1 MiB job summary at 10,000.
//
// Only the change points and drifts are read: the export's points (most of its 500 MB at 108 benchmarks x
// 10,000 runs) are skipped as they are parsed, never held. A file that is missing or cannot be read is no
// error: everything is new then, and the report says why.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gate/history/change_points.h"
#include "gate/history/series.h"
#include "gate/history/series_json.h"

namespace gpuperf::gate::history {

struct PreviousSeries {
  std::vector<ExportedChangePoint> change_points;
  std::optional<ExportedDrift> drift;
};

struct PreviousChanges {
  enum class State {
    kNotGiven,    // no --previous: everything is listed, as the first analysis lists it
    kUnreadable,  // given, but missing or not an export of this GPU: everything is new (why_unreadable)
    kRead,
  };
  State state = State::kNotGiven;
  std::string source;          // the file
  std::string why_unreadable;  // kUnreadable: what is wrong with it
  std::map<std::pair<std::string, std::string>, PreviousSeries> series;  // by benchmark, unit
};

// The previous analysis in `path`, which must be an export (series_json.h) of `gpu_slug`.
PreviousChanges read_previous_changes(const std::string& path, const std::string& gpu_slug);

// Per change point of `series` (find_change_points over it): whether the previous analysis reported none
// like it, i.e. no change point of the same direction whose commit range (its good and bad commits, found
// among the series' points) overlaps this one's good_index..bad_index. A range that moved as runs were
// added (a fresh step's range narrows to its two commits) is the same change. All new when `previous` is
// null (the series was not in the previous analysis, or there was none).
std::vector<bool> new_change_points(const Series& series, const std::vector<ChangePoint>& change_points,
                                    const PreviousSeries* previous);

// Whether a drift beyond its tolerance is new: the previous analysis had none beyond the tolerance for the
// series against the same baseline (by recorded date).
bool new_drift(const ExportedDrift& drift, const PreviousSeries* previous);

}  // namespace gpuperf::gate::history
