// phases: where a run's time went, from the phase files its steps wrote (gate/phases/).
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "gate/cli/commands.h"
#include "gate/phases/phase_files.h"
#include "gate/phases/time_table.h"
#include "gate/phases/time_table_report.h"

namespace gpuperf::gate::cli {

int run_phases(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string dir = args.required("--dir");
  checked_outputs(args, {"--markdown", "--json"});
  const std::vector<std::string> paths = phases::list_phase_files(dir);
  if (paths.empty()) {
    throw formats::InputError("no phase files (*.json) in " + dir +
                              " - give the folder the run's steps wrote them to (<build>/perf-results/phases)");
  }
  std::vector<phases::PhaseFile> files;
  for (const std::string& path : paths) {
    files.push_back(phases::parse_phase_file(
        formats::read_text_file(path, "delete it, or run its step again"), path));
  }
  const phases::TimeTable table = phases::build_time_table(files);
  const std::string markdown = phases::time_table_markdown(table);
  if (!args.has("--markdown") && !args.has("--json")) {
    out << markdown;
    return formats::kExitPass;
  }
  formats::OutputFiles outputs;
  if (args.has("--markdown")) outputs.add(args.value("--markdown"), markdown);
  if (args.has("--json")) outputs.add(args.value("--json"), phases::time_table_json(table));
  outputs.write();
  out << "time table: " << files.size() << " phase files in " << dir << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
