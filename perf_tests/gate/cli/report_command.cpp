// report: the fleet report, every variant on every GPU.
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/case_listing.h"
#include "formats/exit_codes.h"
#include "gate/cli/commands.h"
#include "gate/fleet/measurements.h"
#include "gate/fleet/render.h"
#include "gate/fleet/table.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate::cli {
namespace {

FleetChart chart_from(const Arguments& args) {
  const std::string chart = args.has("--chart") ? args.value("--chart") : "mermaid";
  if (chart == "mermaid") return FleetChart::kMermaid;
  if (chart == "none") return FleetChart::kNone;
  throw UsageError("--chart '" + chart + "' must be mermaid or none");
}

}  // namespace

int run_report(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string cases = args.required("--cases");
  const FleetChart chart = chart_from(args);
  checked_outputs(args, {"--markdown", "--json"});
  const std::vector<std::pair<std::string, std::string>> inputs = args.in_order({"--baseline", "--results"});
  if (inputs.empty()) {
    throw UsageError("report needs what to tabulate: one --baseline FILE per GPU and/or --results FILES");
  }
  const formats::CaseListing listing = formats::load_case_listing(cases);
  std::vector<FleetInput> loaded;
  for (const auto& [option, path] : inputs) {
    if (option == "--baseline") {
      loaded.emplace_back(BaselineInput{path, load_baseline(path)});
    } else {
      loaded.emplace_back(load_results(path));
    }
  }
  const FleetReport report = build_fleet_report(listing, fleet_gpus(std::move(loaded)));
  // Both renderings first: a failure leaves no file written.
  std::ostringstream markdown;
  write_fleet_markdown(report, chart, markdown);
  const std::string json = fleet_json_report(report);
  if (!args.has("--markdown") && !args.has("--json")) {
    out << markdown.str();
    return formats::kExitPass;
  }
  formats::OutputFiles files;
  if (args.has("--markdown")) files.add(args.value("--markdown"), markdown.str());
  if (args.has("--json")) files.add(args.value("--json"), json);
  files.write();
  std::size_t rows = 0;
  for (const FleetFamily& family : report.families) rows += family.rows.size();
  out << "fleet report: " << rows << " benchmarks in " << report.families.size()
      << (report.families.size() == 1 ? " family on " : " families on ") << report.gpus.size()
      << (report.gpus.size() == 1 ? " GPU" : " GPUs");
  for (std::size_t i = 0; i < report.gpus.size(); ++i) out << (i == 0 ? " (" : ", ") << report.gpus[i].slug;
  out << ")";
  if (!report.unlisted.empty()) out << "; " << report.unlisted.size() << " measured but not in " << cases;
  out << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
