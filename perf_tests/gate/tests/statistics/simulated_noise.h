#pragma once
// The noise both gate simulations draw (test_simulation.cpp, test_runner_history_simulation.cpp), from
// measurements on H200s and H100s (docs/results.md, baselines/README.md):
// - each process lands at its own offset: log-normal, standard deviation 0.1-0.7% for most benchmarks
//   and up to 3.4% for atomics-bound ones (simulated: 0.1% to 3%);
// - one process in 50 is an outlier, 5-30% slow (before the launch gate, 2 of 8 processes timed a 14 us
//   kernel 8% and 28% slow; interference slows, it never speeds up);
// - inside a process the samples vary far less (0.1-0.2% for the median of 20-30 samples).
// And what the scripts do that both simulate: a suite of 108 benchmarks, judged at 2% on the GPU that
// recorded the baseline and 4% on another.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "gate/judging/comparison.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::simulation {

inline constexpr int kSuiteBenchmarks = 108;
inline constexpr double kSameGpuTolerancePct = 2.0;
inline constexpr double kOtherMachineTolerancePct = 4.0;

inline constexpr double kOutlierProbability = 0.02;
inline constexpr double kOutlierLow = 0.05;
inline constexpr double kOutlierHigh = 0.30;
inline constexpr double kWithinProcessSd = 0.0015;  // of a process median [relative]
inline constexpr int kSamplesPerProcess = 5;        // kMinSamples: the gate needs no more to take a median
inline constexpr double kCenterUs = 100.0;          // every simulated benchmark's level [us]

class Noise {
 public:
  explicit Noise(std::uint64_t seed) : rng_(seed) {}
  double uniform() { return (static_cast<double>(rng_.next() >> 11) + 0.5) * 0x1.0p-53; }
  double normal() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()); }
  // A process's log offset: its own level, sometimes an outlier.
  double process_offset(double process_sd) {
    double offset = process_sd * normal();
    if (uniform() < kOutlierProbability) offset += std::log1p(kOutlierLow + (kOutlierHigh - kOutlierLow) * uniform());
    return offset;
  }

 private:
  SplitMix64 rng_;
};

// The samples of one process whose benchmark sits at `log_level` (the process's own offset added) [us].
inline std::vector<double> process_samples(double log_level, double process_sd, Noise& noise) {
  const double center = kCenterUs * std::exp(log_level + noise.process_offset(process_sd));
  std::vector<double> samples;
  for (int s = 0; s < kSamplesPerProcess; ++s) samples.push_back(center * (1.0 + kWithinProcessSd * noise.normal()));
  return samples;
}

// "sim/benchmark0/n:1" ... : the simulated suite's names (row index = benchmark number).
inline std::vector<std::string> suite_names() {
  std::vector<std::string> names;
  for (int i = 0; i < kSuiteBenchmarks; ++i) names.push_back("sim/benchmark" + std::to_string(i) + "/n:1");
  return names;
}

// The benchmarks a comparison left AMBIGUOUS: what the next look re-measures.
inline std::set<std::string> ambiguous_names(const Comparison& comparison) {
  std::set<std::string> names;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (row.verdict == Verdict::kAmbiguous) names.insert(row.name);
  }
  return names;
}

// "3.0%" of a fraction 0.03, with `decimals` decimals.
inline std::string pct(double fraction, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f%%", decimals, 100.0 * fraction);
  return text;
}

}  // namespace gpuperf::gate::simulation
