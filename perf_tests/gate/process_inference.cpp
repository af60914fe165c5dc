#include "gate/process_inference.h"

#include <algorithm>
#include <cmath>

#include "gate/student_t.h"

namespace gpuperf::gate {
namespace {

struct LogMoments {
  double mean = 0.0;
  double sum_of_squares = 0.0;  // of deviations from the mean
  int count = 0;
};

LogMoments log_moments(const std::vector<double>& values) {
  LogMoments m;
  m.count = static_cast<int>(values.size());
  if (m.count == 0) return m;
  for (double v : values) m.mean += std::log(v);
  m.mean /= m.count;
  for (double v : values) m.sum_of_squares += (std::log(v) - m.mean) * (std::log(v) - m.mean);
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
  const LogMoments b = log_moments(before);
  const LogMoments n = log_moments(now);
  const int df = std::max(b.count - 1, 0) + std::max(n.count - 1, 0);
  if (b.count == 0 || n.count == 0 || df == 0) return {};
  const double sd = std::max(std::sqrt((b.sum_of_squares + n.sum_of_squares) / df), sd_floor);
  const double standard_error = sd * std::sqrt(1.0 / b.count + 1.0 / n.count);
  return evidence_of(n.mean - b.mean, sd, standard_error, df, confidence);
}

ProcessEvidence compare_paired_ratios(const std::vector<double>& ratios, double confidence, double sd_floor) {
  const LogMoments d = log_moments(ratios);
  if (d.count < 2) return {};
  const double df = d.count - 1;
  const double sd = std::max(std::sqrt(d.sum_of_squares / df), sd_floor);
  return evidence_of(d.mean, sd, sd / std::sqrt(static_cast<double>(d.count)), df, confidence);
}

}  // namespace gpuperf::gate
