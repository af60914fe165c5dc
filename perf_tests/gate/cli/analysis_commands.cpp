// order-table, calibration-report: the tables of scripts/order_check.sh and scripts/calibrate.sh.
#include <filesystem>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "gate/analysis/calibration.h"
#include "gate/analysis/calibration_report.h"
#include "gate/analysis/order_table.h"
#include "gate/analysis/order_table_report.h"
#include "gate/cli/commands.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate::cli {

int run_order_table(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string dir = args.required("--dir");
  checked_outputs(args, {"--markdown"});
  const std::vector<std::string> paths = analysis::list_order_run_files(dir);
  if (paths.empty()) {
    throw formats::InputError("no <way>.round<r>.json files in " + dir +
                              " - give the --out folder of scripts/order_check.sh");
  }
  std::vector<ResultsFile> results = load_results_files(paths);
  std::vector<analysis::OrderRun> runs;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    const analysis::OrderRunName name =
        *analysis::parse_order_run_name(std::filesystem::path(paths[i]).filename().string());
    runs.push_back({name.way, name.round, std::move(results[i])});
  }
  const std::string markdown = analysis::order_table_markdown(analysis::build_order_table(runs));
  if (!args.has("--markdown")) {
    out << markdown;
    return formats::kExitPass;
  }
  formats::write_file_atomically(args.value("--markdown"), markdown);
  out << "order table: " << runs.size() << " processes in " << dir << ", written to " << args.value("--markdown")
      << "\n";
  return formats::kExitPass;
}

int run_calibration_report(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  // A count of the script's: a whole number in [low, 1e6] (each is required, checked below).
  const auto whole = [&args](const char* option, int low) { return *args.whole_number(option, low, 1000000); };
  for (const char* option : {"--verdicts", "--gpu", "--trials", "--processes", "--repetitions", "--max-remeasure",
                             "--rounds", "--ab-repetitions", "--ab-max-remeasure"}) {
    args.required(option);
  }
  analysis::CalibrationSettings settings;
  settings.gpu_name = args.value("--gpu");
  if (const std::string error = formats::name_error(formats::NameKind::kGpu, settings.gpu_name); !error.empty()) {
    throw UsageError("--gpu: " + error);
  }
  settings.trials_per_cell = whole("--trials", 1);
  settings.processes = whole("--processes", 1);
  settings.repetitions = whole("--repetitions", 1);
  settings.max_remeasure = whole("--max-remeasure", 0);
  settings.ab_rounds = whole("--rounds", 1);
  settings.ab_repetitions = whole("--ab-repetitions", 1);
  settings.ab_max_remeasure = whole("--ab-max-remeasure", 0);
  checked_outputs(args, {"--markdown", "--json"});
  const std::string path = args.value("--verdicts");
  const analysis::CalibrationReport report = analysis::build_calibration_report(
      analysis::parse_calibration_trials(formats::read_text_file(path, "write it with scripts/calibrate.sh"), path),
      settings);
  const std::string markdown = analysis::calibration_markdown(report);
  if (!args.has("--markdown") && !args.has("--json")) {
    out << markdown;
    return formats::kExitPass;
  }
  formats::OutputFiles files;
  if (args.has("--markdown")) files.add(args.value("--markdown"), markdown);
  if (args.has("--json")) files.add(args.value("--json"), analysis::calibration_json(report));
  files.write();
  out << "calibration report: " << report.cells.size() << " cells of " << report.modes.size()
      << (report.modes.size() == 1 ? " mode" : " modes") << " from " << path << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
