#pragma once
// Fault injection: makes chosen benchmarks slower by a chosen percentage with real GPU work inside the
// timed region, so that the gate's sensitivity can be measured end to end (scripts/calibrate.sh).
//
//   GPUPERF_INJECT_SLOWDOWN='<regex>=<percent>[;<regex>=<percent>...]'
//
// A matching benchmark gets a one-thread spin kernel before each sample's work, sized to <percent> of
// the benchmark's own median time measured with a zero-length spin. "=0" still launches the zero-length
// spin: compare an injected run only with a run that had the same rule at 0, so that both pay the
// launch of the extra kernel and the difference is the spin alone.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <cuda_runtime.h>

namespace gpuperf {

struct SlowdownRule {
  std::string pattern;
  std::regex regex;
  double percent = 0.0;
};

// Throws std::invalid_argument saying what is wrong with the specification.
std::vector<SlowdownRule> parse_slowdown_rules(const std::string& spec);

// The percent of the first rule whose regex matches the whole benchmark name.
std::optional<double> slowdown_for(const std::vector<SlowdownRule>& rules, const std::string& name);

// Busy-waits one GPU thread for a given time, measured in SM clock cycles at a rate calibrated once.
class SpinDelay {
 public:
  SpinDelay();
  void enqueue(cudaStream_t stream, double microseconds) const;

 private:
  double cycles_per_us_ = 0.0;
};

}  // namespace gpuperf
