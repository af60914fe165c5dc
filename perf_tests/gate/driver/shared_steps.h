#pragma once
// The steps perf_gate run and ab-run share: a process that failed ends the test, the same-code ledger is
// added to, the reports are written, a stop is printed, and the results measured so far are read once each.

#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gate/driver/driver_stop.h"
#include "gate/driver/process.h"
#include "gate/driver/suite.h"
#include "gate/inputs/results.h"
#include "gate/judging/comparison.h"
#include "gate/ledger/ledger_update.h"
#include "gate/reports/report_files.h"

namespace gpuperf::gate::driver {

// The last 20 lines of `log` on `err`, then DriverStop (exit 2) with `message`: a process that failed or
// crashed proves nothing about the code, so the test is an infrastructure failure.
[[noreturn]] void stop_after_failure(const std::string& log, const std::string& message, std::ostream& err);

// Counts the comparison's verdicts on unchanged code in the ledger (ledger/ledger_update.h), identified by
// the JSON report it renders, before any report is written: the count is rendered in them (reports/report.h).
// `report` names the report in the ledger's line. Where it cannot, its error and "the same-code ledger L was
// not updated (the verdict stands)" on `err`, and none.
std::optional<LedgerCount> count_in_ledger(const std::string& ledger, const Comparison& comparison,
                                           const std::string& report, std::ostream& err);

// What a test's reports are made of besides its judgement: the ledger to count it in ("" none), and the
// Nsight Compute diagnosis of a regression, which a test without one leaves empty.
struct ReportExtras {
  std::string same_code_ledger;
  std::function<std::vector<NcuDiagnosis>(const Comparison&)> diagnose;
};

// The reports of a test's last judgement (`decided`, whose exit code is `exit_code`), rendered once
// (reports/report.h): counted in the ledger unless the judgement was invalid (exit 2), diagnosed where it
// failed on a regression, written to `files`, then printed on `out` with "report: <markdown>". Returns
// `exit_code`, or 2 (the error on `err`) where a file could not be written.
int write_reports(Comparison decided, int exit_code, const ReportFiles& files, const ReportExtras& extras,
                  std::ostream& out, std::ostream& err);

// Prints how a test stopped ("SKIPPED: why" for exit 77, "error: why" otherwise) and returns its exit code.
int report_stop(const DriverStop& stop, std::ostream& err);

// The results files of a test's processes, each read once (by its suite) however often it is judged.
class MeasuredResults {
 public:
  // The files at `paths`, in that order. formats::InputError for one that is not valid results.
  std::vector<ResultsFile> read(const Suite& suite, const std::vector<std::string>& paths);

 private:
  std::map<std::string, ResultsFile> read_;
};

// The commit of `folder`'s checkout, short ("" where it is none, or git is missing): what each process
// names in its results' context when GPUPERF_GIT_COMMIT does not say.
std::string checkout_commit(const std::string& folder);

}  // namespace gpuperf::gate::driver
