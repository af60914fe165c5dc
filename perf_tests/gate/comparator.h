#pragma once
// Comparing results with a GPU's baseline: every selected benchmark of both sides gets a verdict.

#include <string>
#include <vector>

#include "gate/baseline.h"
#include "gate/comparison.h"
#include "gate/results.h"
#include "gate/selection.h"
#include "gate/statistics.h"

namespace gpuperf::gate {

struct CompareOptions {
  Selection selection;
  double alpha = kDefaultAlpha;
  bool strict = false;
  BootstrapSettings bootstrap;
};

// InputError when the results carry no gpu_slug or another one than the baseline's. When every results
// file names one GPU (gpu_uuid) listed in the baseline's recorded.gpu_uuids, the baseline's
// same_gpu_tolerance_pct replaces its default, and `against` says so.
Comparison compare_with_baseline(const Baseline& baseline, const std::vector<ResultsFile>& results,
                                 const CompareOptions& options);

// Whether any benchmark of the comparison was given the same-GPU default tolerance: the `same_gpu` of
// the JSON report.
bool same_gpu_tolerance_applied(const Comparison& comparison);

// The steps shared with the A/B comparator.

// Why a benchmark's current side cannot be judged: skipped, or fewer than kMinSamples valid samples
// ("27 of 30 samples throttled ..."). Empty when it can.
std::string why_not_judgeable(const BenchmarkSamples& samples);

// Fills ratio, interval, p-values and verdict of `row` from two independent samples (both non-empty):
// bootstrap interval of the ratio of medians and a Mann-Whitney U test, seeded by row.name.
void judge_independent_samples(const std::vector<double>& baseline, const std::vector<double>& current,
                               const DecisionRule& rule, const BootstrapSettings& bootstrap, BenchmarkComparison& row);

}  // namespace gpuperf::gate
