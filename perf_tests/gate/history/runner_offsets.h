#pragma once
// The runners' histories of a baseline's code, from the history store: what perf_gate history-offsets
// writes (inputs/runner_history.h) and a stored check judges each runner against
// (statistics/runner_history.h).
//
// A run counts for a benchmark only where its code hash for that benchmark is the hash of the baseline's
// fingerprint (store_input.h, code_hash): a code change is never absorbed as a runner's offset, and a
// benchmark whose baseline entry has no fingerprint gets no history at all. Every verdict counts, SLOW
// included: leaving out the runs a runner's offset made SLOW would bias its level towards the baseline's.
// Runs with no GPU UUID, or with no timed process (UNCHANGED, skipped), are left out. Each runner keeps its
// last kMaxRunnerHistoryRuns runs.

#include <map>
#include <string>

#include "gate/history/series.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/runner_history.h"

namespace gpuperf::gate::history {

class RunnerHistoryBuilder {
 public:
  // InputError when the baseline records no date (the file's key to its code).
  explicit RunnerHistoryBuilder(const Baseline& baseline);
  // One benchmark's series of the baseline's GPU model (Store::each_series order, oldest point first).
  void add(const Series& series);
  const RunnerHistory& history() const { return history_; }

 private:
  const Baseline& baseline_;
  RunnerHistory history_;
};

// What perf_gate history-offsets says of one runner: "GPU-...: 104 of 108 benchmarks with 10 runs or more,
// offsets -3.9% to +1.2% (median -0.4%)", then the benchmarks whose level trends (statistics/
// runner_history.h): "; 3 moved over their runs (...) and are judged against their last 10 runs", "; DRIFTING
// in 2 benchmarks (...): judged as another machine, against the baseline, until it settles". `benchmarks`:
// the runner's, each a benchmark of `baseline`.
std::string runner_summary(const std::string& uuid, const std::map<std::string, RunnerBenchmarkHistory>& benchmarks,
                           const Baseline& baseline);

}  // namespace gpuperf::gate::history
