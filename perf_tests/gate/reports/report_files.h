#pragma once
// The report files of one judgement, written together: what perf_gate compare and ab write for their
// --markdown, --json and --remeasure-list, and what the driver (perf_gate run, ab-run) writes after each
// look.

#include <string>
#include <vector>

#include "gate/judging/comparison.h"
#include "gate/reports/report.h"

namespace gpuperf::gate {

// The files to write; "" leaves one out.
struct ReportFiles {
  std::string markdown;
  std::string json;
  std::string remeasure_list;
};

// Checks every path given (formats::check_output_path, each file once) before anything is read or
// judged: a bad one fails at once, with nothing written. InputError naming it.
void check_report_files(const ReportFiles& files);

// Writes every file given, all or none (formats::OutputFiles), rendered from `report`: once per judgement,
// when the run has everything the report holds. InputError naming a file that failed.
void write_report_files(const Report& report, const ReportFiles& files);

// Removes every file given that exists: what a run does first, so that one ending before its judgement
// (an exit 2 or 77) leaves no earlier run's report in its place, looking like its own. InputError naming
// a file that exists and cannot be removed.
void remove_report_files(const ReportFiles& files);

// The AMBIGUOUS benchmarks of the comparison, in the order of remeasure_list (reports.h): what is
// measured again.
std::vector<std::string> ambiguous_benchmarks(const Comparison& comparison);

}  // namespace gpuperf::gate
