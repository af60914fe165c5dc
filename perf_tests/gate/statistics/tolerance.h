#pragma once
// Which tolerance a benchmark is judged with, and why: a hand override beats its family's, which beats
// the baseline's default (its same-GPU default for results from a GPU that recorded it); and no tolerance
// is tighter than a cycle count can resolve. Noise is not the tolerance's business: the interval carries
// it (statistics/process_inference.h). The tolerance is the smallest change that matters.

#include <string>

#include "gate/inputs/baseline.h"

namespace gpuperf::gate {

// Cycle counts are integers: a median, and so a ratio of two, can be a cycle off, so a tolerance below this
// many cycles would call rounding a change (1% of a 55-cycle latency is half a cycle).
inline constexpr double kCycleResolution = 2.0;  // [cycles]

// Tolerance::source when the baseline's same_gpu_tolerance_pct replaced its default.
inline constexpr const char* kSameGpuDefaultSource = "default, same GPU as the baseline";

struct Tolerance {
  double pct = 0.0;    // [percent]
  std::string source;  // "benchmark", "family smem_latency", "default", kSameGpuDefaultSource,
                       // "resolution floor (2 cycles of 44)"
};

// The family of a benchmark name: the part before the first '/' ("reduction" of "reduction/x/n:1").
std::string family_of(const std::string& benchmark_name);

// `same_gpu`: every result compared comes from a GPU listed in the baseline's recorded.gpu_uuids (the
// comparator decides it once per comparison). Then baseline.same_gpu_tolerance_pct, where set, replaces
// the default; overrides and the resolution floor apply as always.
Tolerance resolve_tolerance(const Baseline& baseline, const std::string& name, const BaselineEntry& entry,
                            bool same_gpu);

// `tolerance`, widened for a benchmark in `unit` ("cycles") to kCycleResolution of its `median` (the
// baseline's, or build A's in A/B mode). Both comparators apply it.
Tolerance at_least_cycle_resolution(Tolerance tolerance, const std::string& unit, double median);

}  // namespace gpuperf::gate
