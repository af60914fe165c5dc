// compare, unchanged, ab: judging results against a baseline or build A.
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/names.h"
#include "gate/cli/commands.h"
#include "gate/driver/shared_steps.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/inputs/runner_history.h"
#include "gate/inputs/selection.h"
#include "gate/judging/ab_mode.h"
#include "gate/judging/code_check.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/judging/tolerance.h"
#include "gate/reports/code_words.h"
#include "gate/reports/report_files.h"
#include "gate/reports/reports.h"

namespace gpuperf::gate::cli {
namespace {

constexpr double kMinAlpha = 1e-12;
constexpr double kMaxAlpha = 0.5;
constexpr int kMaxLooks = 100;
// The longest --filter [characters]: far beyond any name the registry has (kMaxBenchmarkNameLength), and
// short enough that std::regex, which matches recursively, cannot nest deep enough to overflow the stack
// on a name of that length.
constexpr std::size_t kMaxFilterLength = 256;

int looks_from(const Arguments& args) { return args.whole_number("--looks", 1, kMaxLooks).value_or(1); }

Selection selection_from(const Arguments& args) {
  if (args.has("--family") && args.has("--filter")) throw UsageError("give --family or --filter, not both");
  if (args.has("--family")) return Selection::family(args.value("--family"));
  if (args.has("--filter")) {
    const std::string filter = args.value("--filter");
    if (filter.size() > kMaxFilterLength) {
      throw UsageError("--filter is " + std::to_string(filter.size()) + " characters long; at most " +
                       std::to_string(kMaxFilterLength) + " are accepted (a benchmark name has at most " +
                       std::to_string(kMaxBenchmarkNameLength) + ") - use --family or a shorter expression");
    }
    return Selection::filter(filter);
  }
  return {};
}

// The report files the options name, checked before anything is read (check_report_files).
ReportFiles checked_report_files(const Arguments& args) {
  ReportFiles files{args.value("--markdown"), args.value("--json"), args.value("--remeasure-list")};
  check_report_files(files);
  return files;
}

// The reports, rendered once: with the same-code ledger's count where --same-code-ledger asks for it.
int finish(const Arguments& args, const ReportFiles& files, Comparison comparison, std::ostream& out,
           std::ostream& err) {
  Report report{std::move(comparison)};
  if (args.has("--same-code-ledger")) {
    const std::string named = files.json.empty() ? std::string("this report") : files.json;
    report.same_code = driver::count_in_ledger(args.value("--same-code-ledger"), report.comparison, named, err);
  }
  write_report_files(report, files);
  write_console_report(report, out);
  return exit_code(report.comparison);
}

}  // namespace

int run_compare(const Arguments& args, std::ostream& out, std::ostream& err) {
  CompareOptions options;
  options.selection = selection_from(args);
  options.run_alpha = args.number("--alpha", kMinAlpha, kMaxAlpha).value_or(kDefaultRunAlpha);
  options.looks = looks_from(args);
  options.strict = args.has("--strict");
  options.fail_on_platform = args.has("--fail-on-platform");
  options.skip_unchanged = args.has("--skip-unchanged");
  const ReportFiles files = checked_report_files(args);
  const Baseline baseline = load_baseline(args.required("--baseline"));
  std::optional<RunnerHistory> runner_history;
  if (args.has("--runner-history")) runner_history = read_runner_history(args.value("--runner-history"));
  options.runner_history = runner_history ? &*runner_history : nullptr;
  const std::vector<ResultsFile> results = load_results_files(args.list("--results"));
  return finish(args, files, compare_with_baseline(baseline, results, options), out, err);
}

int run_unchanged(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const Selection selection = selection_from(args);
  const std::string list_path = args.required("--list");
  checked_outputs(args, {"--list"});
  const Baseline baseline = load_baseline(args.required("--baseline"));
  const std::vector<ResultsFile> results = load_results_files(args.list("--results"));
  const std::set<std::string> unchanged = unchanged_benchmarks(baseline, results, selection);
  std::string list;
  for (const std::string& name : unchanged) list += name + "\n";
  formats::write_file_atomically(list_path, list);
  int selected = 0;
  for (const auto& entry : pool_fingerprints(results)) selected += selection.matches(entry.first) ? 1 : 0;
  out << unchanged_line(unchanged.size(), selected,
                        platform_prevents_skipping_words(platform_changes_preventing_skipping(baseline, results)))
      << "\n";
  return formats::kExitPass;
}

int run_ab(const Arguments& args, std::ostream& out, std::ostream& err) {
  AbOptions options;
  options.selection = selection_from(args);
  options.run_alpha = args.number("--alpha", kMinAlpha, kMaxAlpha).value_or(kDefaultRunAlpha);
  options.looks = looks_from(args);
  options.tolerance_pct = args.number("--tolerance-pct", 0.0, kMaxTolerancePct).value_or(kDefaultAbTolerancePct);
  const ReportFiles files = checked_report_files(args);
  const std::vector<ResultsFile> a = load_results_files(args.list("--a"));
  const std::vector<ResultsFile> b = load_results_files(args.list("--b"));
  return finish(args, files, compare_ab(a, b, options), out, err);
}

}  // namespace gpuperf::gate::cli
