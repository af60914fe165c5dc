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

int exit_code(const Comparison& comparison) {
  const VerdictCounts counts = count_verdicts(comparison);
  if (count_of(counts, Verdict::kError) > 0) return formats::kExitInvalidInput;
  if (count_of(counts, Verdict::kSlow) > 0) return formats::kExitRegression;
  if (comparison.fail_on_platform && count_of(counts, Verdict::kPlatform) > 0) return formats::kExitRegression;
  if (comparison.strict && count_of(counts, Verdict::kMissing) > 0) return formats::kExitRegression;
  if (count_of(counts, Verdict::kNotJudged) > 0 || !anything_judged(counts)) return formats::kExitNotJudged;
  return formats::kExitPass;
}

std::string outcome_text(const Comparison& comparison) {
  const VerdictCounts counts = count_verdicts(comparison);
  switch (exit_code(comparison)) {
    case formats::kExitPass:
      return "PASS";
    case formats::kExitRegression:
      if (count_of(counts, Verdict::kSlow) > 0) return "FAIL: regression";
      if (comparison.fail_on_platform && count_of(counts, Verdict::kPlatform) > 0) {
        return "FAIL: the platform moved (--fail-on-platform)";
      }
      return "FAIL: benchmarks missing (--strict)";
    case formats::kExitInvalidInput:
      return "INVALID: a benchmark reported an error";
    default:
      return anything_judged(counts) ? "NOT JUDGED: some benchmarks could not be judged"
                                     : "NOT JUDGED: no benchmark was judged";
  }
}

std::string counts_text(const VerdictCounts& counts) {
  std::string text;
  for (int v = 0; v < kVerdictCount; ++v) {
    if (counts[v] == 0) continue;
    if (!text.empty()) text += ", ";
    text += std::to_string(counts[v]) + " " + verdict_name(static_cast<Verdict>(v));
  }
  return text.empty() ? "no benchmarks" : text;
}

}  // namespace gpuperf::gate
