#pragma once
// The reports of a comparison: console lines for a person, Markdown for $GITHUB_STEP_SUMMARY, JSON for
// machines, and the list of benchmarks to re-measure.

#include <optional>
#include <ostream>
#include <string>

#include "gate/judging/comparison.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/canary_words.h"
#include "gate/reports/wording.h"

namespace gpuperf::gate {

// When the memory canary moved (judging/memory_canary.h): the warning every report prints near the platform's; empty
// otherwise.
inline std::optional<RunNotice> canary_warning(const Comparison& comparison) {
  if (!comparison.canary || !comparison.canary->moved()) return std::nullopt;
  return RunNotice{canary_summary(*comparison.canary), canary_action(*comparison.canary)};
}

// "machine's memory 3.1% slower" beside a memory-bound verdict when the canary moved; empty otherwise.
inline std::string machine_note(const BenchmarkComparison& row) {
  return row.machine_memory_change_pct ? canary_note(*row.machine_memory_change_pct) : "";
}

// One actionable line per benchmark that is not SAME, most severe first, then a one-line summary.
void write_console_report(const Comparison& comparison, std::ostream& out);

// A header naming the GPU and the outcome, then a table of every benchmark, most severe first; last a line
// naming the harness's version ("gpuperf 0.1.0").
void write_markdown_report(const Comparison& comparison, std::ostream& out);

// Every number of every benchmark, the verdicts, the outcome and the exit code; harness_version beside
// schema_version.
std::string json_report(const Comparison& comparison);

// The AMBIGUOUS benchmark names, one per line (empty when none): what the orchestrator re-measures.
std::string remeasure_list(const Comparison& comparison);

// perf_gate unchanged's line (and perf_gate run --skip-unchanged's): "2 of 3 fingerprinted benchmarks
// unchanged (...): not re-timed", then "; <why_not_skipped>" where the platform prevents skipping.
std::string unchanged_line(std::size_t unchanged, int fingerprinted, const std::string& why_not_skipped);

}  // namespace gpuperf::gate
