#include "gate/statistics/runner_history.h"

#include <algorithm>
#include <cmath>

#include "gate/statistics/log_scale.h"
#include "gate/statistics/student_t.h"

namespace gpuperf::gate {
namespace {

using log_scale::Moments;

// The history's runs on the log scale, its outlier processes left out: the last kMaxRunnerHistoryRuns runs,
// each with the processes it kept (runs left with none are dropped), then only the runs its trend leaves
// to judge with (RunnerTrend).
struct History {
  std::vector<Moments> runs;  // each run's processes
  int outliers = 0;
  int history_runs = 0;       // runs before the trend chose
  RunnerTrend trend = RunnerTrend::kSteady;
  double drift = 0.0;         // the fitted change of the level over the history_runs [log scale]
  double recent_drift = 0.0;  // kDrifting: the same over the last kMinRunnerHistoryRuns [log scale]
};

// The least-squares trend of the run means, oldest first: the fitted change from the first to the last,
// and whether it counts (significant at `alpha` and at least kMinDriftPct).
struct Trend {
  double change = 0.0;  // [log scale]
  bool counts = false;
};

Trend trend_of(const std::vector<Moments>& runs, double alpha) {
  const double n = static_cast<double>(runs.size());
  Trend trend;
  if (runs.size() < 3) return trend;
  const double mean_index = (n - 1.0) / 2.0;
  double mean_level = 0.0;
  for (const Moments& run : runs) mean_level += run.mean / n;
  double sxx = 0.0;
  double sxy = 0.0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double dx = static_cast<double>(i) - mean_index;
    sxx += dx * dx;
    sxy += dx * (runs[i].mean - mean_level);
  }
  const double slope = sxy / sxx;
  double residual_squares = 0.0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double residual = runs[i].mean - mean_level - slope * (static_cast<double>(i) - mean_index);
    residual_squares += residual * residual;
  }
  trend.change = slope * (n - 1.0);
  const double slope_se = std::sqrt(residual_squares / (n - 2.0) / sxx);
  const bool significant =
      slope_se == 0.0 ? slope != 0.0 : 2.0 * student_t_upper_tail(std::fabs(slope) / slope_se, n - 2.0) < alpha;
  trend.counts = significant && 100.0 * std::fabs(std::expm1(trend.change)) >= kMinDriftPct;
  return trend;
}

// Keeps the runs the trend leaves to judge with: all (steady), the last kMinRunnerHistoryRuns (a trend over
// the history, none over those), or none (drifting).
void apply_trend(History& history) {
  history.history_runs = static_cast<int>(history.runs.size());
  if (history.history_runs < kMinRunnerHistoryRuns) return;
  const Trend whole = trend_of(history.runs, kDriftAlpha);
  if (!whole.counts) return;
  history.drift = whole.change;
  history.runs.erase(history.runs.begin(), history.runs.end() - kMinRunnerHistoryRuns);
  const Trend recent = trend_of(history.runs, kRecentDriftAlpha);
  if (!recent.counts) {
    history.trend = RunnerTrend::kRecentLevel;
    return;
  }
  history.trend = RunnerTrend::kDrifting;
  history.recent_drift = recent.change;
  history.runs.clear();
}

History history_of(const std::vector<std::vector<double>>& history_runs, double sd_floor) {
  const std::size_t window = static_cast<std::size_t>(kMaxRunnerHistoryRuns);
  const std::size_t first = history_runs.size() > window ? history_runs.size() - window : 0;
  std::vector<std::vector<double>> logs;
  std::vector<double> all;
  for (std::size_t i = first; i < history_runs.size(); ++i) {
    logs.push_back(log_scale::logs_of(history_runs[i]));
    all.insert(all.end(), logs.back().begin(), logs.back().end());
  }
  // Outliers against every process of the history: a run of 3 cannot tell its own outlier.
  std::vector<double> deviations;
  log_scale::add_deviations(all, kMinProcessesForOutliers, deviations);
  const double robust_sd = log_scale::robust_sd_of(deviations, sd_floor);
  History history;
  const double center = all.empty() ? 0.0 : log_scale::median_of(all);
  for (const std::vector<double>& run : logs) {
    std::vector<double> kept;
    for (double x : run) {
      if (robust_sd > 0.0 && static_cast<int>(all.size()) >= kMinProcessesForOutliers &&
          std::fabs(x - center) > kOutlierCutoffSd * robust_sd) {
        ++history.outliers;
      } else {
        kept.push_back(x);
      }
    }
    if (!kept.empty()) history.runs.push_back(log_scale::moments_of(kept));
  }
  apply_trend(history);
  return history;
}

// The history's level (the mean of its run means), the spread of its run means beyond their processes',
// and the pieces of the variance of a difference against that level.
struct Level {
  double mean = 0.0;
  double run_variance = 0.0;        // sd_run^2, never below 0
  double mean_inverse_count = 0.0;  // mean(1 / k_i)
  double within_squares = 0.0;      // sum over runs of the squares about each run's mean
  int within_df = 0;                // sum of (k_i - 1)
  int runs = 0;
};

