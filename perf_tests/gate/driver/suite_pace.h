#pragma once
// How long a team's suite spends on each sample when its team's arguments do not say (team_suite.h): the
// driver asks each process for --repetitions samples of every benchmark and judges each process's median of
// them, so a sample needs to last only long enough to be steady, not the half second the tools default to.
// At Google Benchmark's default (0.5 s a repetition) a first baseline of a 3-benchmark suite took 690 s on an
// H200 (10 processes of 69 s); with --benchmark_min_time=0.05s its stored check took 47 s instead of 210 s,
// with the same verdicts.
// - Google Benchmark: --benchmark_min_time=<kGbenchRepetitionTimeS>, unless an argument starts with
//   --benchmark_min_time. A MinTime() or Iterations() set in the suite's code wins over the flag (Google
//   Benchmark's rule), so such a benchmark keeps its own pace.
// - nvbench: --min-time <kNvbenchStateTimeS>, unless the arguments set --min-time, --max-noise,
//   --stopping-criterion or --timeout (the team has tuned nvbench's stopping rule). --max-noise (0.5%) is
//   left at nvbench's default: it is the sharpness of each process's median, not a cost to cut.
// The choice is said once per suite (a note on stderr); docs/suites.md says how a team overrides it.

#include <string>
#include <vector>

namespace gpuperf::gate::driver {

// Google Benchmark's minimum time of one repetition the driver chooses [s]. The arithmetic of the target (a
// first baseline of 3 benchmarks within 60 s): 10 processes x 3 benchmarks x 30 repetitions x 0.02 s = 18 s
// of timed work; wall time runs about 1.3 x the manual time it counts (from the H200 numbers above: 69 s at
// 0.5 s, 15.7 s at 0.05 s per process), 24 s, leaving ~3.5 s a process for CUDA's start and set-up. To be
// measured on a GPU and tuned here (docs/suites.md).
inline constexpr double kGbenchRepetitionTimeS = 0.02;  // [s]

// nvbench's --min-time the driver chooses [s]: the GPU time a state accumulates before its stopping rule
// (stdrel) may end it. Unlike Google Benchmark's, it counts all of a state's samples together, and the
// driver already asks --min-samples (30): 0.05 s gives a state of a 10 us kernel 5000 samples, a tenth of
// nvbench's default 0.5 s; a slow kernel is bounded by the 30 samples.
inline constexpr double kNvbenchStateTimeS = 0.05;  // [s]

// What the driver adds to a team's arguments, and the sentence that says so.
struct PaceChoice {
  std::vector<std::string> added;  // empty where the team's arguments set the pace themselves
  std::string note;                // "" where nothing is added
};

// For a Google Benchmark suite: {"--benchmark_min_time=0.02"} unless `arguments` set it.
PaceChoice gbench_pace(const std::vector<std::string>& arguments);

// For an nvbench suite: {"--min-time", "0.05"} unless `arguments` set nvbench's stopping rule.
PaceChoice nvbench_pace(const std::vector<std::string>& arguments);

}  // namespace gpuperf::gate::driver
