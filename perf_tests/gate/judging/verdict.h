#pragma once
// The verdicts a benchmark can get, in order of severity, and the rule that turns a measured change into
// one. The rule is a pure function of the evidence so that every edge of it can be unit-tested.

#include <string>

namespace gpuperf::gate {

// A process with fewer valid samples than this gives the benchmark no median: it is left out.
inline constexpr int kMinSamples = 5;
// SLOW or FAST needs at least this many current processes (A/B: pairs). One process can be an outlier
// (before the launch gate, 2 of 8 processes timed a 14 us kernel 8% and 28% slow) that the baseline's
// spread cannot reveal; a second one shows it, and the pooled spread widens the interval.
inline constexpr int kMinProcessesToCall = 2;

// Most severe first: reports list benchmarks in this order.
enum class Verdict {
  kError,      // the benchmark reported an error (failed correctness check, CUDA error): never a pass
  kSlow,       // regression: slower by more than the tolerance, and significantly so
  kMissing,    // in the baseline, not in the results (a failure only with --strict)
  kPlatform,   // the same code as the baseline's, beyond its tolerance: the machine, driver or harness moved
               // (judging/same_code_rule.h); passes unless --fail-on-platform
  kNotJudged,  // too few valid samples (throttling), or units that do not compare
  kAmbiguous,  // the interval straddles a tolerance edge: re-measure
  kFast,       // improvement beyond the tolerance: passes, refresh the baseline to keep it
  kNew,        // in the results, not in the baseline: passes, add it to the baseline
  kSame,       // within tolerance
  kUnchanged,  // not re-timed (--skip-unchanged): the same code as the baseline's on the same platform
};

const char* verdict_name(Verdict verdict);  // "SLOW", "PLATFORM", "NOT_JUDGED", ...

// What the data say about the ratio now / before of a typical process's median.
struct Evidence {
  double ci_low = 0.0;  // confidence interval of the ratio
  double ci_high = 0.0;
  double p_slower = 1.0;  // one-sided p of "now is slower" (H0: ratio <= 1)
  double p_faster = 1.0;
  int processes = 0;  // current processes (A/B: pairs) behind the evidence
  double ratio = 0.0;  // the estimate of the ratio (read only by DecisionRule::by_estimate)
};

struct DecisionRule {
  double tolerance_pct = 0.0;  // [percent]
  double alpha = 0.0;          // one benchmark's share of the run's false-alarm budget (ErrorBudget)
  int min_processes = kMinProcessesToCall;
  // The last look against a runner's own history (judging/runner_judging.h, which says where it applies):
  // an interval that still straddles an edge is decided by the estimate instead of ending AMBIGUOUS.
  bool by_estimate = false;
};

// SLOW: p_slower < alpha (the run's family-wise false-alarm rate holds for unchanged code), the interval
// wholly above 1 + tol (the slowdown matters), and at least min_processes processes. FAST: the mirror
// image. SAME: interval inside [1 - tol, 1 + tol]. AMBIGUOUS: anything else (re-measure); with by_estimate,
// SLOW (FAST) where the estimate is beyond the tolerance and p_slower (p_faster) < alpha with enough
// processes, else SAME where the estimate is within it.
Verdict decide(const Evidence& evidence, const DecisionRule& rule);

}  // namespace gpuperf::gate
