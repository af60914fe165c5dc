#include "gate/statistics/tolerance.h"

#include <cstdio>

#include "gate/inputs/results.h"

namespace gpuperf::gate {

std::string family_of(const std::string& benchmark_name) { return benchmark_name.substr(0, benchmark_name.find('/')); }

Tolerance resolve_tolerance(const Baseline& baseline, const std::string& name, const BaselineEntry& entry,
                            bool same_gpu) {
  Tolerance tolerance{baseline.default_tolerance_pct, "default"};
  if (same_gpu && baseline.same_gpu_tolerance_pct) {
    tolerance = {*baseline.same_gpu_tolerance_pct, kSameGpuDefaultSource};
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
