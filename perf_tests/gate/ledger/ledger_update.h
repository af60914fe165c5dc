#pragma once
// Counting one report in the same-code ledger: for perf_gate compare and ab (--same-code-ledger), for the
// driver (perf_gate run, ab-run), which count each run's verdicts on unchanged code before they render its
// reports, and for perf_gate ledger, which counts a report already written. Only the ledger's own file is
// written here: the count reaches the report through reports/report.h, rendered once.

#include <optional>
#include <string>

#include "gate/ledger/same_code_ledger.h"

namespace gpuperf::gate {

// What counting one report did.
struct LedgerCount {
  std::string ledger_path;
  std::string report;    // the report counted, as the caller named it
  std::string gpu_name;  // the report's GPU, as the report names it
  std::string mode;      // the report's mode: "compare" or "ab"
  // The running count of the report's GPU model and mode after it; none while neither this report nor an
  // earlier one of that GPU and mode held a timed verdict on unchanged code.
  std::optional<SameCodeTally> tally;
  // The report was counted before (a retried CI step gives the same report again): nothing changed.
  bool counted_before = false;
};

// Adds the timed verdicts on unchanged code of the report `report_json` (the JSON perf_gate compare or ab
// renders, without "same_code_ledger"; `source` names it in messages) to the running count in `ledger_path`
// (created if missing; locked from its read to its write and replaced atomically). formats::InputError for
// a report the one reader refuses (judging/verdict_report.h) or a ledger that is not one.
LedgerCount count_in_same_code_ledger(const std::string& ledger_path, const std::string& report_json,
                                      const std::string& source);

// The line a person reads: ledger_line() of the tally, or "same code: nothing counted yet for <GPU>
// (<mode>): <report> holds no timed verdict on unchanged code".
std::string ledger_count_line(const LedgerCount& count);

}  // namespace gpuperf::gate
