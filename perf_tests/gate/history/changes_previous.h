#pragma once
// What the reports of a GPU model's history have listed so far (perf_gate history-changes --previous FILE,
// FILE the --json export of the analysis before, whose "reported" carries it from analysis to analysis),
// so that a push's report lists only what is new: every change point ever found, listed again at every
// push, was 208 rows at 1,000 runs and would pass GitHub's 1 MiB job summary at 10,000; and a change
// point or drift lost for one analysis and found at the next is not new either (the constants below).
//
// Only what was reported is read: the export's points (most of it) are skipped as they are parsed, never
// held. A file that is missing or cannot be read is no error: everything is new then, and the report says
// why.

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

// What the reports have listed of one series so far: the previous export's "reported" (series_json.h), or,
// from an export written before it carried one, its change points and its drift beyond the tolerance.
struct PreviousSeries {
  Reported reported;
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

// How long what was reported is remembered when it is not found again, and the hysteresis of a drift.
// A change point found at one push and lost at the next (its p-value near alpha, its effect near the
// minimum, a window or a segment that moved) and found again is the same change; so is a drift that
// falls a little back inside its tolerance and out again. Simulated (tests/history/
// test_changes_simulation.cpp: 400 series, 40 pushes), remembering the last analysis only, 14.9% of the
// listings were of a change or drift listed before; with these, 0.5% (the target: at most 2%).
// - A reported change point is the same as one found now when their directions agree and their commit
//   ranges lie within kSameChangeSlack points of each other; one not found again is forgotten after
//   kForgetChangePointAfter analyses (or when neither of its commits is in the series any more).
// - A reported drift stays known while it is beyond kDriftHysteresis x its tolerance in the same
//   direction (against the same baseline); it is forgotten after kForgetDriftAfter analyses in a row that
//   found it clearly back inside (below that), in the other direction, or judged no drift.
inline constexpr std::size_t kSameChangeSlack = 3;       // [points]
inline constexpr int kForgetChangePointAfter = 20;      // [analyses]
inline constexpr double kDriftHysteresis = 0.75;        // [fraction of the tolerance]
inline constexpr int kForgetDriftAfter = 3;             // [analyses]

// The change points found now (find_change_points over `series`), marked new or known against what was
// reported before, and what is reported after this analysis: every change point found now (with its
// first_reported carried, or `now` for a new one) and those reported before and not found now, until
// they are forgotten. `previous` null: everything is new.
struct CarriedChangePoints {
  std::vector<bool> is_new;  // per change point found now
  std::vector<ReportedChangePoint> reported;
};
CarriedChangePoints carry_change_points(const Series& series, const std::vector<ChangePoint>& change_points,
                                        const PreviousSeries* previous, const std::string& now);

// The same for the drift judged now (none: not judged): new when beyond its tolerance and no drift of
// its direction against the same baseline is known.
struct CarriedDrift {
  bool is_new = false;
  std::optional<ReportedDrift> reported;
};
CarriedDrift carry_drift(const std::optional<ExportedDrift>& drift, const PreviousSeries* previous, const std::string& now);

}  // namespace gpuperf::gate::history
