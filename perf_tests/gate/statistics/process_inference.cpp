#include "gate/statistics/process_inference.h"

#include <algorithm>
#include <cmath>

#include "gate/statistics/student_t.h"

namespace gpuperf::gate {
namespace {

std::vector<double> logs_of(const std::vector<double>& values) {
  std::vector<double> logs;
  logs.reserve(values.size());
  for (double v : values) logs.push_back(std::log(v));
  return logs;
}

double median_of(std::vector<double> values) {
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  return 0.5 * (*middle + *std::max_element(values.begin(), middle));
}

// The absolute deviations of a group from its median (none for a group too small to judge its values).
void add_deviations(const std::vector<double>& logs, int min_group, std::vector<double>& deviations) {
  if (static_cast<int>(logs.size()) < min_group) return;
  const double center = median_of(logs);
  for (double x : logs) deviations.push_back(std::fabs(x - center));
}

// `logs` without the values beyond kOutlierCutoffSd robust sds of their median; counts what it drops.
std::vector<double> without_outliers(const std::vector<double>& logs, int min_group, double robust_sd, int& dropped) {
  if (static_cast<int>(logs.size()) < min_group) return logs;
  const double center = median_of(logs);
  std::vector<double> kept;
  for (double x : logs) {
    if (std::fabs(x - center) <= kOutlierCutoffSd * robust_sd) {
      kept.push_back(x);
    } else {
      ++dropped;
    }
  }
  return kept;
}

// 1.4826 x the median absolute deviation: the sd of a normal, unmoved by a few outliers.
constexpr double kMadToSd = 1.4826;

double robust_sd_of(const std::vector<double>& deviations, double sd_floor) {
  if (deviations.empty()) return 0.0;
  return std::max(kMadToSd * median_of(deviations), sd_floor);
}

struct LogMoments {
  double mean = 0.0;
  double sum_of_squares = 0.0;  // of deviations from the mean
  int count = 0;
};

LogMoments moments_of(const std::vector<double>& logs) {
  LogMoments m;
  m.count = static_cast<int>(logs.size());
  if (m.count == 0) return m;
  for (double x : logs) m.mean += x;
  m.mean /= m.count;
  for (double x : logs) m.sum_of_squares += (x - m.mean) * (x - m.mean);
  return m;
}

// Interval and p-values of a log-scale difference `estimate` with standard error `standard_error`.
ProcessEvidence evidence_of(double estimate, double sd, double standard_error, double df, double confidence) {
  ProcessEvidence e;
  e.judged = true;
  e.df = df;
  e.sd_pct = 100.0 * sd;
  e.ratio = std::exp(estimate);
  const double half_width = student_t_quantile(0.5 + 0.5 * confidence, df) * standard_error;
  e.ci_low = std::exp(estimate - half_width);
  e.ci_high = std::exp(estimate + half_width);
  const double t = estimate / standard_error;
  e.p_slower = student_t_upper_tail(t, df);
  e.p_faster = student_t_upper_tail(-t, df);
  return e;
}

}  // namespace

ProcessEvidence compare_process_medians(const std::vector<double>& before, const std::vector<double>& now,
                                        double confidence, double sd_floor) {
  const std::vector<double> before_logs = logs_of(before);
  const std::vector<double> now_logs = logs_of(now);
  std::vector<double> deviations;
  add_deviations(before_logs, kMinProcessesForOutliers, deviations);
  add_deviations(now_logs, kMinProcessesForOutliers, deviations);
  const double robust_sd = robust_sd_of(deviations, sd_floor);
  int outliers = 0;
  const LogMoments b = moments_of(robust_sd > 0.0 ? without_outliers(before_logs, kMinProcessesForOutliers, robust_sd, outliers) : before_logs);
  const LogMoments n = moments_of(robust_sd > 0.0 ? without_outliers(now_logs, kMinProcessesForOutliers, robust_sd, outliers) : now_logs);
  const int df = std::max(b.count - 1, 0) + std::max(n.count - 1, 0);
  if (b.count == 0 || n.count == 0 || df == 0) return {};
  const double sd = std::max(std::sqrt((b.sum_of_squares + n.sum_of_squares) / df), sd_floor);
  const double standard_error = sd * std::sqrt(1.0 / b.count + 1.0 / n.count);
  ProcessEvidence e = evidence_of(n.mean - b.mean, sd, standard_error, df, confidence);
  e.outliers = outliers;
  return e;
}

ProcessEvidence compare_paired_ratios(const std::vector<double>& ratios, double confidence, double sd_floor) {
  const std::vector<double> logs = logs_of(ratios);
  std::vector<double> deviations;
  add_deviations(logs, kMinPairsForOutliers, deviations);
  const double robust_sd = robust_sd_of(deviations, sd_floor);
  int outliers = 0;
  const LogMoments d = moments_of(robust_sd > 0.0 ? without_outliers(logs, kMinPairsForOutliers, robust_sd, outliers) : logs);
  if (d.count < 2) return {};
  const double df = d.count - 1;
  const double sd = std::max(std::sqrt(d.sum_of_squares / df), sd_floor);
  ProcessEvidence e = evidence_of(d.mean, sd, sd / std::sqrt(static_cast<double>(d.count)), df, confidence);
  e.outliers = outliers;
  return e;
}

}  // namespace gpuperf::gate
