#pragma once
// When the code did not change, a change in time beyond the tolerance is the platform's: the machine, the
// driver or the harness's own way of measuring moved, not the code under review. Such a row gets a verdict
// of its own, PLATFORM, which passes by default (--fail-on-platform makes it fail), so that unchanged code
// never fails on a fresh host. Pure functions, so that every case of the rule can be unit-tested.

#include <optional>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/judging/code_change.h"
#include "gate/judging/comparison.h"
#include "gate/judging/verdict.h"

namespace gpuperf::gate {

enum class SameCodeRuling {
  kKeep,          // the verdict stands (not beyond the tolerance, or the code changed or was not compared)
  kPlatform,      // the same code beyond the tolerance: PLATFORM
  kKernelsOnly,   // the same kernels, but a fingerprint does not cover copies and sets: the verdict stands,
                  // and the row's note says why it was not PLATFORM
};

// SLOW or FAST over code compared as kSame becomes PLATFORM when both fingerprints cover all the GPU work
// of the timed region (CodeChange::covers_all_gpu_work), or when the measuring method changed (then the
// fingerprints may cover kernels only: the method alone can move the time). Every other row keeps its
// verdict; a same-code SLOW or FAST whose fingerprints cover kernels only is kKernelsOnly.
SameCodeRuling rule_same_code(Verdict verdict, const std::optional<CodeChange>& code, bool method_changed);

// The method change between a baseline and the results that are compared with it: nullopt where either
// side's measuring_method is 0 (a team suite's, whose method is its own) or all agree. Where the results'
// files disagree among themselves, the first that differs from the baseline's is named.
std::optional<MethodChange> method_change_of(const Baseline& baseline, const std::vector<ResultsFile>& results);

// Applies rule_same_code to every row of a stored comparison (after add_code_changes): PLATFORM rows keep
// ratio, interval and tolerance; kKernelsOnly rows get the note NoteCode::kKernelsOnly.
void apply_same_code_rule(Comparison& comparison);

}  // namespace gpuperf::gate
