#pragma once
// The noise of a benchmark's runs on main, as the history simulations draw it (test_history_simulation.cpp,
// test_changes_simulation.cpp). A point is one run: the median of 3 process medians, as the stored mode's
// first look measures (scripts/perf_test.sh).
// - each process lands at its own log offset, standard deviation process_sd (0.44%: the typical
//   benchmark; 1.5%: a heavier one); one process in 50 is an outlier, 5-30% slow;
// - inside a process, the median of its samples varies by 0.15%;
// - one run in 100 is bad as a whole (a throttled or shared GPU): 2-15% slow, a heavy tail the median
//   of its processes cannot remove;
// - a series spans a pool of 3 runners of the GPU model, each with its own offset for the benchmark,
//   0.5-1.6% either way; a run lands on the runner of the previous run, and on a random runner of the
//   pool one time in 5 (CI takes whichever is free): runners change now and then, for a few runs.

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "gate/history/series.h"
#include "gate/statistics/statistics.h"
#include "gate/tests/history/test_change_points_support.h"

namespace gpuperf::gate::history::testing {

inline constexpr int kModelProcessesPerRun = 3;
inline constexpr double kModelOutlierProbability = 0.02;
inline constexpr double kModelOutlierLow = 0.05;
inline constexpr double kModelOutlierHigh = 0.30;
inline constexpr double kModelWithinProcessSd = 0.0015;
inline constexpr double kModelBadRunProbability = 0.01;
inline constexpr double kModelBadRunLow = 0.02;
inline constexpr double kModelBadRunHigh = 0.15;
inline constexpr int kModelRunners = 3;
inline constexpr double kModelRunnerOffsetLow = 0.005;
inline constexpr double kModelRunnerOffsetHigh = 0.016;
inline constexpr double kModelRunnerChangeProbability = 0.2;

// The runners one benchmark's series lands on: their log offsets, and the runner of the latest run.
struct RunnerPool {
  double offsets[kModelRunners] = {};
  std::size_t runner = 0;
};

inline RunnerPool draw_runner_pool(Noise& noise) {
  RunnerPool pool;
  for (double& offset : pool.offsets) {
    offset = (noise.uniform() < 0.5 ? -1.0 : 1.0) * noise.uniform(kModelRunnerOffsetLow, kModelRunnerOffsetHigh);
  }
  pool.runner = noise.below(kModelRunners);
  return pool;
}

// The next run at true log level `level` (0: the benchmark's first level; the values are 100 * e^level):
// its runner "GPU-<r>", its process medians and their median.
inline SeriesPoint simulated_run(double level, double process_sd, RunnerPool& pool, Noise& noise) {
  if (noise.uniform() < kModelRunnerChangeProbability) pool.runner = noise.below(kModelRunners);
  double run = level + pool.offsets[pool.runner];
  if (noise.uniform() < kModelBadRunProbability) run += std::log1p(noise.uniform(kModelBadRunLow, kModelBadRunHigh));
  std::vector<double> processes;
  for (int p = 0; p < kModelProcessesPerRun; ++p) {
    double offset = process_sd * noise.normal();
    if (noise.uniform() < kModelOutlierProbability) offset += std::log1p(noise.uniform(kModelOutlierLow, kModelOutlierHigh));
    processes.push_back(100.0 * std::exp(run + offset) * (1.0 + kModelWithinProcessSd * noise.normal()));
  }
  SeriesPoint point;
  point.gpu_uuid = "GPU-" + std::to_string(pool.runner);
  point.process_medians = processes;
  point.value = median(processes);
  return point;
}

}  // namespace gpuperf::gate::history::testing
