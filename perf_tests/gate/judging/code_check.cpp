#include "gate/judging/code_check.h"

#include <algorithm>

#include "gate/inputs/platform.h"

namespace gpuperf::gate {
namespace {


const formats::Fingerprint& find_or(const std::map<std::string, formats::Fingerprint>& fingerprints, const std::string& name,
                           const formats::Fingerprint& fallback) {
  const auto it = fingerprints.find(name);
  return it != fingerprints.end() ? it->second : fallback;
}

}  // namespace

void add_code_changes(const std::map<std::string, formats::Fingerprint>& before,
                      const std::map<std::string, formats::Fingerprint>& now, Comparison& comparison,
                      const std::string& now_cannot_have) {
  // A side with no fingerprint at all says so once, for the run, rather than on every row.
  if (now.empty() && !now_cannot_have.empty()) {
    comparison.code_not_checked = CodeNotChecked::kSuiteCapturesNone;
    comparison.suite_without_fingerprints = now_cannot_have;
    return;
  }
  if (before.empty() || now.empty()) {
    comparison.code_not_checked = before.empty() && now.empty() ? CodeNotChecked::kNeitherSide
                                  : now.empty()                 ? CodeNotChecked::kNoneNow
                                                                : CodeNotChecked::kNoneBefore;
    return;
  }
  const formats::Fingerprint none;  // not captured: compare_code says kUnknown
  for (BenchmarkComparison& row : comparison.benchmarks) {
    const bool in_before = before.count(row.name) != 0, in_now = now.count(row.name) != 0;
    if (!in_before && !in_now) continue;  // a benchmark on one side only (NEW, MISSING): nothing to compare
    row.code = compare_code(find_or(before, row.name, none), find_or(now, row.name, none));
    if (!in_before) row.code->baseline_missing = CodeSideMissing::kNoneForBenchmark;
    if (!in_now) row.code->current_missing = CodeSideMissing::kNoneForBenchmark;
  }
}

std::string no_fingerprints_because(const std::vector<ResultsFile>& results) {
  if (results.empty()) return "";
  for (const ResultsFile& file : results) {
    if (file.no_fingerprints_because != results.front().no_fingerprints_because) return "";
  }
  return results.front().no_fingerprints_because;
}

std::map<std::string, formats::Fingerprint> baseline_fingerprints(const Baseline& baseline) {
  std::map<std::string, formats::Fingerprint> fingerprints;
  for (const auto& [name, entry] : baseline.benchmarks) {
    if (entry.fingerprint) fingerprints.emplace(name, *entry.fingerprint);
  }
  return fingerprints;
}

std::vector<PlatformChange> platform_changes_preventing_skipping(const Baseline& baseline,
                                                                 const std::vector<ResultsFile>& results) {
  std::vector<PlatformChange> blocking;
  for (const PlatformChange& change : platform_changes(platform_of(baseline), platform_of(results))) {
    if (change.field == "sm_clock_mhz" || change.field == "mem_clock_mhz") continue;
    if (change.kind != PlatformChange::Kind::kUnknown || change.field == "driver") blocking.push_back(change);
  }
  return blocking;
}

std::set<std::string> unchanged_benchmarks(const Baseline& baseline, const std::vector<ResultsFile>& results,
                                           const Selection& selection) {
  std::set<std::string> unchanged;
  if (!platform_changes_preventing_skipping(baseline, results).empty()) return unchanged;
  for (const auto& [name, now] : pool_fingerprints(results)) {
    const auto entry = baseline.benchmarks.find(name);
    if (!selection.matches(name) || entry == baseline.benchmarks.end() || !entry->second.fingerprint) continue;
    if (compare_code(*entry->second.fingerprint, now).comparison == CodeComparison::kSame) {
      unchanged.insert(name);
    }
  }
  return unchanged;
}

VerdictCounts same_code_counts(const Comparison& comparison) {
  VerdictCounts counts{};
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (row.code && row.code->comparison == CodeComparison::kSame) ++counts[static_cast<int>(row.verdict)];
  }
  return counts;
}

}  // namespace gpuperf::gate
