#pragma once
// Comparing results with a GPU's baseline: every selected benchmark of both sides gets a verdict, from
// the per-process medians of both (statistics/process_inference.h) under the run's false-alarm budget
// (error_budget.h).

#include <string>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/inputs/runner_history.h"
#include "gate/inputs/selection.h"
#include "gate/judging/comparison.h"
#include "gate/statistics/error_budget.h"
#include "gate/statistics/process_inference.h"

namespace gpuperf::gate {

// Processes a baseline is recorded from (scripts/update_baseline.sh). A baseline from fewer is judged
// with the wider interval its degrees of freedom allow, and the report says so.
inline constexpr int kRecommendedBaselineProcesses = 10;

struct CompareOptions {
  Selection selection;
  double run_alpha = kDefaultRunAlpha;
  int looks = 1;  // the most times the caller judges a benchmark (1 + re-measurements)
  // Whether this is the caller's last look: a benchmark judged against its runner's history is then decided
  // by its estimate where its interval still straddles the tolerance (judging/runner_judging.h).
  bool last_look = true;
  bool strict = false;
  // PLATFORM (the same code beyond its tolerance: judging/same_code_rule.h) fails the run (exit 1) instead
  // of passing: for teams that gate driver or runner changes.
  bool fail_on_platform = false;
  // Benchmarks of the baseline with no timing in the results, whose fingerprint there equals the
  // baseline's on the same platform (judging/code_check.h): UNCHANGED, not MISSING.
  bool skip_unchanged = false;
  // The runners' histories of the baseline's code (perf_gate history-offsets). Where the results' GPU has
  // at least kMinRunnerHistoryRuns runs of a benchmark there, the benchmark is judged against that runner's
  // own level at the same-GPU tolerance (statistics/runner_history.h); elsewhere against the baseline.
  // Ignored when it is for another GPU model or another baseline. Not owned; may be null.
  const RunnerHistory* runner_history = nullptr;
};

// InputError when the results carry no gpu_slug or another one than the baseline's. When every results
// file names one GPU (gpu_uuid) listed in the baseline's recorded.gpu_uuids, the baseline's
// same_gpu_tolerance_pct replaces its default, and `against` says so. Each results file is one process.
// The budget is split over every benchmark of the baseline, selected or not, so that the families of one
// suite, judged by separate calls, share one run-level rate. The comparison lists how the results'
// platform differs from the baseline's (inputs/platform.h), and the memory canary of the results' ceiling
// benchmarks, whichever family the selection judges (judging/memory_canary.h), without judging by either.
Comparison compare_with_baseline(const Baseline& baseline, const std::vector<ResultsFile>& results,
                                 const CompareOptions& options);

// Whether any benchmark of the comparison was given the same-GPU default tolerance: the `same_gpu`
// of the JSON report.
bool same_gpu_tolerance_applied(const Comparison& comparison);

// The steps shared with the A/B comparator.

// Why a benchmark's current side cannot be judged: the suite skipped it itself (SkipWithMessage, an nvbench
// state it skipped or without GPU time: not the GPU's doing), or no process has kMinSamples valid samples
// (throttled, or too few). Empty when it can.
RowReason why_not_judgeable(const BenchmarkSamples& samples, int usable_processes);

// The smallest process-to-process spread a benchmark can claim (log scale): a cycle count is rounded to
// whole cycles, and no timer resolves a relative change below 1e-4.
double resolution_sd(const std::string& unit, double median);

// Fills ratio, interval, p-values, spread and verdict of `row` from `evidence`.
void apply_evidence(const ProcessEvidence& evidence, int processes, const DecisionRule& rule,
                    BenchmarkComparison& row);

}  // namespace gpuperf::gate
