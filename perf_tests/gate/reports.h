#pragma once
// The reports of a comparison: console lines for a person, Markdown for $GITHUB_STEP_SUMMARY, JSON for
// machines, and the list of benchmarks to re-measure.

#include <ostream>
#include <string>

#include "gate/comparison.h"

namespace gpuperf::gate {

// Bump when a field of the JSON report changes meaning or disappears.
// 2: error_control replaces alpha; rows carry processes, process_sd_pct, df and note.
inline constexpr int kReportSchemaVersion = 2;

// One actionable line per benchmark that is not SAME, most severe first, then a one-line summary.
void write_console_report(const Comparison& comparison, std::ostream& out);

// A header naming the GPU and the outcome, then a table of every benchmark, most severe first.
void write_markdown_report(const Comparison& comparison, std::ostream& out);

// Every number of every benchmark, the verdicts, the outcome and the exit code.
std::string json_report(const Comparison& comparison);

// The AMBIGUOUS benchmark names, one per line (empty when none): what the orchestrator re-measures.
std::string remeasure_list(const Comparison& comparison);

}  // namespace gpuperf::gate
