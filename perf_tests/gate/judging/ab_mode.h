#pragma once
// A/B mode: two builds measured on one GPU with their runs interleaved (A1, B1, A2, B2, ...), so that a
// drift of the machine during the session hits both builds alike. Run i of A is paired with run i of B.

#include <vector>

#include "gate/inputs/results.h"
#include "gate/inputs/selection.h"
#include "gate/judging/comparison.h"
#include "gate/statistics/error_budget.h"

namespace gpuperf::gate {

// Two builds on one GPU, interleaved, differ far less than a run and a months-old baseline.
inline constexpr double kDefaultAbTolerancePct = 1.0;
// Pairs needed before the spread of pair ratios can be estimated at all (one degree of freedom).
inline constexpr int kMinPairs = 2;

struct AbOptions {
  Selection selection;
  double tolerance_pct = kDefaultAbTolerancePct;  // [percent]
  double run_alpha = kDefaultRunAlpha;
  int looks = 1;  // the most times the caller judges a benchmark (1 + re-measurements)
};

// Per benchmark: ratio_i = median(B_i) / median(A_i) for every pair in which both runs have kMinSamples
// valid samples; the change is the geometric mean of the ratio_i with a Student t interval on pairs - 1
// degrees of freedom (statistics/process_inference.h), and p-values of the same paired t test, judged under the
// run's budget split over every benchmark of A and B. Fewer than kMinPairs usable pairs: NOT_JUDGED. A
// cycle-count benchmark's tolerance is at least kCycleResolution of A's median. InputError when the two
// lists differ in length or the files come from different GPUs. The comparison lists how B's platform
// differs from A's (inputs/platform.h): the pairs assume one.
Comparison compare_ab(const std::vector<ResultsFile>& a, const std::vector<ResultsFile>& b, const AbOptions& options);

}  // namespace gpuperf::gate
