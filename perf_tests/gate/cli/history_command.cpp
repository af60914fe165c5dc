// history-append, history-export, history-changes, history-offsets, history-remove, history-runs: every perf
// run on main kept per GPU model (gate/history/store.h), exported, judged for change points and drift
// (gate/history/changes.h), the runners' histories of a baseline's code written (history/runner_offsets.h),
// a run taken out again, and counted.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "gate/cli/commands.h"
#include "gate/history/changes.h"
#include "gate/history/changes_previous.h"
#include "gate/history/changes_report.h"
#include "gate/history/runner_offsets.h"
#include "gate/history/series_json.h"
#include "gate/history/store.h"
#include "gate/history/store_input.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/inputs/runner_history.h"
#include "gate/reports/numbers.h"
#include "gate/statistics/runner_history.h"

namespace gpuperf::gate::cli {

int run_history_append(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  history::RunLabels labels;
  labels.run_key = args.required("--run-key");
  labels.commit = args.required("--commit");
  labels.date = args.required("--date");
  labels.runner = args.value("--runner");
  history::check_labels(labels);  // before anything is read or opened
  std::vector<std::string> reports;
  const std::vector<std::string>& report_paths = args.list("--verdict");
  for (const std::string& path : report_paths) {
    reports.push_back(formats::read_text_file(path, "give the --json report of perf_gate compare"));
  }
  const std::vector<ResultsFile> results = load_results_files(args.list("--results"));
  const history::RunRecord run = history::run_from_reports(labels, reports, report_paths, results);
  const std::unique_ptr<history::Store> store = history::open_store(args.required("--store"), history::StoreAccess::kAppend);
  if (store->append(run)) {
    out << "appended run " << run.run_key << ": " << run.benchmarks.size() << " benchmarks\n";
  } else {
    out << "run " << run.run_key << " is stored already: nothing added\n";
  }
  return formats::kExitPass;
}

namespace {

// The outputs `options` name (checked_outputs), none of them the store: `--json S` would overwrite it.
void checked_outputs_beside_store(const Arguments& args, std::initializer_list<const char*> options) {
  checked_outputs(args, options);
  for (const char* option : options) {
    if (args.has(option)) history::check_output_is_not_store(args.required("--store"), args.value(option), option);
  }
}

// --gpu SLUG, checked against the slugs' rule (formats/names.h).
std::string gpu_slug_argument(const Arguments& args) {
  const std::string slug = args.required("--gpu");
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, slug); !error.empty()) {
    throw formats::InputError("--gpu: " + error);
  }
  return slug;
}

// The export of GPU `slug`'s history in --store, with --ledger's file (null without it).
history::SeriesExport stored_history(const Arguments& args, const std::string& slug, std::size_t* runs) {
  nlohmann::json ledger = nullptr;
  if (args.has("--ledger")) {
    const std::string path = args.value("--ledger");
    ledger = formats::parse_json_document(formats::read_text_file(path, "give the file perf_gate ledger keeps"), path);
  }
  const std::unique_ptr<history::Store> store =
      history::open_store(args.required("--store"), history::StoreAccess::kReadOnly);
  history::SeriesExport document = history::export_of(slug, store->series(slug));
  document.ledger = ledger;
  if (runs != nullptr) *runs = store->run_count(slug);
  return document;
}


}  // namespace

int run_history_export(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string slug = gpu_slug_argument(args);
  const std::string json_path = args.required("--json");
  checked_outputs_beside_store(args, {"--json"});
  std::size_t runs = 0;
  const history::SeriesExport document = stored_history(args, slug, &runs);
  formats::write_file_atomically(json_path, history::series_json(document));
  out << "exported " << document.series.size() << " series of " << slug << " (" << runs << " runs) to " << json_path
      << "\n";
  return formats::kExitPass;
}

