// metrics: a run's verdict reports in the formats of the dashboards teams keep (reports/metrics_export.h).
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/json_input.h"
#include "gate/cli/commands.h"
#include "gate/judging/verdict_report.h"
#include "gate/reports/metrics_export.h"

namespace gpuperf::gate::cli {

int run_metrics(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::vector<std::string> outputs = checked_outputs(args, {"--bmf", "--github-benchmark"});
  if (outputs.empty()) {
    throw UsageError("metrics needs an output: --bmf OUT.json (Bencher) and/or --github-benchmark OUT.json");
  }
  std::vector<VerdictReport> reports;
  for (const std::string& path : args.list("--verdict")) {
    reports.push_back(read_verdict_report(
        formats::read_text_file(path, "give the --json report of perf_gate compare or ab"), path));
  }
  const MetricsExport metrics = metrics_from_reports(reports);
  formats::OutputFiles files;
  if (args.has("--bmf")) files.add(args.value("--bmf"), bencher_metric_format(metrics));
  if (args.has("--github-benchmark")) files.add(args.value("--github-benchmark"), github_benchmark_json(metrics));
  files.write();
  out << "metrics of " << metrics.gpu_slug << ": " << metrics.measured.size() << " benchmarks";
  if (!metrics.left_out.empty()) out << "; " << metrics.left_out.size() << " left out, with no median of this run";
  out << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
