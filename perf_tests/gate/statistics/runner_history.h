#pragma once
// What a runner's own history of the baseline's code says about a benchmark's change on that runner.
//
// Machines of one GPU model time a benchmark each at its own level: three H100s of one host timed unchanged
// transposes 3.4-3.6% slower than the baseline's machine, one H200 of five read stride-100 10.6% faster
// (docs/results.md). Against a baseline from another machine the gate therefore allows 4%, and a 3%
// slowdown passes. A runner's history holds that level: the runs of the default branch on it whose code
// for the benchmark is the baseline's (the same code hash). Judged against that level, only the runner's
// own noise is left, and the same-GPU tolerance applies.
//
// The model, on the log scale: a process of run i on the runner lands at
//   level + change + r_i + p_ij,   r_i ~ N(0, sd_run^2) (the run's own level), p_ij ~ N(0, sd_process^2).
// The change is the current run's mean minus the mean of the history's run means; its variance is
//   sd_run^2 (1 + 1/n) + sd_process^2 (1/k + mean(1/k_i) / n)
// for n history runs of k_i processes and k current ones. sd_process is pooled from the spread inside every
// run (history and current: tens of degrees of freedom, so that re-measuring narrows the interval as it does
// against a baseline), unless the current run spreads beyond what the history's runs do (kSpreadMismatchAlpha);
// sd_run^2 is what the run means spread beyond sd_process^2 mean(1/k_i), never below 0,
// and the degrees of freedom follow Welch-Satterthwaite when it is above 0 (n - 1 of them for that part).
// tests/statistics/test_runner_history_simulation.cpp checks the false alarms, detection and coverage this
// gives against runner offsets, run-level noise and outliers.

#include <vector>

#include "gate/statistics/process_inference.h"

namespace gpuperf::gate {

// The fewest history runs of the baseline's code that a runner needs before it is judged against its own
// level at the same-GPU tolerance; with fewer, the baseline and the tolerance of another machine judge as
// before. Simulated (docs/statistics.md): with 5 runs the first look's interval covered the truth in 98.6%
// of clean trials where runs spread 0.25% (claimed 99%); from 10 on, at least 99.2%. 3% at process sd
// 0.44% is caught in 91% with 10 runs, 100% with 20 (against the baseline at 4%: 6%).
inline constexpr int kMinRunnerHistoryRuns = 10;
// The most recent history runs used: older ones may predate a change of the runner (a driver, a board).
inline constexpr int kMaxRunnerHistoryRuns = 30;
// The current run's processes are judged on their own spread, not the history's, where an F test says
// they spread more than the history's runs do at this level (an outlier, interference; see the .cpp). At
// 0.001, 2-4 clean runs of the suite in 200 failed at process sd 2%; at 0.01, at most 2, and a clean run
// re-measures as many benchmarks as against a baseline (7-8 at process sd 0.1-0.44%).
inline constexpr double kSpreadMismatchAlpha = 0.01;

// A runner whose level trends over its history (a board warming year by year, a driver's slow leak, a
// neighbour that grows) has no one level to judge against: its run means spread with the trend, which reads
// as run-to-run noise, and every interval straddles the tolerance (simulated, a runner drifting +1.5% to
// +4.4% over 30 runs left every benchmark AMBIGUOUS after four looks, clean or changed). The trend is the
// least-squares slope of the run means; it counts where it is significant (two-sided p below
// kDriftAlpha, on n - 2 degrees of freedom) and moves the level by at least kMinDriftPct over the runs. Then
// the runner is judged against its last kMinRunnerHistoryRuns runs where those have settled, and as
// another machine (against the baseline) where they still move: by kMinDriftPct or more at the looser
// kRecentDriftAlpha (10 runs that drift 0.1% a run, spread 0.3%, show a slope at p 0.02, rarely below
// 0.001; judged against their mean, such a runner lands 0.55% above it).
inline constexpr double kDriftAlpha = 0.001;
inline constexpr double kRecentDriftAlpha = 0.05;
inline constexpr double kMinDriftPct = 0.5;  // [percent over the runs fitted]

enum class RunnerTrend {
  kSteady,       // no trend: judged against its last kMaxRunnerHistoryRuns runs
  kRecentLevel,  // a trend over the history, none over its last kMinRunnerHistoryRuns: judged against those
  kDrifting,     // a trend over its last kMinRunnerHistoryRuns too: not judged against its history
};

struct RunnerLevel {
  int runs = 0;               // history runs the level is of (after outliers are left out); 0: none judges
  double offset_pct = 0.0;    // the runner's level against the baseline's [percent; + is slower]
  double offset_se_pct = 0.0; // its standard error [percent]
  double run_sd_pct = 0.0;    // sd_run: the spread of whole runs beyond that of their processes [percent]
  int history_runs = 0;       // runs the history holds, the last kMaxRunnerHistoryRuns at most
  RunnerTrend trend = RunnerTrend::kSteady;
  double drift_pct = 0.0;     // trend != kSteady: the fitted change of the level over the history_runs [percent]
  double recent_drift_pct = 0.0;  // kDrifting: the same over its last kMinRunnerHistoryRuns runs [percent]
};

// The evidence on the change of `now` (the current run's process medians) against `history_runs` (each
// run's process medians, oldest first; only the last kMaxRunnerHistoryRuns are used), as
// compare_process_medians gives it against a baseline. History processes further than kOutlierCutoffSd
// robust sds from the median of all of them are left out (one process in 50 lands 5-30% slow), and so are
// the current run's as compare_process_medians does; a runner whose level trends is judged against its
// recent runs only, or not at all (RunnerTrend). Not judged (judged == false) with fewer than
// kMinRunnerHistoryRuns runs, a runner that drifts, or with no spread to estimate (every run and the
// current one a single process). All values must be positive. `sd_floor` as for compare_process_medians.
ProcessEvidence compare_with_runner_history(const std::vector<std::vector<double>>& history_runs,
                                            const std::vector<double>& now, double confidence, double sd_floor);

// The runner's level against the baseline's process medians: what the report names ("runner offset -3.52%
// +- 0.08% from 12 runs of unchanged code"), of the runs its trend leaves to judge with (RunnerTrend). runs
// == 0 when none judges: the history is too short (history_runs says how long), or the runner drifts (trend).
RunnerLevel runner_level(const std::vector<std::vector<double>>& history_runs,
                         const std::vector<double>& baseline_process_medians, double sd_floor);

}  // namespace gpuperf::gate
