#include "smem_latency/least_squares.h"

#include <cmath>
#include <cstddef>
#include <stdexcept>

namespace gpuperf::smem_latency {

LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw std::invalid_argument("fit_line: x and y differ in length");
  const std::size_t n = x.size();
  if (n < 2) throw std::invalid_argument("fit_line: needs at least two points");
  double sum_x = 0.0;
  double sum_y = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    if (!std::isfinite(x[k]) || !std::isfinite(y[k])) throw std::invalid_argument("fit_line: non-finite point");
    sum_x += x[k];
    sum_y += y[k];
  }
  const double mean_x = sum_x / static_cast<double>(n);
  const double mean_y = sum_y / static_cast<double>(n);
  // Centred sums: no cancellation between large sum(x^2) and n * mean^2.
  double sxx = 0.0;
  double sxy = 0.0;
  double syy = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double dx = x[k] - mean_x;
    const double dy = y[k] - mean_y;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx == 0.0) throw std::invalid_argument("fit_line: every x is the same");

  LinearFit fit;
  fit.slope = sxy / sxx;
  fit.intercept = mean_y - fit.slope * mean_x;
  double ss_res = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double residual = y[k] - (fit.slope * x[k] + fit.intercept);
    ss_res += residual * residual;
  }
  fit.r_squared = syy == 0.0 ? (ss_res == 0.0 ? 1.0 : 0.0) : 1.0 - ss_res / syy;
  return fit;
}

}  // namespace gpuperf::smem_latency
