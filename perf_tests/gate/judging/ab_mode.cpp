#include "gate/judging/ab_mode.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "formats/input_error.h"
#include "gate/judging/code_check.h"
#include "gate/judging/stored_mode.h"
#include "gate/judging/tolerance.h"
#include "gate/statistics/process_inference.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

std::map<std::string, BenchmarkSamples> pool(const std::vector<ResultsFile>& files) {
  std::map<std::string, BenchmarkSamples> pooled;
  for (const ResultsFile& file : files) {
    for (const auto& [name, samples] : file.benchmarks) pool_into(pooled[name], samples, name, file.source);
  }
  return pooled;
}

// The per-pair ratios median(B_i) / median(A_i) of one benchmark, over pairs where both sides have at
// least kMinSamples valid samples.
std::vector<double> pair_ratios(const std::string& name, const std::vector<ResultsFile>& a,
                                const std::vector<ResultsFile>& b) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::optional<double> in_a = process_median(a[i], name, kMinSamples);
    const std::optional<double> in_b = process_median(b[i], name, kMinSamples);
    if (in_a && in_b) ratios.push_back(*in_b / *in_a);
  }
  return ratios;
}

BenchmarkComparison compare_one(const std::string& name, const BenchmarkSamples* in_a, const BenchmarkSamples* in_b,
                                const std::vector<ResultsFile>& a, const std::vector<ResultsFile>& b,
                                const AbOptions& options, const ErrorBudget& budget) {
  BenchmarkComparison row;
  row.name = name;
  row.tolerance_pct = options.tolerance_pct;
  row.tolerance_source = source_of(ToleranceOrigin::kAbOption);
  const BenchmarkSamples& any = in_b != nullptr ? *in_b : *in_a;
  row.unit = any.unit;
  row.bytes = any.bytes;
  row.flops = any.flops;
  if (in_a != nullptr) {
    row.baseline_samples = static_cast<int>(in_a->samples.size());
    if (!in_a->samples.empty()) row.baseline_median = median(in_a->samples);
  }
  if (in_b != nullptr) {
    row.current_samples = static_cast<int>(in_b->samples.size());
    row.throttled = in_b->throttled;
    row.repetitions = in_b->repetitions;
    row.injected_slowdown_pct = in_b->injected_slowdown_pct;
    if (!in_b->samples.empty()) row.current_median = median(in_b->samples);
  }

  if ((in_a != nullptr && in_a->error) || (in_b != nullptr && in_b->error)) {
    row.verdict = Verdict::kError;
    row.reason = in_b != nullptr && in_b->error ? reason_of(ReasonCode::kBenchmarkError, in_b->error_message, "B")
                                                : reason_of(ReasonCode::kBenchmarkError, in_a->error_message, "A");
    return row;
  }
  if (in_a == nullptr) {
    row.verdict = Verdict::kNew;
    row.reason = reason_of(ReasonCode::kOnlyInB);
    return row;
  }
  if (in_b == nullptr) {
    row.verdict = Verdict::kMissing;
    row.reason = reason_of(ReasonCode::kOnlyInA);
    return row;
  }
  const std::vector<double> ratios = pair_ratios(name, a, b);
  row.pairs = static_cast<int>(ratios.size());
  row.baseline_processes = row.pairs;
  row.current_processes = row.pairs;
  for (const auto& [side, samples] : {std::pair{"A", in_a}, std::pair{"B", in_b}}) {
    const int usable = static_cast<int>(process_medians(side == std::string("A") ? a : b, name, kMinSamples).size());
    if (RowReason why = why_not_judgeable(*samples, usable); !why.empty()) {
      row.verdict = Verdict::kNotJudged;
      row.reason = std::move(why);
      row.reason.side = side;
      return row;
    }
  }
  if (in_a->unit != in_b->unit) {
    row.verdict = Verdict::kNotJudged;
    row.reason = unit_mismatch(in_a->unit, in_b->unit);
    return row;
  }
  if (row.pairs < kMinPairs) {
    row.verdict = Verdict::kNotJudged;
    row.reason = reason_of(ReasonCode::kTooFewPairs);
    row.reason.pairs = row.pairs;
    row.reason.pairs_needed = kMinPairs;
    return row;
  }

  const Tolerance tolerance =
      at_least_cycle_resolution({row.tolerance_pct, row.tolerance_source}, in_a->unit, row.baseline_median);
  row.tolerance_pct = tolerance.pct;
  row.tolerance_source = tolerance.source;
  const ProcessEvidence evidence =
      compare_paired_ratios(ratios, budget.interval_confidence(), resolution_sd(in_a->unit, row.baseline_median));
  apply_evidence(evidence, row.pairs, DecisionRule{row.tolerance_pct, budget.test_alpha()}, row);
  return row;
}

}  // namespace

Comparison compare_ab(const std::vector<ResultsFile>& a, const std::vector<ResultsFile>& b, const AbOptions& options) {
  if (a.empty() || b.empty()) throw formats::InputError("A/B needs at least one results file per side (--a and --b)");
  if (a.size() != b.size()) {
    throw formats::InputError("A/B pairs run i of A with run i of B, but there are " + std::to_string(a.size()) +
                     " A files and " + std::to_string(b.size()) +
                     " B files - pass as many of each, in the order they ran (A1 B1 A2 B2 ...)");
  }
  std::vector<ResultsFile> all = a;
  all.insert(all.end(), b.begin(), b.end());
  const std::string slug = common_gpu_slug(all);

  const std::map<std::string, BenchmarkSamples> pooled_a = pool(a);
  const std::map<std::string, BenchmarkSamples> pooled_b = pool(b);
  std::set<std::string> names;
  for (const auto& entry : pooled_a) names.insert(entry.first);
  for (const auto& entry : pooled_b) names.insert(entry.first);

  Comparison comparison;
  comparison.mode = "ab";
  comparison.gpu_name = a.front().gpu.name;
  comparison.gpu_slug = slug;
  comparison.against.ab_runs = static_cast<int>(a.size());
  comparison.budget = ErrorBudget{options.run_alpha, std::max<int>(1, static_cast<int>(names.size())),
                                  std::max(1, options.looks)};
  comparison.platform = platform_changes(platform_of(a), platform_of(b));
  for (const std::string& name : names) {
    if (!options.selection.matches(name)) continue;
    const auto in_a = pooled_a.find(name);
    const auto in_b = pooled_b.find(name);
    comparison.benchmarks.push_back(compare_one(name, in_a == pooled_a.end() ? nullptr : &in_a->second,
                                                in_b == pooled_b.end() ? nullptr : &in_b->second, a, b, options,
                                                comparison.budget));
  }
  sort_by_severity(comparison.benchmarks);
  add_code_changes(pool_fingerprints(a), pool_fingerprints(b), comparison,
                   no_fingerprints_because(b));
  return comparison;
}

}  // namespace gpuperf::gate
