#include "gate/statistics/process_inference.h"

#include <algorithm>
#include <cmath>

#include "gate/statistics/log_scale.h"

namespace gpuperf::gate {

ProcessEvidence compare_process_medians(const std::vector<double>& before, const std::vector<double>& now,
                                        double confidence, double sd_floor) {
  const std::vector<double> before_logs = log_scale::logs_of(before);
  const std::vector<double> now_logs = log_scale::logs_of(now);
  std::vector<double> deviations;
  log_scale::add_deviations(before_logs, kMinProcessesForOutliers, deviations);
  log_scale::add_deviations(now_logs, kMinProcessesForOutliers, deviations);
  const double robust_sd = log_scale::robust_sd_of(deviations, sd_floor);
  int outliers = 0;
  const log_scale::Moments b =
      log_scale::moments_without_outliers(before_logs, kMinProcessesForOutliers, robust_sd, outliers);
  const log_scale::Moments n =
      log_scale::moments_without_outliers(now_logs, kMinProcessesForOutliers, robust_sd, outliers);
  const int df = std::max(b.count - 1, 0) + std::max(n.count - 1, 0);
  if (b.count == 0 || n.count == 0 || df == 0) return {};
  const double sd = std::max(std::sqrt((b.sum_of_squares + n.sum_of_squares) / df), sd_floor);
  const double standard_error = sd * std::sqrt(1.0 / b.count + 1.0 / n.count);
  ProcessEvidence e = log_scale::evidence_of(n.mean - b.mean, sd, standard_error, df, confidence);
  e.outliers = outliers;
  return e;
}

ProcessEvidence compare_paired_ratios(const std::vector<double>& ratios, double confidence, double sd_floor) {
  const std::vector<double> logs = log_scale::logs_of(ratios);
  std::vector<double> deviations;
  log_scale::add_deviations(logs, kMinPairsForOutliers, deviations);
  const double robust_sd = log_scale::robust_sd_of(deviations, sd_floor);
  int outliers = 0;
  const log_scale::Moments d = log_scale::moments_without_outliers(logs, kMinPairsForOutliers, robust_sd, outliers);
  if (d.count < 2) return {};
  const double df = d.count - 1;
  const double sd = std::max(std::sqrt(d.sum_of_squares / df), sd_floor);
  ProcessEvidence e =
      log_scale::evidence_of(d.mean, sd, sd / std::sqrt(static_cast<double>(d.count)), df, confidence);
  e.outliers = outliers;
  return e;
}

}  // namespace gpuperf::gate
