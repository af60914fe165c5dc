#pragma once
// Which tolerance a benchmark is judged with, and why: a hand override beats its family's, which beats
// the baseline's default (its same-GPU default for results from a GPU that recorded it); and no tolerance
// is tighter than a cycle count can resolve. Noise is not the tolerance's business: the interval carries
// it (statistics/process_inference.h). The tolerance is the smallest change that matters.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gate/inputs/baseline.h"

namespace gpuperf::gate {

// Cycle counts are integers: a median, and so a ratio of two, can be a cycle off, so a tolerance below this
// many cycles would call rounding a change (1% of a 55-cycle latency is half a cycle).
inline constexpr double kCycleResolution = 2.0;  // [cycles]

// Where a tolerance came from, most specific last; the reports word it (reports/row_words.h).
enum class ToleranceOrigin {
  kNone,                // no tolerance applied (a row with nothing to compare: NEW, MISSING)
  kDefault,             // the baseline's default
  kSameGpuDefault,      // the baseline's same_gpu_tolerance_pct: the results' GPU recorded the baseline
  kOneGpuRecorded,      // the default, for another GPU than the one that recorded the baseline (nothing
                        // says how far machines of the model differ)
  kMachineSpread,       // kMachineSpreadK x the machines' spread: sd_pct over machines of hosts
  kMachineSpreadWidens, // kMachineWideningK x the spread within hosts, wider than the default
  kTooFewHosts,         // the default: recordings of fewer hosts than kMinHostsToTighten
  kFamily,              // the baseline's tolerance for the family
  kBenchmark,           // the baseline entry's own
  kResolutionFloor,     // kCycleResolution cycles of median_cycles
  kAbOption,            // A/B: --tolerance-pct
};

struct ToleranceSource {
  ToleranceOrigin origin = ToleranceOrigin::kNone;
  double spread_sd_pct = 0.0;  // kMachineSpread, kMachineSpreadWidens [percent]
  int machines = 0;            // kMachineSpread, kMachineSpreadWidens
  int hosts = 0;               // kMachineSpread, kMachineSpreadWidens, kTooFewHosts
  double default_pct = 0.0;    // kTooFewHosts [percent]
  std::string family;          // kFamily
  double median_cycles = 0.0;  // kResolutionFloor [cycles]
};

struct Tolerance {
  double pct = 0.0;  // [percent]
  ToleranceSource source;
};

inline ToleranceSource source_of(ToleranceOrigin origin) {
  ToleranceSource source;
  source.origin = origin;
  return source;
}

// The cross-machine tolerance of a benchmark recorded on several GPUs (BaselineEntry::machine_medians),
// for results from a GPU that is not one of them. The GPUs of one recording session (one host,
// recorded.machine_groups) share their host's level, so their spread says nothing of how far another host
// sits: only recordings of kMinHostsToTighten sessions or more estimate that, and only then may the spread
// tighten the default. Then the tolerance is max(the same-GPU tolerance, kMachineSpreadK x the machines'
// sd), the sd combining the spread between the sessions' means and within sessions (log scale), shrunk
// toward the file's typical one (the median of its benchmarks') as if that were kMachineSpreadPriorDf more
// sessions' worth of evidence (3 sessions estimate an sd badly, and one that came out small by chance
// would fail an unlucky new host), and never below the within-session sd. With fewer sessions the spread
// only widens: max(the default, kMachineWideningK x the within-session sd, shrunk alike), so cuBLAS's 4-5%
// between the GPUs of one host is not a false alarm. The constants are the smallest the simulation
// (tests/statistics/test_machine_spread_simulation.cpp, docs/statistics.md, "Across machines") allows with
// false alarms per benchmark no higher than the flat default's at an assumed host sd of 0.5% and 1%.
inline constexpr double kMachineSpreadK = 5.5;
inline constexpr double kMachineWideningK = 8.0;
inline constexpr double kMachineSpreadPriorDf = 8.0;
inline constexpr int kMinHostsToTighten = 3;

// The spread between the machines of one benchmark, as the tolerance uses it.
struct MachineSpread {
  int machines = 0;              // levels recorded
  int sessions = 0;              // recording sessions (hosts) among them
  double within_sd_pct = 0.0;    // the pooled sd of the levels within sessions; 0 when no session has two [percent]
  double between_sd_pct = 0.0;   // the sample sd of the sessions' mean levels; 0 with one session [percent]
  double raw_sd_pct = 0.0;       // how far another host's GPU sits: both combined [percent]
  double sd_pct = 0.0;           // raw_sd_pct shrunk toward the file's typical: what tightening uses [percent]
  bool tightens() const { return sessions >= kMinHostsToTighten; }
};

// The log levels of `entry`'s machines grouped by recording session (`machine_groups`): one list per
// session holding any of them, in the groups' order; the GPUs in no group form one more session.
std::vector<std::vector<double>> session_log_levels(const std::vector<std::vector<std::string>>& machine_groups,
                                                    const std::map<std::string, double>& machine_medians);

// The spread of `entry`'s machine levels; sd_pct shrunk toward the typical spread of the entries of
// `baseline` whose levels span as many sessions or more (kMinHostsToTighten); nullopt when the entry has
// fewer than kMinMachinesForSpread levels.
std::optional<MachineSpread> machine_spread(const Baseline& baseline, const BaselineEntry& entry);

// The tolerance for another GPU than the recording ones, from `spread`: the rule above. `floor_pct`: the
// same-GPU tolerance (where the file has none, the default); `default_pct`: the file's default.
Tolerance cross_machine_tolerance(const MachineSpread& spread, double floor_pct, double default_pct);

// The family of a benchmark name: the part before the first '/' ("reduction" of "reduction/x/n:1").
std::string family_of(const std::string& benchmark_name);

// `same_gpu`: every result compared comes from a GPU listed in the baseline's recorded.gpu_uuids (the
// comparator decides it once per comparison). Then baseline.same_gpu_tolerance_pct, where set, replaces
// the default. Otherwise, for an entry with machine levels, cross_machine_tolerance replaces it (origin
// kMachineSpread, kMachineSpreadWidens or kTooFewHosts, worded "machine spread 0.61% over 6 GPUs of 3
// hosts", "... (widens the default)", "default 4.0%: recordings of 1 host (3 needed to tighten by the
// machines' spread)"); for a baseline one GPU recorded, the default says so (kOneGpuRecorded).
// Overrides (family, benchmark) and the resolution floor apply as always.
Tolerance resolve_tolerance(const Baseline& baseline, const std::string& name, const BaselineEntry& entry,
                            bool same_gpu);

// `tolerance`, widened for a benchmark in `unit` ("cycles") to kCycleResolution of its `median` (the
// baseline's, or build A's in A/B mode). Both comparators apply it.
Tolerance at_least_cycle_resolution(Tolerance tolerance, const std::string& unit, double median);

}  // namespace gpuperf::gate
