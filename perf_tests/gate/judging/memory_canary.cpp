#include "gate/judging/memory_canary.h"

#include <algorithm>
#include <optional>
#include <set>

#include "gate/judging/stored_mode.h"
#include "gate/judging/verdict.h"
#include "gate/statistics/process_inference.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

double pct_of(double ratio) { return (ratio - 1.0) * 100.0; }

// Why one ceiling benchmark of both sides cannot be compared; nothing when it can.
std::optional<CanaryLeftOutReason> why_not_compared(const std::string& name, const BaselineEntry& entry,
                                                    const std::vector<ResultsFile>& results) {
  for (const ResultsFile& file : results) {
    const auto it = file.benchmarks.find(name);
    if (it == file.benchmarks.end()) continue;
    if (it->second.error) return CanaryLeftOutReason::kReportedError;
    if (it->second.skipped) return CanaryLeftOutReason::kSkipped;
    if (it->second.unit != entry.unit) return CanaryLeftOutReason::kUnitDiffers;
  }
  return std::nullopt;
}

}  // namespace

CanaryShift canary_shift(const std::vector<CanaryBenchmark>& benchmarks, double threshold_pct) {
  if (benchmarks.empty()) return CanaryShift::kNone;
  const bool slower = std::all_of(benchmarks.begin(), benchmarks.end(),
                                  [&](const CanaryBenchmark& b) { return b.ci_low_pct > threshold_pct; });
  const bool faster = std::all_of(benchmarks.begin(), benchmarks.end(),
                                  [&](const CanaryBenchmark& b) { return b.ci_high_pct < -threshold_pct; });
  return slower ? CanaryShift::kSlower : faster ? CanaryShift::kFaster : CanaryShift::kNone;
}

Canary memory_canary(const Baseline& baseline, const std::vector<ResultsFile>& results, double confidence,
                     double threshold_pct) {
  const std::string prefix = std::string(kCanaryFamily) + "/";
  const auto in_family = [&prefix](const std::string& name) { return name.compare(0, prefix.size(), prefix) == 0; };
  std::set<std::string> measured;
  for (const ResultsFile& file : results) {
    for (auto it = file.benchmarks.lower_bound(prefix); it != file.benchmarks.end() && in_family(it->first); ++it) {
      measured.insert(it->first);
    }
  }
  std::set<std::string> names = measured;
  bool in_baseline = false;
  for (auto it = baseline.benchmarks.lower_bound(prefix); it != baseline.benchmarks.end() && in_family(it->first);
       ++it) {
    names.insert(it->first);
    in_baseline = true;
  }

  Canary canary;
  canary.threshold_pct = threshold_pct;
  for (const std::string& name : names) {
    const auto entry = baseline.benchmarks.find(name);
    std::optional<CanaryLeftOutReason> why;
    if (entry == baseline.benchmarks.end()) {
      why = CanaryLeftOutReason::kNotInBaseline;
    } else if (measured.count(name) == 0) {
      why = CanaryLeftOutReason::kNotInResults;
    } else {
      why = why_not_compared(name, entry->second, results);
    }
    ProcessEvidence evidence;
    if (!why) {
      const std::vector<double> now = process_medians(results, name, kMinSamples);
      if (now.empty()) {
        why = CanaryLeftOutReason::kTooFewSamples;
      } else {
        evidence = compare_process_medians(entry->second.process_medians, now, confidence,
                                           resolution_sd(entry->second.unit, entry->second.median));
        if (!evidence.judged) why = CanaryLeftOutReason::kOneProcessEachSide;
      }
    }
    if (why) {
      canary.left_out.push_back(CanaryLeftOut{name, *why});
      continue;
    }
    canary.benchmarks.push_back(
        CanaryBenchmark{name, pct_of(evidence.ratio), pct_of(evidence.ci_low), pct_of(evidence.ci_high)});
  }

  if (!canary.measured()) {
    canary.no_canary = measured.empty()  ? NoCanaryReason::kNoneInResults
                       : !in_baseline    ? NoCanaryReason::kNoneInBaseline
                                         : NoCanaryReason::kNoneCompares;
    return canary;
  }
  std::vector<double> changes;
  for (const CanaryBenchmark& b : canary.benchmarks) changes.push_back(b.change_pct);
  canary.change_pct = median(changes);
  canary.shift = canary_shift(canary.benchmarks, threshold_pct);
  return canary;
}

bool memory_bound(const std::string& unit, double bytes, double flops) {
  return unit == formats::kUnitMicroseconds && bytes > 0.0 && flops < kMemoryBoundMaxFlopsPerByte * bytes;
}

}  // namespace gpuperf::gate
