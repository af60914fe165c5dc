#pragma once
// The verdicts a benchmark can get, in order of severity, and the rule that turns a measured change into
// one. The rule is a pure function of the evidence so that every edge of it can be unit-tested.

#include <string>

namespace gpuperf::gate {

// Significance a slowdown or speed-up needs (one-sided p) before it is called SLOW or FAST.
inline constexpr double kDefaultAlpha = 0.001;
// Fewer valid samples than this on either side and the benchmark is not judged.
inline constexpr int kMinSamples = 5;

// Most severe first: reports list benchmarks in this order.
enum class Verdict {
  kError,      // the benchmark reported an error (failed correctness check, CUDA error): never a pass
  kSlow,       // regression: slower by more than the tolerance, and significantly so
  kMissing,    // in the baseline, not in the results (a failure only with --strict)
  kNotJudged,  // too few valid samples (throttling), or units that do not compare
  kAmbiguous,  // the interval straddles a tolerance edge: re-measure
  kFast,       // improvement beyond the tolerance: passes, refresh the baseline to keep it
  kNew,        // in the results, not in the baseline: passes, add it to the baseline
  kSame,       // within tolerance
};

const char* verdict_name(Verdict verdict);  // "SLOW", "NOT_JUDGED", ...

// What the data say about ratio = median(now) / median(baseline).
struct Evidence {
  double ci_low = 0.0;  // confidence interval of the ratio
  double ci_high = 0.0;
  double p_slower = 1.0;  // one-sided p of "now is slower"
  double p_faster = 1.0;
};

struct DecisionRule {
  double tolerance_pct = 0.0;  // [percent]
  double alpha = kDefaultAlpha;
  // Paired A/B with few pairs cannot reach a strict alpha (k pairs: p >= 0.5^k); there the interval
  // alone decides.
  bool require_significance = true;
};

// SLOW: interval wholly above 1 + tol and p_slower < alpha. FAST: wholly below 1 - tol and p_faster <
// alpha. SAME: interval inside [1 - tol, 1 + tol]. AMBIGUOUS: anything else.
Verdict decide(const Evidence& evidence, const DecisionRule& rule);

}  // namespace gpuperf::gate
