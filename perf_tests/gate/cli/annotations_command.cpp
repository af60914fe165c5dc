// annotations: the GitHub annotations of a run's verdict reports (reports/annotations.h), for the CI
// scripts to print instead of rebuilding them.
#include <filesystem>
#include <string>

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "gate/cli/commands.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/annotations.h"

namespace gpuperf::gate::cli {

int run_annotations(const Arguments& args, std::ostream& out, std::ostream& err) {
  int exit_code = formats::kExitPass;
  for (const std::string& path : args.list("--report")) {
    // A report the reader refuses (a name outside the rule, an unknown verdict, another schema_version,
    // not JSON: none that perf_gate writes) annotates none of its benchmarks, since no field of it can be
    // trusted; it is one ::error:: saying so instead, and exit 2. The other reports are annotated still,
    // so that one bad file hides no regression of another.
    try {
      const VerdictReport report = read_verdict_report(
          formats::read_text_file(path, "give the --json report of perf_gate compare or ab"), path);
      out << annotation_lines(report, std::filesystem::path(path).filename().string());
    } catch (const formats::InputError& e) {
      // The annotation names the file and points to the log, which has the reader's message (its names
      // already escaped for a console: escaped again for the annotation they would read \x5cx0a).
      out << "::error title=Verdict report refused::"
          << formats::escape_workflow_message(std::filesystem::path(path).filename().string())
          << ": perf_gate cannot read it as a verdict report it wrote (the job's log says why: a name outside"
             " the rule, an unknown verdict, another schema_version, not JSON); none of its benchmarks is"
             " annotated\n";
      err << "perf_gate: error: " << e.what() << "\n";
      exit_code = formats::kExitInvalidInput;
    }
  }
  return exit_code;
}

}  // namespace gpuperf::gate::cli
