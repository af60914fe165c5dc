#include "gate/comparator.h"

#include <algorithm>
#include <map>

#include "gate/format.h"
#include "gate/input_error.h"
#include "gate/tolerance.h"

namespace gpuperf::gate {
namespace {

BenchmarkComparison row_from_current(const std::string& name, const BenchmarkSamples& current) {
  BenchmarkComparison row;
  row.name = name;
  row.unit = current.unit;
  row.current_samples = static_cast<int>(current.samples.size());
  row.throttled = current.throttled;
  row.repetitions = current.repetitions;
  row.bytes = current.bytes;
  row.flops = current.flops;
  row.injected_slowdown_pct = current.injected_slowdown_pct;
  if (!current.samples.empty()) row.current_median = median(current.samples);
  return row;
}

// Whether the results were measured on a GPU that recorded the baseline: then only that GPU's own
// process-to-process noise separates them from the baseline, not the spread between machines. `uuid` is
// empty when the results name no GPU or several.
bool recorded_on(const Baseline& baseline, const std::string& uuid) {
  const std::vector<std::string>& recorded = baseline.recorded.gpu_uuids;
  return !uuid.empty() && std::find(recorded.begin(), recorded.end(), uuid) != recorded.end();
}

BenchmarkComparison compare_one(const std::string& name, const BaselineEntry& entry, const BenchmarkSamples& current,
                                const Baseline& baseline, bool same_gpu, const CompareOptions& options) {
  BenchmarkComparison row = row_from_current(name, current);
  if (row.unit.empty()) row.unit = entry.unit;  // a benchmark that only errored reports no unit
  row.baseline_median = median(entry.samples);
  row.baseline_samples = static_cast<int>(entry.samples.size());
  if (row.bytes == 0.0) row.bytes = entry.bytes;
  if (row.flops == 0.0) row.flops = entry.flops;
  const Tolerance tolerance = resolve_tolerance(baseline, name, entry, same_gpu);
  row.tolerance_pct = tolerance.pct;
  row.tolerance_source = tolerance.source;

  if (current.error) {
    row.verdict = Verdict::kError;
    row.reason = current.error_message;
    return row;
  }
  if (const std::string why = why_not_judgeable(current); !why.empty()) {
    row.verdict = Verdict::kNotJudged;
    row.reason = why;
    return row;
  }
  if (current.unit != entry.unit) {
    row.verdict = Verdict::kNotJudged;
    row.reason = "unit mismatch: the baseline is in " + entry.unit + ", the results in " + current.unit +
                 " (the benchmark changed its metric: refresh the baseline)";
    return row;
  }
  if (row.baseline_samples < kMinSamples) {
    row.verdict = Verdict::kNotJudged;
    row.reason = "the baseline holds only " + std::to_string(row.baseline_samples) + " samples (need " +
                 std::to_string(kMinSamples) + "): re-record it";
    return row;
  }
  judge_independent_samples(entry.samples, current.samples, DecisionRule{tolerance.pct, options.alpha, true},
                            options.bootstrap, row);
  return row;
}

}  // namespace

std::string why_not_judgeable(const BenchmarkSamples& samples) {
  if (samples.skipped) return "skipped by the perf binary: " + samples.skip_message;
  const int valid = static_cast<int>(samples.samples.size());
  if (valid >= kMinSamples) return "";
  const std::string need = " (need " + std::to_string(kMinSamples) + " valid samples)";
  if (samples.throttled > 0) {
    std::string causes;
    if (samples.power_capped > 0) causes = std::to_string(samples.power_capped) + " power capped";
    if (samples.shared_gpu > 0) {
      causes += (causes.empty() ? "" : ", ") + std::to_string(samples.shared_gpu) + " with another process on the GPU";
    }
    if (causes.empty()) causes = "clock throttle reason or another process on the GPU";
    return std::to_string(samples.throttled) + " of " + std::to_string(samples.repetitions) + " samples throttled (" +
           causes + "), " + std::to_string(valid) + " left" + need;
  }
  return "only " + std::to_string(valid) + " samples" + need;
}

void judge_independent_samples(const std::vector<double>& baseline, const std::vector<double>& current,
                               const DecisionRule& rule, const BootstrapSettings& bootstrap, BenchmarkComparison& row) {
  row.baseline_median = median(baseline);
  row.current_median = median(current);
  row.ratio = row.current_median / row.baseline_median;
  const Interval interval = bootstrap_ratio_of_medians(baseline, current, seed_from_name(row.name), bootstrap);
  row.ci_low = interval.low;
  row.ci_high = interval.high;
  const RankTest test = mann_whitney_u(baseline, current);
  row.p_slower = test.p_greater;
  row.p_faster = test.p_less;
  row.verdict = decide(Evidence{row.ci_low, row.ci_high, row.p_slower, row.p_faster}, rule);
}

Comparison compare_with_baseline(const Baseline& baseline, const std::vector<ResultsFile>& results,
                                 const CompareOptions& options) {
  if (results.empty()) throw InputError("no results files given - pass --results FILE");
  const std::string slug = common_gpu_slug(results);
  if (slug.empty()) {
    throw InputError(results.front().source +
                     ": context has no gpu_slug, so the GPU cannot be matched with the baseline - write the "
                     "results with the project's perf binary, which records it");
  }
  if (slug != baseline.gpu.slug) {
    throw InputError("GPU mismatch: the results are from '" + slug + "' (" + results.front().gpu.name +
                     ") but the baseline is for '" + baseline.gpu.slug + "' - compare with baselines/" + slug +
                     ".json, or record that GPU's baseline: scripts/update_baseline.sh");
  }
  const std::map<std::string, BenchmarkSamples> pooled = pool_results(results);
  const std::string uuid = common_gpu_uuid(results);
  const bool same_gpu = recorded_on(baseline, uuid);

  Comparison comparison;
  comparison.mode = "compare";
  comparison.gpu_name = results.front().gpu.name.empty() ? baseline.gpu.name : results.front().gpu.name;
  comparison.gpu_slug = slug;
  comparison.against = "baseline recorded " + baseline.recorded.date + " at commit " + baseline.recorded.commit;
  comparison.alpha = options.alpha;
  comparison.strict = options.strict;

  for (const auto& [name, current] : pooled) {
    if (!options.selection.matches(name)) continue;
    const auto entry = baseline.benchmarks.find(name);
    if (entry != baseline.benchmarks.end()) {
      comparison.benchmarks.push_back(compare_one(name, entry->second, current, baseline, same_gpu, options));
      continue;
    }
    BenchmarkComparison row = row_from_current(name, current);
    row.verdict = current.error ? Verdict::kError : Verdict::kNew;
    row.reason = current.error ? current.error_message : "not in the baseline";
    comparison.benchmarks.push_back(std::move(row));
  }
  for (const auto& [name, entry] : baseline.benchmarks) {
    if (!options.selection.matches(name) || pooled.count(name) != 0) continue;
    BenchmarkComparison row;
    row.name = name;
    row.verdict = Verdict::kMissing;
    row.reason = "in the baseline, not in the results";
    row.unit = entry.unit;
    row.baseline_median = median(entry.samples);
    row.baseline_samples = static_cast<int>(entry.samples.size());
    row.bytes = entry.bytes;
    row.flops = entry.flops;
    comparison.benchmarks.push_back(std::move(row));
  }
  sort_by_severity(comparison.benchmarks);
  // Said only where it judged something, so that header and JSON agree with the rows' tolerances.
  if (same_gpu_tolerance_applied(comparison)) {
    comparison.against +=
        " on this GPU (" + uuid + "), same-GPU default tolerance " + format_pct(*baseline.same_gpu_tolerance_pct);
  }
  return comparison;
}

bool same_gpu_tolerance_applied(const Comparison& comparison) {
  return std::any_of(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                     [](const BenchmarkComparison& row) { return row.tolerance_source == kSameGpuDefaultSource; });
}

}  // namespace gpuperf::gate
