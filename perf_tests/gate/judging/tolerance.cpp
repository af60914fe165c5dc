#include "gate/judging/tolerance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "gate/inputs/results.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {

namespace {

// The parts of a benchmark's machine spread, as variances of log levels, with their degrees of freedom.
struct SpreadParts {
  double within_variance = 0.0;   // pooled within sessions
  int within_df = 0;
  double between_variance = 0.0;  // of the sessions' means
  int sessions = 0;
  int machines = 0;
};

SpreadParts spread_parts_of(const std::vector<std::vector<double>>& sessions) {
  SpreadParts parts;
  double within_sum = 0.0;
  std::vector<double> means;
  for (const std::vector<double>& logs : sessions) {
    double mean = 0.0;
    for (double l : logs) mean += l;
    mean /= static_cast<double>(logs.size());
    for (double l : logs) within_sum += (l - mean) * (l - mean);
    parts.within_df += static_cast<int>(logs.size()) - 1;
    parts.machines += static_cast<int>(logs.size());
    means.push_back(mean);
  }
  parts.sessions = static_cast<int>(sessions.size());
  if (parts.within_df > 0) parts.within_variance = within_sum / parts.within_df;
  if (means.size() >= 2) {
    double centre = 0.0;
    for (double m : means) centre += m;
    centre /= static_cast<double>(means.size());
    double sum = 0.0;
    for (double m : means) sum += (m - centre) * (m - centre);
    parts.between_variance = sum / static_cast<double>(means.size() - 1);
  }
  return parts;
}

// How far another host's GPU sits from the centre, as a variance: the sessions' means differ by the hosts'
// spread plus a share of the machines'; adding the whole within-session variance counts the machines'
// in full (a slight overestimate where a session holds one GPU).
double cross_host_variance(const SpreadParts& parts) { return parts.between_variance + parts.within_variance; }

SpreadParts spread_parts_of_entry(const Baseline& baseline, const BaselineEntry& entry) {
  return spread_parts_of(session_log_levels(baseline.recorded.machine_groups, entry.machine_medians));
}

}  // namespace

std::string family_of(const std::string& benchmark_name) { return benchmark_name.substr(0, benchmark_name.find('/')); }

std::vector<std::vector<double>> session_log_levels(const std::vector<std::vector<std::string>>& machine_groups,
                                                    const std::map<std::string, double>& machine_medians) {
  std::vector<std::vector<double>> sessions;
  std::set<std::string> placed;
  for (const std::vector<std::string>& group : machine_groups) {
    std::vector<double> logs;
    for (const std::string& uuid : group) {
      const auto level = machine_medians.find(uuid);
      if (level == machine_medians.end() || !placed.insert(uuid).second) continue;
      logs.push_back(std::log(level->second));
    }
    if (!logs.empty()) sessions.push_back(std::move(logs));
  }
  std::vector<double> ungrouped;
  for (const auto& [uuid, level] : machine_medians) {
    if (placed.count(uuid) == 0) ungrouped.push_back(std::log(level));
  }
  if (!ungrouped.empty()) sessions.push_back(std::move(ungrouped));
  return sessions;
}