Level level_of(const History& history, double process_variance) {
  Level level;
  level.runs = static_cast<int>(history.runs.size());
  for (const Moments& run : history.runs) {
    level.mean += run.mean;
    level.mean_inverse_count += 1.0 / run.count;
    level.within_squares += run.sum_of_squares;
    level.within_df += run.count - 1;
  }
  level.mean /= level.runs;
  level.mean_inverse_count /= level.runs;
  if (level.runs > 1 && process_variance >= 0.0) {
    double squares = 0.0;
    for (const Moments& run : history.runs) squares += (run.mean - level.mean) * (run.mean - level.mean);
    level.run_variance = std::max(0.0, squares / (level.runs - 1) - process_variance * level.mean_inverse_count);
  }
  return level;
}

}  // namespace

ProcessEvidence compare_with_runner_history(const std::vector<std::vector<double>>& history_runs,
                                            const std::vector<double>& now, double confidence, double sd_floor) {
  const History history = history_of(history_runs, sd_floor);
  if (static_cast<int>(history.runs.size()) < kMinRunnerHistoryRuns || now.empty()) return {};
  // The current run's outliers, as against a baseline (groups of kMinProcessesForOutliers and more).
  const std::vector<double> now_logs = log_scale::logs_of(now);
  std::vector<double> deviations;
  log_scale::add_deviations(now_logs, kMinProcessesForOutliers, deviations);
  const double now_robust_sd = log_scale::robust_sd_of(deviations, sd_floor);
  int outliers = history.outliers;
  const Moments current =
      log_scale::moments_without_outliers(now_logs, kMinProcessesForOutliers, now_robust_sd, outliers);

  Level level = level_of(history, -1.0);
  int process_df = level.within_df + current.count - 1;
  if (process_df <= 0) return {};
  double process_sd = std::max(std::sqrt((level.within_squares + current.sum_of_squares) / process_df), sd_floor);
  // The current run's processes spread more than this runner's ever do (one of 3 an outlier, another
  // process on the GPU): then the history's spread says nothing of them, and they are judged on their own
  // spread alone (a wide interval: AMBIGUOUS, re-measured until the outlier can be left out). Pooled with a
  // history of 20 runs, one outlier among 3 current processes moved the mean by up to 10% while barely
  // widening the interval: 0.5-1.3% false alarms per benchmark in the simulation.
  if (current.count >= 2 && level.within_df > 0) {
    const double history_variance = std::max(level.within_squares / level.within_df, sd_floor * sd_floor);
    const double current_variance = current.sum_of_squares / (current.count - 1);
    if (f_upper_tail(current_variance / history_variance, current.count - 1, level.within_df) < kSpreadMismatchAlpha) {
      process_df = current.count - 1;
      process_sd = std::max(std::sqrt(current_variance), sd_floor);
    }
  }
  const double process_variance = process_sd * process_sd;
  level = level_of(history, process_variance);

  const double n = level.runs;
  const double run_part = level.run_variance * (1.0 + 1.0 / n);
  const double process_part = process_variance * (1.0 / current.count + level.mean_inverse_count / n);
  const double variance = run_part + process_part;
  // Welch-Satterthwaite: the run part is known to n - 1 degrees of freedom, the process part to process_df.
  double df = process_df;
  if (run_part > 0.0) {
    df = variance * variance / (run_part * run_part / (n - 1.0) + process_part * process_part / process_df);
  }
  ProcessEvidence evidence =
      log_scale::evidence_of(current.mean - level.mean, process_sd, std::sqrt(variance), df, confidence);
  evidence.outliers = outliers;
  evidence.run_level_share = run_part / variance;
  evidence.history_runs = level.runs;
  return evidence;
}

RunnerLevel runner_level(const std::vector<std::vector<double>>& history_runs,
                         const std::vector<double>& baseline_process_medians, double sd_floor) {
  const History history = history_of(history_runs, sd_floor);
  RunnerLevel result;
  result.history_runs = history.history_runs;
  result.trend = history.trend;
  result.drift_pct = 100.0 * std::expm1(history.drift);
  result.recent_drift_pct = 100.0 * std::expm1(history.recent_drift);
  if (static_cast<int>(history.runs.size()) < kMinRunnerHistoryRuns || baseline_process_medians.empty()) return result;
  Level level = level_of(history, -1.0);
  const double process_variance =
      level.within_df > 0 ? std::max(level.within_squares / level.within_df, sd_floor * sd_floor) : sd_floor * sd_floor;
  level = level_of(history, process_variance);
  const Moments baseline = log_scale::moments_of(log_scale::logs_of(baseline_process_medians));
  const double baseline_variance = baseline.count > 1 ? baseline.sum_of_squares / (baseline.count - 1) : 0.0;
  const double variance = level.run_variance / level.runs + process_variance * level.mean_inverse_count / level.runs +
                          baseline_variance / baseline.count;
  result.runs = level.runs;
  result.offset_pct = 100.0 * std::expm1(level.mean - baseline.mean);
  result.offset_se_pct = 100.0 * std::sqrt(variance);
  result.run_sd_pct = 100.0 * std::sqrt(level.run_variance);
  return result;
}

}  // namespace gpuperf::gate
