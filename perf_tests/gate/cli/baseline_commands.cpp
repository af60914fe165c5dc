// record, merge-baselines, migrate, gpu: writing a baseline from results, and what names it.
#include <optional>
#include <string>
#include <vector>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/cli/commands.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/judging/tolerance.h"
#include "gate/recording/merge_recordings.h"
#include "gate/recording/record.h"
#include "gate/recording/write_baseline.h"

namespace gpuperf::gate::cli {

int run_record(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  RecordOptions options;
  options.commit = args.value("--commit");
  options.default_tolerance_pct = args.number("--default-tolerance-pct", 0.0, kMaxTolerancePct);
  options.same_gpu_tolerance_pct = args.number("--same-gpu-tolerance-pct", 0.0, kMaxTolerancePct);
  // The baseline reader refuses zero (it would fail any significant change): refuse it before recording.
  if (options.same_gpu_tolerance_pct && *options.same_gpu_tolerance_pct == 0.0) {
    throw UsageError("--same-gpu-tolerance-pct must be greater than 0");
  }
  const std::string path = args.required("--out");
  checked_outputs(args, {"--out"});
  const std::vector<ResultsFile> runs = load_results_files(args.list("--results"));
  // --previous is usually the file --out replaces (recording/write_baseline.h).
  if (args.has("--previous") && args.value("--previous").empty()) throw UsageError("--previous needs a file");
  write_recorded_baseline(runs, {path, args.value("--previous"), false}, options, out);
  return formats::kExitPass;
}

int run_migrate(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string from = args.required("--baseline");
  const std::string to = args.required("--out");
  checked_outputs(args, {"--out"});
  const formats::FileLock lock(to);
  const Baseline baseline = load_baseline(from);
  formats::write_file_atomically(to, baseline_to_text(baseline));
  out << "wrote " << to << ": " << from << " in schema_version " << kBaselineSchemaVersion << "\n";
  return formats::kExitPass;
}

int run_merge_baselines(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::string path = args.required("--out");
  checked_outputs(args, {"--out"});
  if (args.has("--previous") && args.value("--previous").empty()) throw UsageError("--previous needs a file");
  // Read and written under the file's lock, as a recording is (recording/write_baseline.h).
  const formats::FileLock lock(path);
  std::vector<Recording> recordings;
  for (const std::string& source : args.list("--recordings")) recordings.push_back({source, load_baseline(source)});
  std::optional<Baseline> previous;
  if (args.has("--previous")) previous = load_baseline(args.value("--previous"));
  const Baseline merged = merge_recordings(recordings, previous ? &*previous : nullptr);
  formats::write_file_atomically(path, baseline_to_text(merged));
  std::size_t levelled = 0;
  for (const auto& [name, entry] : merged.benchmarks) levelled += entry.machine_medians.empty() ? 0 : 1;
  out << "wrote " << path << ": " << merged.benchmarks.size() << " benchmarks of " << merged.gpu.name << " ("
      << merged.gpu.slug << ") from " << recordings.size() << " recording" << (recordings.size() == 1 ? "" : "s")
      << " of " << merged.recorded.gpu_uuids.size() << " GPU" << (merged.recorded.gpu_uuids.size() == 1 ? "" : "s")
      << ", " << merged.recorded.runs << " runs; " << levelled << " with each GPU's level (machine_medians)\n";
  return formats::kExitPass;
}

int run_gpu(const Arguments& args, std::ostream& out, std::ostream& /*err*/) {
  const std::vector<std::string>& paths = args.list("--results");
  if (paths.size() != 1) throw UsageError("gpu takes exactly one --results file");
  const ResultsFile results = load_results(paths.front());
  if (results.gpu.slug.empty()) {
    throw formats::InputError(paths.front() +
                              ": context has no gpu_slug - write the results with the project's perf "
                              "binary, which records it");
  }
  out << results.gpu.slug << "\n";
  return formats::kExitPass;
}

}  // namespace gpuperf::gate::cli
