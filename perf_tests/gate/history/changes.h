#pragma once
// The history judged: every series of one GPU model with its change points (in the values with the
// runners' offsets taken out, change_points_runners.h) and, given the baseline, its drift from it
// (drift.h), as the series export holds them; what of it is new since the previous analysis
// (changes_previous.h); and what the reports (changes_report.h) say of it. Moves are warnings, never a
// failure: the per-pull-request gate fails.
//
// A series is judged one at a time (ChangesAnalysis::add), so that a history too large to hold in memory
// is read, judged and written a benchmark at a time; the report keeps only what it tells, not the points.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gate/history/change_points.h"
#include "gate/history/changes_previous.h"
#include "gate/history/drift.h"
#include "gate/history/series_json.h"
#include "gate/inputs/baseline.h"

namespace gpuperf::gate::history {

// Whether, and if not why not, a series' drift was judged against the baseline given.
enum class DriftJudgement {
  kJudged,         // the series' drift holds the answer
  kNoBaseline,     // no baseline given
  kNotInBaseline,  // the baseline has no entry of the benchmark's name (a benchmark added since)
  kOtherUnit,      // its entry is in another unit than the series (a series in us is not judged in cycles)
  kOtherBaseline,  // the latest run was judged against another baseline than the one given (by recorded date)
};

// One series' changes, as the reports tell them (its points are in the export, not here).
struct SeriesChanges {
  std::string benchmark;
  std::string unit;
  std::vector<ExportedChangePoint> change_points;
  std::vector<bool> change_point_is_new;  // per change point: not reported before (changes_previous.h)
  std::optional<ExportedDrift> drift;     // kJudged only
  bool drift_is_new = false;              // beyond its tolerance now, and not known (changes_previous.h)
  std::size_t drift_runs = 0;             // the runs judged against the baseline (the drift's span)
  std::map<std::string, std::size_t> drift_verdicts;  // their verdicts: count ("" where none was stored)
  DriftJudgement judgement = DriftJudgement::kNoBaseline;
  std::string baseline_unit;    // kOtherUnit: the entry's unit
  std::string latest_baseline;  // kOtherBaseline: the recorded date the latest run was judged against ("": none)
};

struct ChangesReport {
  std::string gpu_slug;
  std::string baseline_recorded;  // the baseline given: its recorded date ("" without one)
  PreviousChanges previous;       // what the previous analysis reported, or why it could not be read
  std::vector<SeriesChanges> series;
};

class ChangesAnalysis {
 public:
  // `baseline`: the GPU's baselines/<gpu>.json, or none (no drift is judged); `previous`: the previous
  // analysis (read_previous_changes), against which the report marks what is new.
  ChangesAnalysis(std::string gpu_slug, std::optional<Baseline> baseline, ChangePointOptions options,
                  PreviousChanges previous);
  // Judges `series` (of the GPU): its change points and, where the baseline given judged its latest run and
  // holds its name in its unit, its drift (at the tolerance of another machine of the model, or, where the
  // latest run's runner has kMinRunnerHistoryRuns runs of the baseline's code in the series, against that
  // runner's own level at the same-GPU tolerance: drift.h, RunnerReference); adds them
  // to the report, marked new or known; returns the series' export entry. Series too short for a change
  // point keep none.
  ExportedSeries add(Series series);
  const ChangesReport& report() const { return report_; }

 private:
  // The latest run's runner's own level of the baseline's code for `entry`, where it has enough runs of it.
  std::optional<RunnerReference> runner_reference(const Series& series, const BaselineEntry& entry) const;

  std::optional<Baseline> baseline_;
  ChangePointOptions options_;
  ChangesReport report_;
};

}  // namespace gpuperf::gate::history
