#include "gate/statistics/log_scale.h"

#include <algorithm>
#include <cmath>

#include "gate/statistics/student_t.h"

namespace gpuperf::gate::log_scale {

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

namespace {
// 1.4826 x the median absolute deviation: the sd of a normal, unmoved by a few outliers.
constexpr double kMadToSd = 1.4826;
}  // namespace

double robust_sd_of(const std::vector<double>& deviations, double sd_floor) {
  if (deviations.empty()) return 0.0;
  return std::max(kMadToSd * median_of(deviations), sd_floor);
}

Moments moments_of(const std::vector<double>& logs) {
  Moments m;
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


Moments moments_without_outliers(const std::vector<double>& logs, int min_group, double robust_sd, int& dropped) {
  return moments_of(robust_sd > 0.0 ? without_outliers(logs, min_group, robust_sd, dropped) : logs);
}

}  // namespace gpuperf::gate::log_scale
