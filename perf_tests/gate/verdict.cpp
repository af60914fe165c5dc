#include "gate/verdict.h"

namespace gpuperf::gate {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kError:
      return "ERROR";
    case Verdict::kSlow:
      return "SLOW";
    case Verdict::kMissing:
      return "MISSING";
    case Verdict::kNotJudged:
      return "NOT_JUDGED";
    case Verdict::kAmbiguous:
      return "AMBIGUOUS";
    case Verdict::kFast:
      return "FAST";
    case Verdict::kNew:
      return "NEW";
    case Verdict::kSame:
      return "SAME";
  }
  return "UNKNOWN";
}

Verdict decide(const Evidence& evidence, const DecisionRule& rule) {
  const double tol = rule.tolerance_pct / 100.0;
  const bool slower_significant = !rule.require_significance || evidence.p_slower < rule.alpha;
  const bool faster_significant = !rule.require_significance || evidence.p_faster < rule.alpha;
  if (evidence.ci_low > 1.0 + tol && slower_significant) return Verdict::kSlow;
  if (evidence.ci_high < 1.0 - tol && faster_significant) return Verdict::kFast;
  if (evidence.ci_low >= 1.0 - tol && evidence.ci_high <= 1.0 + tol) return Verdict::kSame;
  return Verdict::kAmbiguous;
}

}  // namespace gpuperf::gate
