#include "gate/ncu/diagnosis.h"

#include <algorithm>

#include "formats/fingerprint.h"

namespace gpuperf::gate {

bool operator==(const NcuSkipped& a, const NcuSkipped& b) {
  return a.reason == b.reason && a.side == b.side && a.path == b.path && a.detail == b.detail;
}

std::vector<std::string> slowest_slow(const Comparison& comparison, std::size_t top) {
  std::vector<const BenchmarkComparison*> slow;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (row.verdict == Verdict::kSlow) slow.push_back(&row);
  }
  std::stable_sort(slow.begin(), slow.end(),
                   [](const BenchmarkComparison* a, const BenchmarkComparison* b) { return a->ratio > b->ratio; });
  std::vector<std::string> names;
  for (std::size_t i = 0; i < slow.size() && i < top; ++i) names.push_back(slow[i]->name);
  return names;
}

bool profilable(const ResultsFile& results, const std::string& benchmark) {
  const auto fingerprint = results.fingerprints.find(benchmark);
  return fingerprint != results.fingerprints.end() &&
         fingerprint->second.capture_status == formats::kCapturedByCupti && !fingerprint->second.kernels.empty();
}

std::vector<NcuDiagnosis> all_skipped(const std::vector<std::string>& benchmarks, const NcuSkipped& why) {
  std::vector<NcuDiagnosis> entries;
  for (const std::string& name : benchmarks) entries.push_back({name, why, NcuPair::kBaselineNow, {}, ""});
  return entries;
}

}  // namespace gpuperf::gate
