#pragma once
// The code side of a comparison: what each benchmark's fingerprint (harness/fingerprint/) says changed
// against the baseline's (A/B: build A's), which benchmarks ran the same code, and which of them need no
// re-timing. Informational beside the timing verdicts, except for --skip-unchanged's UNCHANGED.

#include <map>
#include <set>
#include <string>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/platform.h"
#include "gate/inputs/results.h"
#include "gate/inputs/selection.h"
#include "gate/judging/comparison.h"
#include "gate/judging/outcome.h"

namespace gpuperf::gate {

// Fills each row's `code` from the two sides' fingerprints (compare_code; where one side holds none of the
// benchmark, kUnknown with that side's CodeSideMissing::kNoneForBenchmark); when a whole side holds none,
// comparison.code_not_checked says which instead and no row is compared. `now_cannot_have` (ResultsFile::no_fingerprints_because of
// the results judged, as no_fingerprints_because() gives it): where the results come from a suite that
// captures none, kSuiteCapturesNone, with what the suite is.
void add_code_changes(const std::map<std::string, formats::Fingerprint>& before,
                      const std::map<std::string, formats::Fingerprint>& now, Comparison& comparison,
                      const std::string& now_cannot_have = "");

// Why none of `results` can hold fingerprints (their no_fingerprints_because, where every one gives the
// same), or "".
std::string no_fingerprints_because(const std::vector<ResultsFile>& results);

// The baseline's fingerprints by benchmark name.
std::map<std::string, formats::Fingerprint> baseline_fingerprints(const Baseline& baseline);

// What keeps these results' benchmarks from skipping their timing on this platform, empty when nothing
// does: the driver, CUDA runtime, compute capability, SM count and memory must be known and equal to the
// baseline's (clocks are not compared: a process that times nothing reads none). A driver that a side does
// not give is kept as a kUnknown change; reports/code_words.h words the list.
std::vector<PlatformChange> platform_changes_preventing_skipping(const Baseline& baseline,
                                                                 const std::vector<ResultsFile>& results);

// The selected benchmarks whose captured fingerprint in `results` equals the baseline's (compare_code:
// same) on a platform that allows skipping; empty when the platform does not. What --skip-unchanged leaves
// un-timed.
std::set<std::string> unchanged_benchmarks(const Baseline& baseline, const std::vector<ResultsFile>& results,
                                           const Selection& selection);

// The verdicts given to benchmarks whose code was the same on both sides (UNCHANGED ones too): on
// unchanged code, every SLOW or FAST is a false alarm, so these are the gate's observed error rate.
VerdictCounts same_code_counts(const Comparison& comparison);

}  // namespace gpuperf::gate
