#include "gate/statistics/process_inference.h"

#include <algorithm>
#include <cmath>

#include "gate/statistics/log_scale.h"

namespace gpuperf::gate {
using namespace log_scale;

ProcessEvidence compare_process_medians(const std::vector<double>& before, const std::vector<double>& now,
                                        double confidence, double sd_floor) {
  const std::vector<double> before_logs = logs_of(before);
  const std::vector<double> now_logs = logs_of(now);
  std::vector<double> deviations;
  add_deviations(before_logs, kMinProcessesForOutliers, deviations);
  add_deviations(now_logs, kMinProcessesForOutliers, deviations);
  const double robust_sd = robust_sd_of(deviations, sd_floor);
  int outliers = 0;
  const Moments b = moments_of(robust_sd > 0.0 ? without_outliers(before_logs, kMinProcessesForOutliers, robust_sd, outliers) : before_logs);
  const Moments n = moments_of(robust_sd > 0.0 ? without_outliers(now_logs, kMinProcessesForOutliers, robust_sd, outliers) : now_logs);
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
  const Moments d = moments_of(robust_sd > 0.0 ? without_outliers(logs, kMinPairsForOutliers, robust_sd, outliers) : logs);
  if (d.count < 2) return {};
  const double df = d.count - 1;
  const double sd = std::max(std::sqrt(d.sum_of_squares / df), sd_floor);
  ProcessEvidence e = evidence_of(d.mean, sd, sd / std::sqrt(static_cast<double>(d.count)), df, confidence);
  e.outliers = outliers;
  return e;
}

}  // namespace gpuperf::gate
