#include "gate/judging/runner_judging.h"

#include "gate/judging/stored_mode.h"
#include "gate/statistics/runner_history.h"

namespace gpuperf::gate {
namespace {

// Where the last look decides by the estimate what the interval leaves open: the interval is held wide by
// the run's own level, which re-measuring cannot shrink (at least half its variance), that level's spread
// is known from kMinRunsToDecideByEstimate runs or more, and the interval is at most 1.5 tolerances wide.
// Simulated (tests/statistics/test_runner_history_simulation.cpp): with runs spread 0.2% and processes
// 0.44%, a 2.5% slowdown ended AMBIGUOUS, a pass, in 70-80% of judgements before; decided wherever the
// interval straddles, clean runs failed 2-4 in 100 where processes spread 1-2%: their spread was
// under-estimated in the far tail (12 processes with outliers cut; a run spread from 10 runs).
constexpr double kMinRunLevelShare = 0.5;
constexpr int kMinRunsToDecideByEstimate = 20;
constexpr double kMaxWidthInTolerances = 1.5;

bool decided_by_estimate(const ProcessEvidence& evidence, double tolerance_pct) {
  return evidence.run_level_share >= kMinRunLevelShare && evidence.history_runs >= kMinRunsToDecideByEstimate &&
         evidence.ci_high - evidence.ci_low <= kMaxWidthInTolerances * tolerance_pct / 100.0;
}

}  // namespace

std::optional<RowNote> judge_against_runner_history(const RunnerHistoryJudging& how, BenchmarkComparison& row) {
  if (how.history.unit != row.unit) {
    RowNote units = note_of(NoteCode::kRunnerHistoryUnit);
    units.unit_before = how.history.unit;
    units.unit_now = row.unit;
    return units;
  }
  const RunnerLevel level = runner_level(how.history.runs, how.baseline_process_medians, how.sd_floor);
  const ProcessEvidence evidence =
      compare_with_runner_history(how.history.runs, how.now, how.budget.interval_confidence(), how.sd_floor);
  if (!evidence.judged || level.runs == 0) {
    row.runner_too_young_or_drifting = level;
    RowNote why = note_of(level.trend == RunnerTrend::kDrifting ? NoteCode::kRunnerDrifting : NoteCode::kRunnerYoung);
    why.runner = level;
    why.needed = kMinRunnerHistoryRuns;
    return why;
  }
  row.tolerance_pct = how.same_gpu_tolerance.pct;
  row.tolerance_source = how.same_gpu_tolerance.source;
  row.runner = level;
  RowNote offset = note_of(NoteCode::kRunnerOffset);
  offset.runner = level;
  row.notes = {offset};
  DecisionRule rule{how.same_gpu_tolerance.pct, how.budget.test_alpha()};
  rule.by_estimate = how.last_look && decided_by_estimate(evidence, rule.tolerance_pct);
  apply_evidence(evidence, row.current_processes, rule, row);
  rule.by_estimate = false;
  const Verdict by_interval =
      decide(Evidence{row.ci_low, row.ci_high, row.p_slower, row.p_faster, row.current_processes, row.ratio}, rule);
  if (by_interval == Verdict::kAmbiguous && row.verdict != Verdict::kAmbiguous) {
    RowNote estimate = note_of(NoteCode::kDecidedByEstimate);
    estimate.offset_pct = 100.0 * (row.ratio - 1.0);
    estimate.runner = level;
    row.notes.push_back(estimate);
  }
  return std::nullopt;
}

RowNote no_runner_history_note(BenchmarkComparison& row) {
  row.runner_too_young_or_drifting = RunnerLevel{};
  RowNote young = note_of(NoteCode::kRunnerYoung);
  young.needed = kMinRunnerHistoryRuns;
  return young;
}

}  // namespace gpuperf::gate
