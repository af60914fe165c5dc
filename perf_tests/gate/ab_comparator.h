#pragma once
// A/B mode: two builds measured on one GPU with their runs interleaved (A1, B1, A2, B2, ...), so that a
// drift of the machine during the session hits both builds alike. Run i of A is paired with run i of B.

#include <vector>

#include "gate/comparison.h"
#include "gate/results.h"
#include "gate/selection.h"
#include "gate/statistics.h"

namespace gpuperf::gate {

// Two builds on one GPU, interleaved, differ far less than a run and a months-old baseline.
inline constexpr double kDefaultAbTolerancePct = 1.0;
// Pairs needed for the paired comparison; with fewer the pooled samples are compared unpaired.
inline constexpr int kMinPairs = 2;

struct AbOptions {
  Selection selection;
  double tolerance_pct = kDefaultAbTolerancePct;  // [percent]
  double alpha = kDefaultAlpha;
  BootstrapSettings bootstrap;
};

// Per benchmark: ratio_i = median(B_i) / median(A_i) for every pair in which both runs have valid
// samples; the change is the median of the ratio_i with a bootstrap interval over the pairs, decided by
// the interval alone (an exact sign test is reported as p: k pairs cannot give p below 0.5^k). Fewer
// than kMinPairs usable pairs: the pooled samples are compared as in compare mode (interval and
// Mann-Whitney U). A cycle-count benchmark's tolerance is at least kCycleResolution of A's median. InputError when the two lists differ in length or the files come from different GPUs.
Comparison compare_ab(const std::vector<ResultsFile>& a, const std::vector<ResultsFile>& b, const AbOptions& options);

}  // namespace gpuperf::gate
