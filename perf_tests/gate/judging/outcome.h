#pragma once
// From verdicts to the one result CI acts on: the outcome and its exit code (their words: reports/wording.h).

#include <array>
#include <string>

#include "gate/judging/comparison.h"

namespace gpuperf::gate {

inline constexpr int kVerdictCount = 10;
using VerdictCounts = std::array<int, kVerdictCount>;  // indexed by static_cast<int>(Verdict)

VerdictCounts count_verdicts(const Comparison& comparison);

// What a comparison comes to, most severe first: the one result CI acts on (exit_code) and every report
// words (reports/wording.h, outcome_text).
enum class Outcome {
  kInvalid,         // a benchmark reported an error (ERROR)
  kRegression,      // SLOW
  kPlatformMoved,   // PLATFORM, with fail_on_platform
  kMissing,         // MISSING, when strict
  kSomeNotJudged,   // NOT_JUDGED among judged benchmarks
  kNothingJudged,   // no benchmark judged at all
  kPass,
};

// ERROR -> kInvalid; else SLOW -> kRegression (then PLATFORM with fail_on_platform -> kPlatformMoved, MISSING
// when strict -> kMissing); else NOT_JUDGED -> kSomeNotJudged, nothing judged at all -> kNothingJudged; else
// kPass. AMBIGUOUS passes: the orchestrator re-measures it, and what stays ambiguous after that is within
// noise of the tolerance. PLATFORM passes by default: the code is the baseline's, so the change is not the
// code's.
Outcome outcome_of(const Comparison& comparison);

// kInvalid -> kExitInvalidInput; kRegression, kPlatformMoved, kMissing -> kExitRegression; kSomeNotJudged,
// kNothingJudged -> kExitNotJudged; kPass -> kExitPass.
int exit_code(const Comparison& comparison);

}  // namespace gpuperf::gate
