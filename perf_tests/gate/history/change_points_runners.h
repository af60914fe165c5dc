#pragma once
// The runners' offsets, taken out of a series before its change points are found.
//
// Runners of one GPU model time a benchmark each at its own level (0.1% typically, 1.5% and more for a
// few benchmarks: baselines/README.md), and CI runs a job on whichever runner is free, so a series hops
// between levels: a stretch of runs on a slower runner is a real change of distribution, which E-Divisive
// finds (simulated: half of the clean series of 100 runs over 3 runners 0.5-1.6% apart had a change
// point; tests/history/test_history_simulation.cpp).
//
// A runner's offset is measured against the others where they interleave: every pair of points at most
// kRunnerPairWindow runs apart on different runners gives a difference of logs; the median of a pair
// of runners' differences is the difference of their offsets (a code change between two runs of a pair
// moves few of them); offsets solve those medians by least squares, weighted by their counts, and are
// centred on the points (the adjusted series keeps the series' level). Runners that never interleave
// with the others keep offset 0: a change of runner there is indistinguishable from a change of code.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "gate/history/series.h"

namespace gpuperf::gate::history {

constexpr std::size_t kRunnerPairWindow = 3;   // the farthest two points compared [runs]
constexpr std::size_t kMinRunnerPairs = 5;     // the fewest differences that measure two runners' offsets

struct RunnerAdjusted {
  std::vector<double> values;               // each point's value divided by its runner's factor
  std::map<std::string, double> offset_pct; // by runner (gpu_uuid): its level against the series' [%]
};

// The series' values with the runners' offsets taken out. Values must be finite and positive (throws
// formats::InputError otherwise, as find_change_points does); a point's runner is its gpu_uuid.
RunnerAdjusted without_runner_offsets(const Series& series);

}  // namespace gpuperf::gate::history
