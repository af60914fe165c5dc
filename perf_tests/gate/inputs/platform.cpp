#include "gate/inputs/platform.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

// What the driver string starts with when the perf binary had no NVML: the CUDA driver API's version
// (perf_tests/harness/gpu_info.cpp), which names the CUDA version the driver supports, not the driver.
constexpr const char* kDriverApiPrefix = "CUDA ";

// A change of exactly the threshold is not beyond it, whatever the rounding of the division says
// (1960 / 2000 - 1 is -2.0000000000000018%) [percent]
constexpr double kThresholdSlackPct = 1e-9;

void add_distinct(std::vector<std::string>& values, const std::string& value) {
  if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
}

ClockReading reading_of(const std::vector<ResultsFile>& processes, std::vector<double> ResultsFile::*clock) {
  ClockReading reading;
  std::vector<double> pooled;
  for (const ResultsFile& process : processes) {
    const std::vector<double>& samples = process.*clock;
    if (samples.empty()) continue;
    pooled.insert(pooled.end(), samples.begin(), samples.end());
    const double process_median = median(samples);
    reading.lowest_process_mhz =
        reading.lowest_process_mhz > 0.0 ? std::min(reading.lowest_process_mhz, process_median) : process_median;
    reading.highest_process_mhz = std::max(reading.highest_process_mhz, process_median);
  }
  if (!pooled.empty()) reading.median_mhz = median(pooled);
  return reading;
}

ClockReading reading_of(const std::optional<double>& recorded_mhz) {
  if (!recorded_mhz || !(*recorded_mhz > 0.0)) return {};
  return ClockReading{*recorded_mhz, *recorded_mhz, *recorded_mhz};
}

std::string joined(const std::vector<std::string>& values) {
  std::string text;
  for (const std::string& value : values) text += (text.empty() ? "" : ", ") + value;
  return text;
}

std::string mhz(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

bool is_driver_api_version(const std::string& driver) { return driver.rfind(kDriverApiPrefix, 0) == 0; }

void compare_text(const char* field, const char* label, const std::vector<std::string>& before,
                  const std::vector<std::string>& now, std::vector<PlatformChange>& out) {
  if (before.size() == 1 && now.size() == 1 && before.front() == now.front()) return;
  PlatformChange change;
  change.field = field;
  change.label = label;
  change.before = joined(before);
  change.now = joined(now);
  if (before.empty() || now.empty()) {
    change.kind = PlatformChange::Kind::kUnknown;
  } else if (before.size() > 1 || now.size() > 1) {
    change.kind = PlatformChange::Kind::kMixed;
    change.before_mixed = before.size() > 1;
    change.now_mixed = now.size() > 1;
  } else if (std::string(field) == "driver" &&
             is_driver_api_version(before.front()) != is_driver_api_version(now.front())) {
    change.kind = PlatformChange::Kind::kUnknown;
  }
  out.push_back(std::move(change));
}

bool processes_apart(const ClockReading& reading, double threshold_pct) {
  return reading.known() && (reading.highest_process_mhz / reading.lowest_process_mhz - 1.0) * 100.0 >
                                threshold_pct + kThresholdSlackPct;
}

std::string clock_text(const ClockReading& reading, double threshold_pct) {
  if (!reading.known()) return "";
  if (processes_apart(reading, threshold_pct)) {
    return mhz(reading.lowest_process_mhz) + "-" + mhz(reading.highest_process_mhz);
  }
  return mhz(reading.median_mhz);
}

void compare_clock(const char* field, const char* label, const ClockReading& before, const ClockReading& now,
                   double threshold_pct, std::vector<PlatformChange>& out) {
  PlatformChange change;
  change.field = field;
  change.label = label;
  change.before = clock_text(before, threshold_pct);
  change.now = clock_text(now, threshold_pct);
  if (!before.known() || !now.known()) {
    change.kind = PlatformChange::Kind::kUnknown;
    out.push_back(std::move(change));
    return;
  }
  change.change_pct = (now.median_mhz / before.median_mhz - 1.0) * 100.0;
  change.before_mixed = processes_apart(before, threshold_pct);
  change.now_mixed = processes_apart(now, threshold_pct);
  if (change.before_mixed || change.now_mixed) {
    change.kind = PlatformChange::Kind::kMixed;
  } else if (!(std::fabs(*change.change_pct) > threshold_pct + kThresholdSlackPct)) {
    return;
  }
  out.push_back(std::move(change));
}

std::string side_text(const std::string& value, bool mixed) { return mixed ? "mixed (" + value + ")" : value; }

}  // namespace

