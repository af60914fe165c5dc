#pragma once
// A benchmark judged against its runner's own history of the baseline's code (statistics/runner_history.h)
// where that history can judge it, and what the row says where it cannot: a runner too young for it, or
// one whose level drifts, is named, never left to the baseline silently.

#include <optional>
#include <string>
#include <vector>

#include "gate/inputs/runner_history.h"
#include "gate/judging/comparison.h"
#include "gate/judging/tolerance.h"
#include "gate/statistics/error_budget.h"

namespace gpuperf::gate {

struct RunnerHistoryJudging {
  const RunnerBenchmarkHistory& history;              // this runner's runs of the benchmark's baseline code
  const std::vector<double>& now;                     // the current process medians [unit]
  const std::vector<double>& baseline_process_medians;  // [unit]
  Tolerance same_gpu_tolerance;                       // what the runner's own level is judged at
  ErrorBudget budget;
  // The caller's last look at the benchmark: an interval that straddles the tolerance is then decided by
  // its estimate (DecisionRule::by_estimate) where no re-measurement would narrow it: see
  // decided_by_estimate in the .cpp.
  bool last_look = false;
  double sd_floor = 0.0;  // [log scale]
};

// Where the history judges: fills `row` (ratio, interval, verdict, tolerance, runner, notes) and returns
// nothing. Where it cannot: leaves `row` as it was but for runner_too_young_or_drifting, and returns why,
// for the row's notes (kRunnerYoung: 9 of 10 runs of the baseline's code; kRunnerDrifting;
// kRunnerHistoryUnit).
std::optional<RowNote> judge_against_runner_history(const RunnerHistoryJudging& how, BenchmarkComparison& row);

// The note of a row whose runner has no run of the benchmark's baseline code in the history (and the row's
// runner_too_young_or_drifting says so).
RowNote no_runner_history_note(BenchmarkComparison& row);

}  // namespace gpuperf::gate
