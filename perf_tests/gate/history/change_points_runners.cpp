#include "gate/history/change_points_runners.h"

#include <cmath>

#include "formats/input_error.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::history {

RunnerAdjusted without_runner_offsets(const Series& series) {
  const std::size_t n = series.points.size();
  std::map<std::string, std::size_t> ids;
  std::vector<std::size_t> runner(n);
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const SeriesPoint& p = series.points[i];
    if (!std::isfinite(p.value) || p.value <= 0.0) {
      throw formats::InputError("runner offsets of '" + series.benchmark + "': point " + std::to_string(i) + " (" +
                                p.run_key + ") has the value " + std::to_string(p.value) +
                                " - every value must be a finite, positive measurement");
    }
    runner[i] = ids.emplace(p.gpu_uuid, ids.size()).first->second;
    x[i] = std::log(p.value);
  }
  const std::size_t r = ids.size();
  // differences[a * r + b], a < b: log(point on a) - log(point on b), for nearby points.
  std::vector<std::vector<double>> differences(r * r);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n && j <= i + kRunnerPairWindow; ++j) {
      if (runner[i] == runner[j]) continue;
      const bool ordered = runner[i] < runner[j];
      const std::size_t a = ordered ? runner[i] : runner[j];
      const std::size_t b = ordered ? runner[j] : runner[i];
      differences[a * r + b].push_back(ordered ? x[i] - x[j] : x[j] - x[i]);
    }
  }
  // Weighted least squares of o_a - o_b = m_ab by Gauss-Seidel (a few runners: it converges at once).
  std::vector<double> median_difference(r * r, 0.0);
  std::vector<double> weight(r * r, 0.0);
  for (std::size_t a = 0; a < r; ++a) {
    for (std::size_t b = a + 1; b < r; ++b) {
      std::vector<double>& d = differences[a * r + b];
      if (d.size() < kMinRunnerPairs) continue;
      weight[a * r + b] = weight[b * r + a] = static_cast<double>(d.size());
      median_difference[a * r + b] = median(d);
      median_difference[b * r + a] = -median_difference[a * r + b];
    }
  }
  std::vector<double> offset(r, 0.0);
  for (int sweep = 0; sweep < 200; ++sweep) {
    for (std::size_t a = 0; a < r; ++a) {
      double sum = 0.0;
      double total = 0.0;
      for (std::size_t b = 0; b < r; ++b) {
        sum += weight[a * r + b] * (offset[b] + median_difference[a * r + b]);
        total += weight[a * r + b];
      }
      if (total > 0.0) offset[a] = sum / total;
    }
  }
  // Centred on the points: the mean offset over the points is 0.
  double mean = 0.0;
  for (std::size_t i = 0; i < n; ++i) mean += offset[runner[i]] / static_cast<double>(n);
  for (double& o : offset) o -= mean;

  RunnerAdjusted adjusted;
  for (std::size_t i = 0; i < n; ++i) adjusted.values.push_back(std::exp(x[i] - offset[runner[i]]));
  for (const auto& [uuid, id] : ids) adjusted.offset_pct[uuid] = 100.0 * std::expm1(offset[id]);
  return adjusted;
}

}  // namespace gpuperf::gate::history
