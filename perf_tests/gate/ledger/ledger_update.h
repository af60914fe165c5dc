#pragma once
// perf_gate ledger's work as a call, for the command and for the driver (perf_gate run, ab-run), which adds
// each run's verdicts on unchanged code to the same-code ledger in-process.

#include <ostream>
#include <string>

namespace gpuperf::gate {

// Adds the timed verdicts on unchanged code of the JSON report `report_path` (perf_gate compare or ab
// --json) to the running count in `ledger_path` (created if missing; locked and replaced atomically),
// writes the count into the report ("same_code_ledger") and appends its line to `markdown_path` (""
// for none); prints the line on `out`. formats::InputError for bad input; returns the exit code.
int update_same_code_ledger(const std::string& ledger_path, const std::string& report_path,
                            const std::string& markdown_path, std::ostream& out, std::ostream& err);

}  // namespace gpuperf::gate
