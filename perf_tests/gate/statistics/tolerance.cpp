#include "gate/statistics/tolerance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gate/inputs/results.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {

namespace {

// The sum of squared deviations of the machine levels' logs from their mean.
double machine_sum_of_squares(const std::map<std::string, double>& levels) {
  double mean = 0.0;
  for (const auto& [uuid, level] : levels) mean += std::log(level);
  mean /= static_cast<double>(levels.size());
  double sum = 0.0;
  for (const auto& [uuid, level] : levels) sum += (std::log(level) - mean) * (std::log(level) - mean);
  return sum;
}

}  // namespace

std::string family_of(const std::string& benchmark_name) { return benchmark_name.substr(0, benchmark_name.find('/')); }

std::optional<MachineSpread> machine_spread(const Baseline& baseline, const BaselineEntry& entry) {
  if (entry.machine_medians.size() < kMinMachinesForSpread) return std::nullopt;
  // The file's typical variance: the median of its benchmarks' (the mean would let a few wide cuBLAS
  // benchmarks widen every tight one's tolerance).
  std::vector<double> variances;
  for (const auto& [name, other] : baseline.benchmarks) {
    if (other.machine_medians.size() < kMinMachinesForSpread) continue;
    variances.push_back(machine_sum_of_squares(other.machine_medians) /
                        static_cast<double>(other.machine_medians.size() - 1));
  }
  const double own_df = static_cast<double>(entry.machine_medians.size() - 1);
  const double own_sum = machine_sum_of_squares(entry.machine_medians);
  MachineSpread spread;
  spread.machines = static_cast<int>(entry.machine_medians.size());
  spread.raw_sd_pct = 100.0 * std::sqrt(own_sum / own_df);
  const double prior_variance = median(variances);  // the entry's own is among them: never empty
  spread.sd_pct =
      100.0 * std::sqrt((kMachineSpreadPriorDf * prior_variance + own_sum) / (kMachineSpreadPriorDf + own_df));
  return spread;
}

Tolerance resolve_tolerance(const Baseline& baseline, const std::string& name, const BaselineEntry& entry,
                            bool same_gpu) {
  Tolerance tolerance{baseline.default_tolerance_pct, "default"};
  if (same_gpu && baseline.same_gpu_tolerance_pct) {
    tolerance = {*baseline.same_gpu_tolerance_pct, kSameGpuDefaultSource};
  } else if (const std::optional<MachineSpread> spread = machine_spread(baseline, entry); spread && !same_gpu) {
    const double floor_pct = baseline.same_gpu_tolerance_pct.value_or(baseline.default_tolerance_pct);
    char why[96];
    std::snprintf(why, sizeof why, "machine spread %.2f%% over %d GPUs", spread->sd_pct, spread->machines);
    tolerance = {std::max(floor_pct, kMachineSpreadK * spread->sd_pct), why};
  } else if (!same_gpu && baseline.recorded.gpu_uuids.size() == 1) {
    tolerance.source = kOneGpuRecordedSource;
  }
  const std::string family = family_of(name);
  if (const auto it = baseline.family_tolerance_pct.find(family); it != baseline.family_tolerance_pct.end()) {
    tolerance = {it->second, "family " + family};
  }
  if (entry.tolerance_pct) tolerance = {*entry.tolerance_pct, "benchmark"};
  return at_least_cycle_resolution(tolerance, entry.unit, entry.median);
}

Tolerance at_least_cycle_resolution(Tolerance tolerance, const std::string& unit, double median) {
  if (unit != formats::kUnitCycles || median <= 0.0) return tolerance;
  const double floor_pct = 100.0 * kCycleResolution / median;
  if (floor_pct <= tolerance.pct) return tolerance;
  char why[96];
  std::snprintf(why, sizeof why, "resolution floor (%g cycles of %g)", kCycleResolution, median);
  return {floor_pct, why};
}

}  // namespace gpuperf::gate
