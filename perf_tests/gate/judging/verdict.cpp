#include "gate/judging/verdict.h"

namespace gpuperf::gate {

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kError:
      return "ERROR";
    case Verdict::kSlow:
      return "SLOW";
    case Verdict::kMissing:
      return "MISSING";
    case Verdict::kPlatform:
      return "PLATFORM";
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
    case Verdict::kUnchanged:
      return "UNCHANGED";
  }
  return "UNKNOWN";
}

Verdict decide(const Evidence& evidence, const DecisionRule& rule) {
  const double tol = rule.tolerance_pct / 100.0;
  const bool enough_processes = evidence.processes >= rule.min_processes;
  if (evidence.ci_low > 1.0 + tol && evidence.p_slower < rule.alpha && enough_processes) return Verdict::kSlow;
  if (evidence.ci_high < 1.0 - tol && evidence.p_faster < rule.alpha && enough_processes) return Verdict::kFast;
  if (evidence.ci_low >= 1.0 - tol && evidence.ci_high <= 1.0 + tol) return Verdict::kSame;
  if (rule.by_estimate) {
    if (evidence.ratio > 1.0 + tol && evidence.p_slower < rule.alpha && enough_processes) return Verdict::kSlow;
    if (evidence.ratio < 1.0 - tol && evidence.p_faster < rule.alpha && enough_processes) return Verdict::kFast;
    if (evidence.ratio >= 1.0 - tol && evidence.ratio <= 1.0 + tol) return Verdict::kSame;
  }
  return Verdict::kAmbiguous;
}

}  // namespace gpuperf::gate
