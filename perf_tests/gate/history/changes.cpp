#include "gate/history/changes.h"

#include <utility>

#include "gate/history/change_points_runners.h"
#include "gate/history/drift.h"
#include "gate/history/runner_offsets.h"
#include "gate/judging/tolerance.h"
#include "gate/statistics/runner_history.h"

namespace gpuperf::gate::history {

ChangesAnalysis::ChangesAnalysis(std::string gpu_slug, std::optional<Baseline> baseline, ChangePointOptions options,
                                 PreviousChanges previous)
    : baseline_(std::move(baseline)), options_(options) {
  report_.gpu_slug = std::move(gpu_slug);
  report_.baseline_recorded = baseline_ ? baseline_->recorded.date : "";
  report_.previous = std::move(previous);
}

std::optional<RunnerReference> ChangesAnalysis::runner_reference(const Series& series,
                                                                 const BaselineEntry& entry) const {
  const std::string& uuid = series.points.back().gpu_uuid;
  if (baseline_->recorded.date.empty() || uuid.empty()) return std::nullopt;
  RunnerHistoryBuilder builder(*baseline_);
  builder.add(series);
  const auto runner = builder.history().runners.find(uuid);
  if (runner == builder.history().runners.end()) return std::nullopt;
  const auto runs = runner->second.find(series.benchmark);
  if (runs == runner->second.end()) return std::nullopt;
  const RunnerLevel level = runner_level(runs->second.runs, entry.process_medians, 0.0);
  if (level.runs == 0) return std::nullopt;
  return RunnerReference{uuid, entry.median * (1.0 + level.offset_pct / 100.0), level.offset_pct, level.runs};
}

ExportedSeries ChangesAnalysis::add(Series series) {
  SeriesChanges changes;
  changes.benchmark = series.benchmark;
  changes.unit = series.unit;
  const PreviousSeries* previous = nullptr;
  if (const auto found = report_.previous.series.find({series.benchmark, series.unit});
      found != report_.previous.series.end()) {
    previous = &found->second;
  }
  std::vector<ChangePoint> found;
  if (!series.points.empty() && series.points.size() >= 2 * options_.min_segment) {
    found = find_change_points(without_runner_offsets(series).values, options_);
  }
  for (const ChangePoint& change : found) {
    changes.change_points.push_back({change.index, series.points[change.good_index].commit,
                                     series.points[change.bad_index].commit, change.before, change.after,
                                     change.change_pct, change.p_value});
  }
  // When a listing was first reported: the date of the latest run analysed, not the clock, so that an
  // analysis of the same store says the same.
  const std::string now = series.points.empty() ? "" : series.points.back().date;
  CarriedChangePoints carried = carry_change_points(series, found, previous, now);
  changes.change_point_is_new = std::move(carried.is_new);

  if (baseline_ && !series.points.empty()) {
    const auto entry = baseline_->benchmarks.find(series.benchmark);
    const std::string& latest = series.points.back().baseline_recorded;
    if (entry == baseline_->benchmarks.end()) {
      changes.judgement = DriftJudgement::kNotInBaseline;
    } else if (entry->second.unit != series.unit) {
      changes.judgement = DriftJudgement::kOtherUnit;
      changes.baseline_unit = entry->second.unit;
    } else if (latest != baseline_->recorded.date) {
      // The runs were judged against another baseline (re-recorded since, or the file of another one): its
      // value is not theirs, and their date is not its date.
      changes.judgement = DriftJudgement::kOtherBaseline;
      changes.latest_baseline = latest;
    } else {
      changes.judgement = DriftJudgement::kJudged;
      // Runs on main land on any runner of the model: the tolerance of a machine other than the baseline's,
      // unless the latest run's runner has enough runs of the baseline's code to be judged against its own
      // level (statistics/runner_history.h), at the same-GPU tolerance.
      const std::optional<RunnerReference> runner = runner_reference(series, entry->second);
      const Tolerance tolerance =
          resolve_tolerance(*baseline_, series.benchmark, entry->second, /*same_gpu=*/runner.has_value());
      const Drift drift = find_drift(series, found, entry->second.median, tolerance.pct, runner);
      changes.drift = ExportedDrift{drift.since,         drift.baseline_value, drift.latest_value,
                                    drift.change_pct,    drift.tolerance_pct,  drift.beyond_tolerance,
                                    drift.good_commit,   drift.bad_commit,
                                    runner ? runner->gpu_uuid : "",
                                    runner ? runner->offset_pct : 0.0,
                                    runner ? runner->runs : 0};
      changes.drift_runs = drift.runs_since;
      changes.drift_verdicts = drift.verdicts_since;
    }
  }
  CarriedDrift drift = carry_drift(changes.drift, previous, now);
  changes.drift_is_new = drift.is_new;
  ExportedSeries exported{std::move(series), changes.change_points, changes.drift,
                          Reported{std::move(carried.reported), std::move(drift.reported)}};
  report_.series.push_back(std::move(changes));
  return exported;
}

}  // namespace gpuperf::gate::history
