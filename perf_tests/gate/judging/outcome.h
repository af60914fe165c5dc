#pragma once
// From verdicts to the one result CI acts on: the exit code, and the words that explain it.

#include <array>
#include <string>

#include "gate/judging/comparison.h"

namespace gpuperf::gate {

inline constexpr int kVerdictCount = 10;
using VerdictCounts = std::array<int, kVerdictCount>;  // indexed by static_cast<int>(Verdict)

VerdictCounts count_verdicts(const Comparison& comparison);

// ERROR -> kExitInvalidInput; else SLOW (or PLATFORM with fail_on_platform, or MISSING when strict) ->
// kExitRegression; else NOT_JUDGED, or nothing judged at all -> kExitNotJudged; else kExitPass. AMBIGUOUS
// passes: the orchestrator re-measures it, and what stays ambiguous after that is within noise of the
// tolerance. PLATFORM passes by default: the code is the baseline's, so the change is not the code's.
int exit_code(const Comparison& comparison);

// "PASS", "FAIL: regression", "FAIL: the platform moved (--fail-on-platform)", "INVALID: a benchmark
// reported an error", "NOT JUDGED".
std::string outcome_text(const Comparison& comparison);

// "1 SLOW, 2 AMBIGUOUS, 40 SAME" (verdicts that occur, most severe first), or "no benchmarks".
std::string counts_text(const VerdictCounts& counts);

}  // namespace gpuperf::gate
