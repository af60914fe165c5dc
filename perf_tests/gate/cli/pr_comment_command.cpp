// pr-comment: the pull-request comment of a run's verdict reports (reports/pr_comment.h), for the CI
// scripts to print instead of rebuilding it in jq.
#include <filesystem>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "gate/cli/commands.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/pr_comment.h"

namespace gpuperf::gate::cli {

int run_pr_comment(const Arguments& args, std::ostream& out, std::ostream& err) {
  // The link of the comment: checked before anything is read, so that a bad one writes no comment.
  const std::string run_url = args.required("--run-url");
  if (const std::string error = run_url_error(run_url); !error.empty()) {
    throw formats::InputError(error);
  }
  int exit_code = formats::kExitPass;
  std::vector<PrCommentInput> inputs;
  const std::vector<std::string> none;
  for (const std::string& path : args.has("--report") ? args.list("--report") : none) {
    PrCommentInput input{std::filesystem::path(path).filename().string(), std::nullopt};
    // A report the reader refuses (none that perf_gate writes) shows none of its fields, since none can
    // be trusted: one row says it was refused, the log says why, exit 2. The other reports are shown
    // still, so that one bad file hides no regression of another.
    try {
      input.report = read_verdict_report(
          formats::read_text_file(path, "give the --json report of perf_gate compare or ab"), path);
    } catch (const formats::InputError& e) {
      err << "perf_gate: error: " << e.what() << "\n";
      exit_code = formats::kExitInvalidInput;
    }
    inputs.push_back(std::move(input));
  }
  out << pr_comment_markdown(inputs, run_url);
  return exit_code;
}

}  // namespace gpuperf::gate::cli
