#pragma once
// Series for the history tests: levels with seeded Gaussian noise, so every run of a test sees the same values.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gate/history/series.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::history::testing {

// The relative noise of one point: the median of 3 processes at a process sd of 0.44%.
inline constexpr double kNoiseSd = 0.003;

// Seeded random numbers for the simulations: uniform on (0, 1) or (low, high), standard normal
// (Box-Muller), and a whole number below n.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return (static_cast<double>(rng_.next() >> 11) + 0.5) * 0x1.0p-53; }
  double uniform(double low, double high) { return low + (high - low) * uniform(); }
  double normal() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()); }
  std::size_t below(std::size_t n) { return rng_.below(static_cast<std::uint32_t>(n)); }

 private:
  SplitMix64 rng_;
};

class SeriesMaker {
 public:
  explicit SeriesMaker(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return (static_cast<double>(rng_.next() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()); }
  // levels[i] * (1 + noise_sd * z): one value per level [the levels' unit].
  std::vector<double> values(const std::vector<double>& levels, double noise_sd) {
    std::vector<double> out;
    for (double level : levels) out.push_back(level * (1.0 + noise_sd * normal()));
    return out;
  }

 private:
  SplitMix64 rng_;
};

// `count` points at `level`.
inline std::vector<double> flat(std::size_t count, double level) { return std::vector<double>(count, level); }

// Appends `count` points at `level` to `levels`.
inline void append(std::vector<double>& levels, std::size_t count, double level) {
  levels.insert(levels.end(), count, level);
}

// A series of `values`, point i at commit "c<i>", judged against baseline `baseline_recorded`.
inline Series series_of(const std::vector<double>& values, const std::string& baseline_recorded = "2026-11-01T00:00:00Z") {
  Series series;
  series.gpu_slug = "simulated-gpu";
  series.benchmark = "sim/benchmark/n:1";
  series.unit = "us";
  for (std::size_t i = 0; i < values.size(); ++i) {
    SeriesPoint p;
    p.run_key = "o/r/" + std::to_string(i) + "/GPU-0";
    p.commit = "c" + std::to_string(i);
    p.gpu_uuid = "GPU-0";
    p.process_medians = {values[i]};
    p.value = values[i];
    p.baseline_recorded = baseline_recorded;
    series.points.push_back(p);
  }
  return series;
}

}  // namespace gpuperf::gate::history::testing