// history-changes reads, judges and writes one series at a time (Store::each_series, SeriesJsonWriter
// into a streamed output): 108 benchmarks x 10,000 runs are about 1 GB as series and 500 MB as the
// export's text, neither of which is ever held whole (tests/history/test_change_points_scale.cpp).
int run_history_changes(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string slug = gpu_slug_argument(args);
  const std::string json_path = args.required("--json");
  checked_outputs_beside_store(args, {"--json", "--markdown"});
  history::ChangePointOptions options;
  options.min_effect_pct = args.number("--min-effect-pct", 0.0, 100.0).value_or(options.min_effect_pct);
  std::optional<Baseline> baseline;
  if (args.has("--baseline")) baseline = load_baseline(args.value("--baseline"));
  nlohmann::json ledger = nullptr;
  if (args.has("--ledger")) {
    const std::string path = args.value("--ledger");
    ledger = formats::parse_json_document(formats::read_text_file(path, "give the file perf_gate ledger keeps"), path);
  }
  // Missing or unreadable: no error, everything is new, and the report says why.
  history::PreviousChanges previous;
  if (args.has("--previous")) previous = history::read_previous_changes(args.value("--previous"), slug);
  const std::unique_ptr<history::Store> store =
      history::open_store(args.required("--store"), history::StoreAccess::kReadOnly);

  history::ChangesAnalysis analysis(slug, std::move(baseline), options, std::move(previous));
  formats::OutputFiles outputs;
  history::SeriesJsonWriter json(outputs.add_streamed(json_path), slug);
  store->each_series(slug, [&](history::Series&& series) { json.add(analysis.add(std::move(series))); });
  json.finish(ledger);
  if (args.has("--markdown")) outputs.add(args.value("--markdown"), history::changes_markdown(analysis.report()));
  outputs.write();
  out << history::changes_console(analysis.report());
  return formats::kExitPass;  // a move is a warning: the per-pull-request gate is what fails
}

int run_history_offsets(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string out_path = args.required("--out");
  checked_outputs_beside_store(args, {"--out"});
  const Baseline baseline = load_baseline(args.required("--baseline"));
  history::RunnerHistoryBuilder builder(baseline);
  const std::unique_ptr<history::Store> store =
      history::open_store(args.required("--store"), history::StoreAccess::kReadOnly);
  store->each_series(baseline.gpu.slug, [&](history::Series&& series) { builder.add(series); });
  const RunnerHistory& history = builder.history();
  formats::write_file_atomically(out_path, runner_history_json(history));
  out << "runner histories of the baseline recorded " << baseline.recorded.date << " (" << baseline.gpu.slug
      << ") written to " << out_path << ": " << history.runners.size() << " runner"
      << (history.runners.size() == 1 ? "" : "s") << "\n";
  for (const auto& [uuid, benchmarks] : history.runners) out << "  " << history::runner_summary(uuid, benchmarks, baseline) << "\n";
  return formats::kExitPass;
}

int run_history_remove(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string run_key = args.required("--run-key");
  history::check_run_key(run_key);
  const std::unique_ptr<history::Store> store =
      history::open_store(args.required("--store"), history::StoreAccess::kModify);
  const std::optional<history::RemovedRun> removed = store->remove(run_key);
  if (!removed) {
    throw formats::InputError("history store " + store->name() + " holds no run " + run_key +
                              ": nothing removed - a run's key is its points' run_key in perf_gate history-export");
  }
  out << "removed run " << removed->run_key << " of " << removed->gpu_slug << " (commit " << removed->commit << ", "
      << removed->date << "): " << removed->results << " benchmarks\n";
  return formats::kExitPass;
}

int run_history_runs(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string prefix = args.value("--key-prefix");  // "" counts every run
  const std::unique_ptr<history::Store> store =
      history::open_store(args.required("--store"), history::StoreAccess::kReadOnly);
  std::size_t count = 0;
  for (const std::string& key : store->run_keys()) count += key.compare(0, prefix.size(), prefix) == 0 ? 1 : 0;
  out << count << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
