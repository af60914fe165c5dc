#pragma once
// Which tolerance a benchmark is judged with, and why: a hand override beats its family's, which beats
// the baseline's default (its same-GPU default for results from a GPU that recorded it); and no tolerance
// is tighter than a cycle count can resolve. Noise is not the tolerance's business: the interval carries
// it (statistics/process_inference.h). The tolerance is the smallest change that matters.

#include <optional>
#include <string>

#include "gate/inputs/baseline.h"

namespace gpuperf::gate {

// Cycle counts are integers: a median, and so a ratio of two, can be a cycle off, so a tolerance below this
// many cycles would call rounding a change (1% of a 55-cycle latency is half a cycle).
inline constexpr double kCycleResolution = 2.0;  // [cycles]

// Tolerance::source when the baseline's same_gpu_tolerance_pct replaced its default.
inline constexpr const char* kSameGpuDefaultSource = "default, same GPU as the baseline";
// Tolerance::source of the default for results from another GPU than the one that recorded the baseline
// (recorded.gpu_uuids names one): nothing says how far machines of the model differ.
inline constexpr const char* kOneGpuRecordedSource = "default: one GPU recorded";

// The cross-machine tolerance of a benchmark recorded on several GPUs (BaselineEntry::machine_medians),
// for results from a GPU that is not one of them: max(the same-GPU tolerance, kMachineSpreadK x the
// machines' standard deviation). The sd is estimated from the machine levels (log scale) and shrunk toward
// the file's typical machine sd (the median of its benchmarks' variances), as if that were
// kMachineSpreadPriorDf more machines' worth of evidence: 3 or 4 levels estimate an sd badly (half the time below 0.75 of the true one with 3), and a sd that
// came out small by chance would fail an unlucky new machine. Both constants are chosen by simulation
// (tests/statistics/test_machine_spread_simulation.cpp, docs/statistics.md).
inline constexpr double kMachineSpreadK = 4.0;
inline constexpr double kMachineSpreadPriorDf = 4.0;

// The spread between the machines of one benchmark, as the tolerance uses it.
struct MachineSpread {
  int machines = 0;             // levels recorded
  double raw_sd_pct = 0.0;      // the sample sd of the levels alone [percent, log scale]
  double sd_pct = 0.0;          // shrunk toward the file's typical sd: what the tolerance uses [percent]
};

// The spread of `entry`'s machine levels, shrunk toward the typical spread of the entries of `baseline`
// with levels; nullopt when the entry has fewer than kMinMachinesForSpread levels.
std::optional<MachineSpread> machine_spread(const Baseline& baseline, const BaselineEntry& entry);

struct Tolerance {
  double pct = 0.0;    // [percent]
  std::string source;  // "benchmark", "family smem_latency", "default", kSameGpuDefaultSource,
                       // "resolution floor (2 cycles of 44)"
};

// The family of a benchmark name: the part before the first '/' ("reduction" of "reduction/x/n:1").
std::string family_of(const std::string& benchmark_name);

// `same_gpu`: every result compared comes from a GPU listed in the baseline's recorded.gpu_uuids (the
// comparator decides it once per comparison). Then baseline.same_gpu_tolerance_pct, where set, replaces
// the default. Otherwise, for an entry with machine levels, the cross-machine tolerance replaces it
// (source "machine spread 0.21% over 5 GPUs"; its floor is same_gpu_tolerance_pct, or the default where
// the file has none); for a baseline one GPU recorded, the default says so (kOneGpuRecordedSource).
// Overrides (family, benchmark) and the resolution floor apply as always.
Tolerance resolve_tolerance(const Baseline& baseline, const std::string& name, const BaselineEntry& entry,
                            bool same_gpu);

// `tolerance`, widened for a benchmark in `unit` ("cycles") to kCycleResolution of its `median` (the
// baseline's, or build A's in A/B mode). Both comparators apply it.
Tolerance at_least_cycle_resolution(Tolerance tolerance, const std::string& unit, double median);

}  // namespace gpuperf::gate