std::optional<MachineSpread> machine_spread(const Baseline& baseline, const BaselineEntry& entry) {
  if (entry.machine_medians.size() < kMinMachinesForSpread) return std::nullopt;
  const SpreadParts own = spread_parts_of_entry(baseline, entry);
  // The file's typical variances: the medians of its benchmarks' (the mean would let a few wide cuBLAS
  // benchmarks widen every tight one's tolerance), of those whose sessions estimate each.
  std::vector<double> within_variances;
  std::vector<double> cross_variances;
  for (const auto& [name, other] : baseline.benchmarks) {
    if (other.machine_medians.size() < kMinMachinesForSpread) continue;
    const SpreadParts parts = spread_parts_of_entry(baseline, other);
    if (parts.within_df > 0) within_variances.push_back(parts.within_variance);
    if (parts.sessions >= kMinHostsToTighten) cross_variances.push_back(cross_host_variance(parts));
  }
  const auto shrunk_sd_pct = [](double own_variance, int own_df, const std::vector<double>& typical) {
    if (typical.empty()) return 0.0;  // then own_df is 0 too: nothing to shrink
    return 100.0 * std::sqrt((kMachineSpreadPriorDf * median(typical) + own_df * own_variance) /
                             (kMachineSpreadPriorDf + own_df));
  };
  MachineSpread spread;
  spread.machines = own.machines;
  spread.sessions = own.sessions;
  spread.within_sd_pct = shrunk_sd_pct(own.within_variance, own.within_df, within_variances);
  spread.between_sd_pct = 100.0 * std::sqrt(own.between_variance);
  spread.raw_sd_pct = 100.0 * std::sqrt(cross_host_variance(own));
  // Never below the spread between the GPUs of one host: another host's GPU is at least that far.
  spread.sd_pct = spread.tightens()
                      ? std::max(spread.within_sd_pct, shrunk_sd_pct(cross_host_variance(own), own.sessions - 1, cross_variances))
                      : spread.within_sd_pct;
  return spread;
}

Tolerance cross_machine_tolerance(const MachineSpread& spread, double floor_pct, double default_pct) {
  ToleranceSource source;
  source.machines = spread.machines;
  source.hosts = spread.sessions;
  if (spread.tightens()) {
    source.origin = ToleranceOrigin::kMachineSpread;
    source.spread_sd_pct = spread.sd_pct;
    return {std::max(floor_pct, kMachineSpreadK * spread.sd_pct), source};
  }
  const double widened_pct = kMachineWideningK * spread.within_sd_pct;
  if (widened_pct > default_pct) {
    source.origin = ToleranceOrigin::kMachineSpreadWidens;
    source.spread_sd_pct = spread.within_sd_pct;
    return {widened_pct, source};
  }
  source.origin = ToleranceOrigin::kTooFewHosts;
  source.default_pct = default_pct;
  return {default_pct, source};
}

Tolerance resolve_tolerance(const Baseline& baseline, const std::string& name, const BaselineEntry& entry,
                            bool same_gpu) {
  Tolerance tolerance{baseline.default_tolerance_pct, source_of(ToleranceOrigin::kDefault)};
  if (same_gpu && baseline.same_gpu_tolerance_pct) {
    tolerance = {*baseline.same_gpu_tolerance_pct, source_of(ToleranceOrigin::kSameGpuDefault)};
  } else if (const std::optional<MachineSpread> spread = machine_spread(baseline, entry); spread && !same_gpu) {
    const double floor_pct = baseline.same_gpu_tolerance_pct.value_or(baseline.default_tolerance_pct);
    tolerance = cross_machine_tolerance(*spread, floor_pct, baseline.default_tolerance_pct);
  } else if (!same_gpu && baseline.recorded.gpu_uuids.size() == 1) {
    tolerance.source = source_of(ToleranceOrigin::kOneGpuRecorded);
  }
  const std::string family = family_of(name);
  if (const auto it = baseline.family_tolerance_pct.find(family); it != baseline.family_tolerance_pct.end()) {
    tolerance = {it->second, source_of(ToleranceOrigin::kFamily)};
    tolerance.source.family = family;
  }
  if (entry.tolerance_pct) tolerance = {*entry.tolerance_pct, source_of(ToleranceOrigin::kBenchmark)};
  return at_least_cycle_resolution(tolerance, entry.unit, entry.median);
}

Tolerance at_least_cycle_resolution(Tolerance tolerance, const std::string& unit, double median) {
  if (unit != formats::kUnitCycles || median <= 0.0) return tolerance;
  const double floor_pct = 100.0 * kCycleResolution / median;
  if (floor_pct <= tolerance.pct) return tolerance;
  ToleranceSource source = source_of(ToleranceOrigin::kResolutionFloor);
  source.median_cycles = median;
  return {floor_pct, source};
}

}  // namespace gpuperf::gate
