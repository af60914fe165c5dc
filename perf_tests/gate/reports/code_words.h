#pragma once
// The words of a code change (judging/code_change.h) and of what keeps a platform from skipping unchanged
// benchmarks (judging/code_check.h): the one place they are worded, for the console, Markdown and JSON
// reports and for perf_gate unchanged.

#include <string>
#include <vector>

#include "gate/inputs/platform.h"
#include "gate/judging/code_change.h"

namespace gpuperf::gate {

// One difference as a person reads it: "tiled<256>: registers 64 -> 96", "kernel A replaced by B",
// "memset of 4194304 bytes added", "cublas 13.0.0 -> 13.1.0", "SASS of tiled<256> unknown".
std::string code_difference_words(const CodeDifference& difference);

// Every difference of `change`, worded, in its order: the JSON report's "changes".
std::vector<std::string> code_change_words(const CodeChange& change);

// The differences of `change` that are warnings, worded, in its order: the JSON report's "warnings".
std::vector<std::string> code_warning_words(const CodeChange& change);

// Why a kUnknown comparison was not made: "the baseline has no fingerprint (<status>)", "not captured now
// (<status>)", or both joined by "; "; "" where both sides were captured.
std::string code_unknown_words(const CodeChange& change);

// "the platform is not the baseline's (driver 580.159.04 -> 590.44.01, SM count unknown)" for the changes
// platform_changes_preventing_skipping() gives; "" where there are none.
std::string platform_prevents_skipping_words(const std::vector<PlatformChange>& blocking);

}  // namespace gpuperf::gate