PlatformSide platform_of(const Baseline& baseline) {
  PlatformSide side;
  const BaselineGpu& gpu = baseline.gpu;
  add_distinct(side.driver, gpu.driver);
  add_distinct(side.cuda_runtime, gpu.cuda_runtime);
  add_distinct(side.compute_capability, gpu.compute_capability);
  if (gpu.sm_count) add_distinct(side.sm_count, std::to_string(*gpu.sm_count));
  if (gpu.memory_mib) add_distinct(side.memory_mib, std::to_string(*gpu.memory_mib));
  side.sm_clock = reading_of(gpu.sm_clock_mhz);
  side.mem_clock = reading_of(gpu.mem_clock_mhz);
  return side;
}

PlatformSide platform_of(const std::vector<ResultsFile>& processes) {
  PlatformSide side;
  for (const ResultsFile& process : processes) {
    const GpuContext& gpu = process.gpu;
    add_distinct(side.driver, gpu.driver);
    add_distinct(side.cuda_runtime, gpu.cuda_runtime);
    add_distinct(side.compute_capability, gpu.compute_capability);
    if (gpu.sm_count) add_distinct(side.sm_count, std::to_string(*gpu.sm_count));
    if (gpu.memory_mib) add_distinct(side.memory_mib, std::to_string(*gpu.memory_mib));
  }
  side.sm_clock = reading_of(processes, &ResultsFile::sm_clock_mhz);
  side.mem_clock = reading_of(processes, &ResultsFile::mem_clock_mhz);
  return side;
}

std::vector<PlatformChange> platform_changes(const PlatformSide& before, const PlatformSide& now,
                                             double clock_threshold_pct) {
  std::vector<PlatformChange> changes;
  compare_text("driver", "driver", before.driver, now.driver, changes);
  compare_text("cuda_runtime", "CUDA runtime", before.cuda_runtime, now.cuda_runtime, changes);
  compare_text("compute_capability", "compute capability", before.compute_capability, now.compute_capability,
               changes);
  compare_text("sm_count", "SM count", before.sm_count, now.sm_count, changes);
  compare_text("memory_mib", "memory MiB", before.memory_mib, now.memory_mib, changes);
  compare_clock("sm_clock_mhz", "SM clock", before.sm_clock, now.sm_clock, clock_threshold_pct, changes);
  compare_clock("mem_clock_mhz", "memory clock", before.mem_clock, now.mem_clock, clock_threshold_pct, changes);
  return changes;
}

bool platform_changed(const std::vector<PlatformChange>& changes) {
  return std::any_of(changes.begin(), changes.end(),
                     [](const PlatformChange& c) { return c.kind != PlatformChange::Kind::kUnknown; });
}

std::string describe_change(const PlatformChange& change) {
  if (change.kind == PlatformChange::Kind::kUnknown) return change.label;
  std::string text = change.label + " " + side_text(change.before, change.before_mixed) + " -> " +
                     side_text(change.now, change.now_mixed);
  if (!change.change_pct) return text;
  text += " MHz";
  if (change.kind == PlatformChange::Kind::kChanged) {
    char pct[32];
    std::snprintf(pct, sizeof pct, " (%+.1f%%)", *change.change_pct);
    text += pct;
  }
  return text;
}

std::string describe_changes(const std::vector<PlatformChange>& changes) {
  std::string text;
  for (const PlatformChange& change : changes) {
    if (change.kind != PlatformChange::Kind::kUnknown) text += (text.empty() ? "" : ", ") + describe_change(change);
  }
  return text;
}

bool moved_together(int moved, int judged) {
  return moved >= kMinMovedTogether && judged > 0 &&
         static_cast<double>(moved) >= kMovedTogetherFraction * static_cast<double>(judged);
}

}  // namespace gpuperf::gate
