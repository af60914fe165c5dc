#include "gate/judging/outcome.h"

#include "formats/exit_codes.h"

namespace gpuperf::gate {
namespace {

int count_of(const VerdictCounts& counts, Verdict verdict) { return counts[static_cast<int>(verdict)]; }

// UNCHANGED counts: its code was compared with the baseline's, found the same, and checked for correctness.
bool anything_judged(const VerdictCounts& counts) {
  return count_of(counts, Verdict::kSlow) + count_of(counts, Verdict::kFast) + count_of(counts, Verdict::kSame) +
             count_of(counts, Verdict::kAmbiguous) + count_of(counts, Verdict::kUnchanged) +
             count_of(counts, Verdict::kPlatform) >
         0;
}

}  // namespace

VerdictCounts count_verdicts(const Comparison& comparison) {
  VerdictCounts counts{};
  for (const BenchmarkComparison& row : comparison.benchmarks) ++counts[static_cast<int>(row.verdict)];
  return counts;
}

Outcome outcome_of(const Comparison& comparison) {
  const VerdictCounts counts = count_verdicts(comparison);
  if (count_of(counts, Verdict::kError) > 0) return Outcome::kInvalid;
  if (count_of(counts, Verdict::kSlow) > 0) return Outcome::kRegression;
  if (comparison.fail_on_platform && count_of(counts, Verdict::kPlatform) > 0) return Outcome::kPlatformMoved;
  if (comparison.strict && count_of(counts, Verdict::kMissing) > 0) return Outcome::kMissing;
  if (!anything_judged(counts)) return Outcome::kNothingJudged;
  if (count_of(counts, Verdict::kNotJudged) > 0) return Outcome::kSomeNotJudged;
  return Outcome::kPass;
}

int exit_code(const Comparison& comparison) {
  switch (outcome_of(comparison)) {
    case Outcome::kInvalid:
      return formats::kExitInvalidInput;
    case Outcome::kRegression:
    case Outcome::kPlatformMoved:
    case Outcome::kMissing:
      return formats::kExitRegression;
    case Outcome::kSomeNotJudged:
    case Outcome::kNothingJudged:
      return formats::kExitNotJudged;
    case Outcome::kPass:
      break;
  }
  return formats::kExitPass;
}

}  // namespace gpuperf::gate
