#pragma once
// Ordinary least squares for one predictor, y = slope * x + intercept, with the coefficient of
// determination. Host-only and free of CUDA so that its unit test runs on any machine.

#include <vector>

namespace gpuperf::smem_latency {

struct LinearFit {
  double slope = 0.0;
  double intercept = 0.0;
  // 1 - SS_res / SS_tot; 1 when every y is the same and the fit is exact (SS_tot = SS_res = 0).
  double r_squared = 0.0;
};

// Throws std::invalid_argument when x and y differ in length, hold fewer than two points, hold a
// non-finite value, or when every x is the same (the slope is then undefined).
LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace gpuperf::smem_latency
