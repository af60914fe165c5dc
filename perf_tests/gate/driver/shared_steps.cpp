#include "gate/driver/shared_steps.h"

#include <exception>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/driver/console.h"
#include "gate/reports/report.h"
#include "gate/reports/reports.h"

namespace gpuperf::gate::driver {

void stop_after_failure(const std::string& log, const std::string& message, std::ostream& err) {
  err << log_tail(log, 20);
  throw DriverStop(formats::kExitInvalidInput, message);
}

std::optional<LedgerCount> count_in_ledger(const std::string& ledger, const Comparison& comparison,
                                           const std::string& report, std::ostream& err) {
  try {
    const LedgerCount count = count_in_same_code_ledger(ledger, json_report(comparison), report);
    if (count.counted_before) {
      // A retried CI step: counting it again would inflate the count.
      err << "perf_gate: " << report << " was counted in " << ledger << " already (the same report); nothing changed\n";
    }
    return count;
  } catch (const std::exception& e) {
    err << "perf_gate: error: " << e.what() << "\n";
  }
  note(err, "the same-code ledger " + ledger + " was not updated (the verdict stands)");
  return std::nullopt;
}

int write_reports(Comparison decided, int exit_code, const ReportFiles& files, const ReportExtras& extras,
                  std::ostream& out, std::ostream& err) {
  Report report{std::move(decided)};
  if (!extras.same_code_ledger.empty() && exit_code != formats::kExitInvalidInput) {
    report.same_code = count_in_ledger(extras.same_code_ledger, report.comparison, files.json, err);
  }
  if (exit_code == formats::kExitRegression && extras.diagnose) report.diagnosis = extras.diagnose(report.comparison);
  try {
    write_report_files(report, files);
  } catch (const formats::InputError& e) {
    err << "perf_gate: error: " << e.what() << "\n";
    return formats::kExitInvalidInput;
  }
  write_console_report(report, out);
  out << "report: " << files.markdown << "\n";
  return exit_code;
}

int report_stop(const DriverStop& stop, std::ostream& err) {
  err << (stop.exit_code() == formats::kExitNotJudged ? "SKIPPED: " : "error: ") << stop.what() << "\n";
  return stop.exit_code();
}

std::vector<ResultsFile> MeasuredResults::read(const Suite& suite, const std::vector<std::string>& paths) {
  std::vector<ResultsFile> files;
  for (const std::string& path : paths) {
    auto it = read_.find(path);
    if (it == read_.end()) it = read_.emplace(path, suite.read_results(path)).first;
    files.push_back(it->second);
  }
  return files;
}

std::string checkout_commit(const std::string& folder) {
  std::string output;
  try {
    const ProcessOutcome outcome =
        run_process_captured({{"git", "-C", folder, "rev-parse", "--short", "HEAD"}, {}, ""}, output);
    if (!outcome.succeeded()) return "";
  } catch (const DriverStop&) {
    return "";  // no git
  }
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) output.pop_back();
  return output;
}

}  // namespace gpuperf::gate::driver
