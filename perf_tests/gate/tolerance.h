#pragma once
// Which tolerance a benchmark is judged with, and why: a hand override beats its family's, which beats
// the baseline's default; and no tolerance is tighter than the noise the baseline itself showed.

#include <string>

#include "gate/baseline.h"

namespace gpuperf::gate {

// The tolerance is at least this many times the run-to-run spread recorded in the baseline: a benchmark
// whose process-to-process medians moved by 1.5% while recording cannot be held to 1%.
inline constexpr double kNoiseFloorFactor = 2.0;

struct Tolerance {
  double pct = 0.0;    // [percent]
  std::string source;  // "benchmark", "family smem_latency", "default", "noise floor (2 x spread 1.20%)"
};

// The family of a benchmark name: the part before the first '/' ("reduction" of "reduction/x/n:1").
std::string family_of(const std::string& benchmark_name);

Tolerance resolve_tolerance(const Baseline& baseline, const std::string& name, const BaselineEntry& entry);

}  // namespace gpuperf::gate
