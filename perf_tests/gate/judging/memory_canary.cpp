#include "gate/judging/memory_canary.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "formats/number_text.h"
#include "gate/judging/stored_mode.h"
#include "gate/judging/verdict.h"
#include "gate/statistics/process_inference.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

using formats::format_number;

std::string signed_pct(double pct) { return format_number("%+.1f", pct); }

// "device_copy": the variant, between the family and the shape. The ceiling family registers one shape
// per variant; the JSON report keeps the full names.
std::string short_label(const std::string& name) {
  const std::size_t first = name.find('/');
  const std::size_t last = name.rfind('/');
  if (first == std::string::npos || last <= first) return name;
  return name.substr(first + 1, last - first - 1);
}

// "device_copy +5.1% [+4.6, +5.6], memset ..."
std::string benchmarks_text(const std::vector<CanaryBenchmark>& benchmarks) {
  std::string text;
  for (const CanaryBenchmark& b : benchmarks) {
    text += (text.empty() ? "" : ", ") + short_label(b.name) + " " + signed_pct(b.change_pct) + "% [" +
            signed_pct(b.ci_low_pct) + ", " + signed_pct(b.ci_high_pct) + "]";
  }
  return text;
}

std::string left_out_text(const std::vector<std::string>& left_out) {
  std::string text;
  for (const std::string& entry : left_out) text += (text.empty() ? "" : ", ") + entry;
  return text.empty() ? "" : "; not compared: " + text;
}

double pct_of(double ratio) { return (ratio - 1.0) * 100.0; }

// Why one ceiling benchmark of both sides cannot be compared; empty when it can.
std::string why_not_compared(const std::string& name, const BaselineEntry& entry,
                             const std::vector<ResultsFile>& results) {
  for (const ResultsFile& file : results) {
    const auto it = file.benchmarks.find(name);
    if (it == file.benchmarks.end()) continue;
    if (it->second.error) return "reported an error";
    if (it->second.skipped) return "skipped";
    if (it->second.unit != entry.unit) return "unit differs from the baseline's";
  }
  return "";
}

// Why no ceiling benchmark compares, for the line that says there is no canary.
std::string why_none(bool in_results, bool in_baseline, const std::vector<std::string>& left_out) {
  if (!in_results) return "the results hold no ceiling benchmarks";
  if (!in_baseline) return "the baseline holds no ceiling benchmarks";
  std::string text;
  for (const std::string& entry : left_out) text += (text.empty() ? "" : ", ") + entry;
  return "no ceiling benchmark compares: " + text;
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
    std::string why;
    if (entry == baseline.benchmarks.end()) {
      why = "not in the baseline";
    } else if (measured.count(name) == 0) {
      why = "not in the results";
    } else {
      why = why_not_compared(name, entry->second, results);
    }
    ProcessEvidence evidence;
    if (why.empty()) {
      const std::vector<double> now = process_medians(results, name, kMinSamples);
      if (now.empty()) {
        why = "no process with " + std::to_string(kMinSamples) + " valid samples";
      } else {
        evidence = compare_process_medians(entry->second.process_medians, now, confidence,
                                           resolution_sd(entry->second.unit, entry->second.median));
        if (!evidence.judged) why = "one process on each side";
      }
    }
    if (!why.empty()) {
      canary.left_out.push_back(name + " (" + why + ")");
      continue;
    }
    canary.benchmarks.push_back(
        CanaryBenchmark{name, pct_of(evidence.ratio), pct_of(evidence.ci_low), pct_of(evidence.ci_high)});
  }

  if (!canary.measured()) {
    canary.text = "no memory canary (" + why_none(!measured.empty(), in_baseline, canary.left_out) + ")";
    return canary;
  }
  std::vector<double> changes;
  for (const CanaryBenchmark& b : canary.benchmarks) changes.push_back(b.change_pct);
  canary.change_pct = median(changes);
  canary.shift = canary_shift(canary.benchmarks, threshold_pct);
  if (!canary.moved()) {
    canary.text = "memory canary: " + signed_pct(canary.change_pct) + "% (median of " +
                  std::to_string(canary.benchmarks.size()) + " ceiling benchmark" +
                  (canary.benchmarks.size() == 1 ? "" : "s") + "), no shift beyond " +
                  format_number("%g", threshold_pct) + "%" + left_out_text(canary.left_out);
    return canary;
  }
  canary.text = "this machine streams memory " + format_number("%.1f", std::fabs(canary.change_pct)) + "% " +
                (canary.shift == CanaryShift::kSlower ? "slower" : "faster") + " than the baseline's (ceiling: " +
                benchmarks_text(canary.benchmarks) + ")" + left_out_text(canary.left_out);
  canary.action = "memory-bound verdicts (noted \"" + canary_note(canary.change_pct) +
                  "\") may reflect the machine, not the code: to tell, time the baseline's commit and this one "
                  "on this machine (scripts/ab_compare.sh)";
  return canary;
}

bool memory_bound(const std::string& unit, double bytes, double flops) {
  return unit == formats::kUnitMicroseconds && bytes > 0.0 && flops < kMemoryBoundMaxFlopsPerByte * bytes;
}

std::string canary_note(double change_pct) {
  return "machine's memory " + format_number("%.1f", std::fabs(change_pct)) + "% " +
         (change_pct >= 0.0 ? "slower" : "faster");
}

}  // namespace gpuperf::gate
