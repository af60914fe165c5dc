#include "gate/judging/runner_judging.h"

#include "formats/number_text.h"
#include "gate/judging/stored_mode.h"
#include "gate/statistics/runner_history.h"

namespace gpuperf::gate {
namespace {

using formats::format_number;

// "runner offset -3.52% +- 0.08% from 12 runs of unchanged code" (+- one standard error); for a runner whose
// level moved, "from its last 10 runs of unchanged code (its level moved +2.9% over 30 runs)".
std::string runner_offset_note(const RunnerLevel& level) {
  std::string note = "runner offset " + format_number("%+.2f", level.offset_pct) + "% +- " +
                     format_number("%.2f", level.offset_se_pct) + "% from ";
  if (level.trend != RunnerTrend::kRecentLevel) return note + std::to_string(level.runs) + " runs of unchanged code";
  return note + "its last " + std::to_string(level.runs) + " runs of unchanged code (its level moved " +
         format_number("%+.1f", level.drift_pct) + "% over " + std::to_string(level.history_runs) + " runs)";
}

std::string why_history_cannot_judge(const RunnerLevel& level) {
  if (level.trend == RunnerTrend::kDrifting) {
    return "runner drifting: its level moved " + format_number("%+.1f", level.drift_pct) + "% over its last " +
           std::to_string(level.history_runs) + " runs of unchanged code and " +
           format_number("%+.1f", level.recent_drift_pct) + "% over the last " + std::to_string(kMinRunnerHistoryRuns) +
           "; judged against the baseline, as another machine";
  }
  return "runner history: " + std::to_string(level.history_runs) + " of " + std::to_string(kMinRunnerHistoryRuns) +
         " runs of the baseline's code; judged against the baseline";
}

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

std::string judge_against_runner_history(const RunnerHistoryJudging& how, BenchmarkComparison& row) {
  if (how.history.unit != row.unit) {
    return "runner history in " + how.history.unit + ", the results in " + row.unit + "; judged against the baseline";
  }
  const RunnerLevel level = runner_level(how.history.runs, how.baseline_process_medians, how.sd_floor);
  const ProcessEvidence evidence =
      compare_with_runner_history(how.history.runs, how.now, how.budget.interval_confidence(), how.sd_floor);
  if (!evidence.judged || level.runs == 0) {
    row.runner_too_young_or_drifting = level;
    return why_history_cannot_judge(level);
  }
  row.tolerance_pct = how.same_gpu_tolerance.pct;
  row.tolerance_source = how.same_gpu_tolerance.source;
  row.runner = level;
  row.note = runner_offset_note(level);
  DecisionRule rule{how.same_gpu_tolerance.pct, how.budget.test_alpha()};
  rule.by_estimate = how.last_look && decided_by_estimate(evidence, rule.tolerance_pct);
  apply_evidence(evidence, row.current_processes, rule, row);
  rule.by_estimate = false;
  const Verdict by_interval =
      decide(Evidence{row.ci_low, row.ci_high, row.p_slower, row.p_faster, row.current_processes, row.ratio}, rule);
  if (by_interval == Verdict::kAmbiguous && row.verdict != Verdict::kAmbiguous) {
    row.note += "; decided at the last look by its estimate (" + format_number("%+.1f", 100.0 * (row.ratio - 1.0)) +
                "%): no re-measurement narrows the interval below this runner's run-to-run spread (" +
                format_number("%.2f", level.run_sd_pct) + "%)";
  }
  return "";
}

std::string no_runner_history_note(BenchmarkComparison& row) {
  row.runner_too_young_or_drifting = RunnerLevel{};
  return "runner history: 0 of " + std::to_string(kMinRunnerHistoryRuns) +
         " runs of the baseline's code; judged against the baseline";
}

}  // namespace gpuperf::gate
