#pragma once
// A judgement's report: the comparison, and what the run learned after it was decided (the same-code
// ledger's count, the Nsight Compute diagnosis of its regressions). The console, the Markdown and the JSON are all rendered from it, once, when the run has
// everything (report_files.h): no file is written and then rewritten by a later step.

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "gate/judging/comparison.h"
#include "gate/ledger/ledger_update.h"
#include "gate/ncu/diagnosis.h"

namespace gpuperf::gate {

struct Report {
  explicit Report(Comparison decided) : comparison(std::move(decided)) {}

  Comparison comparison;
  // The same-code ledger after this report was counted in it (--same-code-ledger); none when not asked.
  std::optional<LedgerCount> same_code;
  // The Nsight Compute diagnosis of the slowest SLOW benchmarks (ncu/diagnosis.h); empty when none was run.
  std::vector<NcuDiagnosis> diagnosis;
};

// The console lines (reports.h: write_console_report), then the ledger's line and the diagnosis's.
void write_console_report(const Report& report, std::ostream& out);
// The Markdown report (reports.h), then the ledger's line where it has a count, then the diagnosis's
// section (reports/ncu_diagnosis_text.h).
std::string markdown_report(const Report& report);
// The JSON report (reports.h), with "same_code_ledger" (the count, ledger/same_code_ledger.h: tally_json)
// where the ledger has one.
std::string json_report(const Report& report);

}  // namespace gpuperf::gate
