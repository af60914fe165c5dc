// ledger: the running count of verdicts on unchanged code.
#include "formats/exit_codes.h"
#include "formats/json_input.h"
#include "gate/cli/commands.h"
#include "gate/ledger/ledger_update.h"

namespace gpuperf::gate::cli {

// Counts a report written before; the report itself is left as it is: a report is rendered once, by the
// command that judged (compare or ab --same-code-ledger renders the count in it).
int run_ledger(const Arguments& args, std::ostream& out, std::ostream& err) {
  if (args.has("--markdown")) {
    throw UsageError("perf_gate ledger no longer appends to a Markdown report: give --same-code-ledger FILE to "
                     "perf_gate compare or ab, which count the verdicts and render the count in their reports");
  }
  const std::string report = args.required("--report");
  const LedgerCount count = count_in_same_code_ledger(
      args.required("--ledger"), formats::read_text_file(report, "give the --json report of perf_gate compare or ab"),
      report);
  if (count.counted_before) {
    err << "perf_gate: " << report << " was counted in " << count.ledger_path
        << " already (the same report); nothing changed\n";
  }
  out << ledger_count_line(count) << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
