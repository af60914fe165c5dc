#pragma once
// The words every report shares around its numbers (numbers.h): the noise and the error budget behind a
// verdict, the platform's warnings, what to do about a row, and how text read from files enters Markdown.

#include <optional>
#include <string>

#include "gate/judging/comparison.h"
#include "gate/judging/outcome.h"
#include "gate/statistics/error_budget.h"

namespace gpuperf::gate {

// The outcome's words (judging/outcome.h): "PASS", "FAIL: regression", "FAIL: the platform moved
// (--fail-on-platform)", "FAIL: benchmarks missing (--strict)", "INVALID: a benchmark reported an error",
// "NOT JUDGED: some benchmarks could not be judged", "NOT JUDGED: no benchmark was judged".
std::string outcome_text(const Comparison& comparison);

// "1 SLOW, 2 AMBIGUOUS, 40 SAME" (verdicts that occur, most severe first), or "no benchmarks".
std::string counts_text(const VerdictCounts& counts);

// What the comparison was made against, for every report's header: "baseline recorded 2026-11-22T03:00:00Z at
// commit abc123" (then, where they apply: how many benchmarks a runner's own history judged, why it judged
// no more, the same-GPU default tolerance, a runner history of another baseline left unused), or "build A
// (5 runs interleaved with B)".
std::string against_text(const Comparison& comparison);

// The command that refreshes a GPU's baseline: what SLOW, FAST, NEW and MISSING lines point to.
inline constexpr const char* kUpdateBaselineCommand = "scripts/update_baseline.sh";

// The noise a verdict assumed and the processes behind it: "process sd 0.31%, 3 processes vs 10
// recorded" (A/B: "pair sd 0.62%, 12 pairs"); empty when nothing was judged.
std::string format_noise(const BenchmarkComparison& row, const std::string& mode);
// The run's false-alarm budget: "family-wise false-alarm rate 1% per run (108 benchmarks x 3 looks: each
// test at p < 3.1e-05; intervals 99.67% a look)".
std::string format_error_control(const ErrorBudget& budget);
// Text as one Markdown table cell or sentence: formats::escape_markdown_text, the one Markdown escaping of
// text read from files (the reports of this folder call it by that name).
std::string markdown_cell(const std::string& text);
// A line of a report about the whole run rather than one benchmark.
struct RunNotice {
  std::string summary;  // what happened
  std::string action;   // what to do, lower case: the console writes "summary  -> action"
};

// Empty when the platform did not change; else names every change ("driver 580.159.04 -> 590.44.01"),
// the fields that could not be compared, and says the verdicts stand.
std::optional<RunNotice> platform_warning(const Comparison& comparison);

// When the platform changed and benchmarks moved with it (moved_together, inputs/platform.h): the hint to
// re-record the baseline (compare) or to re-run both builds on one platform (ab) once the move is
// confirmed to be the platform's. Empty otherwise.
std::optional<RunNotice> moved_with_platform(const Comparison& comparison);

// When the baseline and the results were measured with different versions of the timing method
// (Comparison::method_change): which, what that does to same-code verdicts, and to re-record. Empty
// otherwise.
std::optional<RunNotice> method_change_notice(const Comparison& comparison);

// The action a person should take for this row of a comparison in `mode` ("compare" or "ab"; "" for
// SAME). A/B has no baseline to refresh: there B is the build to fix.
std::string action_hint(const BenchmarkComparison& row, const std::string& mode);

}  // namespace gpuperf::gate
