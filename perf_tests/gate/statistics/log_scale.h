#pragma once
// The steps every process-median comparison shares (process_inference.h, runner_history.h): medians taken
// on the log scale, a robust spread that a few outliers do not move, and the interval and p-values of a
// log-scale difference.

#include <vector>

#include "gate/statistics/process_inference.h"

namespace gpuperf::gate::log_scale {

std::vector<double> logs_of(const std::vector<double>& values);
double median_of(std::vector<double> values);

// The absolute deviations of a group from its median (none for a group smaller than min_group).
void add_deviations(const std::vector<double>& logs, int min_group, std::vector<double>& deviations);
// `logs` without the values beyond kOutlierCutoffSd robust sds of their median (a group smaller than
// min_group is kept whole); counts what it drops.
std::vector<double> without_outliers(const std::vector<double>& logs, int min_group, double robust_sd, int& dropped);
// 1.4826 x the median of `deviations` (the sd of a normal, unmoved by a few outliers), at least sd_floor;
// 0 when there are none.
double robust_sd_of(const std::vector<double>& deviations, double sd_floor);

struct Moments {
  double mean = 0.0;
  double sum_of_squares = 0.0;  // of deviations from the mean
  int count = 0;
};
Moments moments_of(const std::vector<double>& logs);
// The moments of `logs` without their outliers (without_outliers; all of them where robust_sd is 0).
Moments moments_without_outliers(const std::vector<double>& logs, int min_group, double robust_sd, int& dropped);

// Interval (at `confidence`) and p-values of a log-scale difference `estimate` with standard error
// `standard_error` on `df` degrees of freedom; `sd` is the process spread reported.
ProcessEvidence evidence_of(double estimate, double sd, double standard_error, double df, double confidence);

}  // namespace gpuperf::gate::log_scale
