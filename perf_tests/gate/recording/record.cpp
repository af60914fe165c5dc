#include "gate/recording/record.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "formats/input_error.h"
#include "formats/utc_time.h"
#include "formats/version.h"
#include "gate/inputs/platform.h"
#include "gate/judging/tolerance.h"
#include "gate/judging/verdict.h"
#include "gate/recording/machine_levels.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

constexpr const char* kUnknownCommit = "unknown";
// Benchmarks named in one refusal message; the rest are counted.
constexpr std::size_t kNamesInMessage = 5;

BaselineGpu gpu_from(const GpuContext& context) {
  BaselineGpu gpu;
  static_cast<formats::GpuIdentity&>(gpu) = context;
  gpu.uuid.clear();  // a baseline pools several cards: recorded.gpu_uuids names them
  return gpu;
}

void refuse_if_any(const std::vector<std::string>& problems, const std::string& what, const std::string& hint) {
  if (problems.empty()) return;
  std::string message =
      "refusing to record a baseline: " + std::to_string(problems.size()) + " benchmark(s) " + what + ": ";
  for (std::size_t i = 0; i < problems.size() && i < kNamesInMessage; ++i) message += (i ? "; " : "") + problems[i];
  if (problems.size() > kNamesInMessage) message += "; ...";
  throw formats::InputError(message + " - " + hint);
}

// The GPUs the runs were measured on, unique and sorted; a run that names none adds nothing. Not taken
// from --previous: the list says whose samples are in this baseline.
std::vector<std::string> gpu_uuids_of(const std::vector<ResultsFile>& runs) {
  std::set<std::string> uuids;
  for (const ResultsFile& run : runs) {
    if (!run.gpu.uuid.empty()) uuids.insert(run.gpu.uuid);
  }
  return {uuids.begin(), uuids.end()};
}

// The runs by the GPU that ran them (BaselineEntry::machine_medians). All in one machine, "", when any
// run names no GPU: its processes cannot be told apart by machine.
std::map<std::string, std::vector<ResultsFile>> runs_by_machine(const std::vector<ResultsFile>& runs) {
  const bool every_run_named =
      std::all_of(runs.begin(), runs.end(), [](const ResultsFile& run) { return !run.gpu.uuid.empty(); });
  std::map<std::string, std::vector<ResultsFile>> runs_of;
  for (const ResultsFile& run : runs) runs_of[every_run_named ? run.gpu.uuid : ""].push_back(run);
  return runs_of;
}

// One benchmark's valid process medians by machine: each machine's level, and its processes.
LevelledProcesses levelled_processes(const std::map<std::string, std::vector<ResultsFile>>& runs_of,
                                     const std::string& name) {
  std::map<std::string, double> levels;
  std::vector<ProcessGroup> groups;
  for (const auto& [uuid, own_runs] : runs_of) {
    std::vector<double> medians = process_medians(own_runs, name, kMinSamples);
    if (medians.empty()) continue;
    const double level = geometric_mean(medians);
    levels[uuid] = level;
    groups.push_back({level, std::move(medians)});
  }
  return level_machines(levels, groups);
}

}  // namespace

Baseline record_baseline(const std::vector<ResultsFile>& runs, const Baseline* previous, const RecordOptions& options) {
  if (runs.empty()) throw formats::InputError("no results files given - pass --results FILE");
  const std::string slug = common_gpu_slug(runs);
  if (slug.empty()) {
    throw formats::InputError(runs.front().source +
                     ": context has no gpu_slug, so the baseline cannot be named - write the "
                     "results with the project's perf binary, which records it");
  }
  if (previous != nullptr && previous->gpu.slug != slug) {
    throw formats::InputError("--previous is the baseline of '" + previous->gpu.slug + "' but the results are from '" + slug +
                     "' - pass baselines/" + slug + ".json as --previous, or none for a new GPU");
  }

  Baseline b;
  b.gpu = gpu_from(runs.front().gpu);
  const PlatformSide platform = platform_of(runs);
  if (platform.sm_clock.known()) b.gpu.sm_clock_mhz = platform.sm_clock.median_mhz;
  if (platform.mem_clock.known()) b.gpu.mem_clock_mhz = platform.mem_clock.median_mhz;
  b.recorded.date = options.date.empty() ? formats::utc_now_iso8601() : options.date;
  b.recorded.commit = !options.commit.empty()                ? options.commit
                      : !runs.front().gpu.git_commit.empty() ? runs.front().gpu.git_commit
                                                             : kUnknownCommit;
  b.recorded.harness_version = formats::kHarnessVersion;  // this gate's, never --previous's
  // A file that timed nothing (gpuperf_bench --fingerprint-only: the process that checks and captures
  // fingerprints apart from the timed ones) gives fingerprints, not a run.
  b.recorded.runs = static_cast<int>(
      std::count_if(runs.begin(), runs.end(), [](const ResultsFile& run) { return !run.benchmarks.empty(); }));
  b.recorded.gpu_uuids = gpu_uuids_of(runs);
  // One recording is one session: its GPUs share a host (written only where machine levels are).
  if (!b.recorded.gpu_uuids.empty()) b.recorded.machine_groups = {b.recorded.gpu_uuids};
  b.recorded.measuring_method = common_measuring_method(runs);  // refuses runs of different methods
  b.default_tolerance_pct = kDefaultTolerancePct;
  b.same_gpu_tolerance_pct = kDefaultSameGpuTolerancePct;
  if (previous != nullptr) {
    b.default_tolerance_pct = previous->default_tolerance_pct;
    b.same_gpu_tolerance_pct = previous->same_gpu_tolerance_pct;
    b.family_tolerance_pct = previous->family_tolerance_pct;
  }
  if (options.default_tolerance_pct) b.default_tolerance_pct = *options.default_tolerance_pct;
  if (options.same_gpu_tolerance_pct) b.same_gpu_tolerance_pct = *options.same_gpu_tolerance_pct;

  const std::map<std::string, BenchmarkSamples> pooled = pool_results(runs);
  std::vector<std::string> errors;
  std::vector<std::string> too_few;
  for (const auto& [name, samples] : pooled) {
    if (samples.error) errors.push_back(name + " (" + samples.error_message + ")");
    if (!samples.error && !samples.skipped && process_medians(runs, name, kMinSamples).empty()) {
      too_few.push_back(name + " (" + std::to_string(samples.samples.size()) + " valid, " +
                        std::to_string(samples.throttled) + " throttled)");
    }
  }
  refuse_if_any(errors, "reported an error", "fix them first: their correctness tests say what is wrong");
  refuse_if_any(too_few, "have fewer than " + std::to_string(kMinSamples) + " valid samples in every process",
                "record on an idle GPU with stable clocks");

  if (!pooled.empty() && std::all_of(pooled.begin(), pooled.end(), [](const auto& b) { return b.second.skipped; })) {
    throw formats::InputError("refusing to record a baseline: the suite skipped every one of its " +
                              std::to_string(pooled.size()) +
                              " benchmarks (its own skip messages are in the runs' results) - run it where it "
                              "runs them");
  }

  const std::map<std::string, formats::Fingerprint> fingerprints = pool_fingerprints(runs);
  const std::map<std::string, std::vector<ResultsFile>> machines = runs_by_machine(runs);
  for (const auto& [name, samples] : pooled) {
    if (samples.skipped) continue;  // its previous entry, if any, is kept below
    BaselineEntry entry;
    if (const auto captured = fingerprints.find(name); captured != fingerprints.end()) entry.fingerprint = captured->second;
    entry.unit = samples.unit;
    // A process with fewer valid samples (throttled) is left out of this benchmark alone.
    const LevelledProcesses levelled = levelled_processes(machines, name);
    entry.process_medians = levelled.process_medians;
    entry.median = levelled.median;
    entry.machine_medians = levelled.machine_medians;
    entry.bytes = samples.bytes;
    entry.flops = samples.flops;
    for (const ResultsFile& run : runs) {
      const auto it = run.benchmarks.find(name);
      if (it != run.benchmarks.end()) {
        b.recorded.samples_per_run = std::max(b.recorded.samples_per_run, it->second.repetitions);
      }
    }
    if (previous != nullptr) {
      const auto old = previous->benchmarks.find(name);
      if (old != previous->benchmarks.end()) entry.tolerance_pct = old->second.tolerance_pct;
    }
    b.benchmarks.emplace(name, std::move(entry));
  }
  if (previous != nullptr) {
    // Other suites' entries, and the skipped benchmarks' previous ones, as they were.
    const RecordedFamilies recorded = recorded_families(runs);
    bool kept_other_entries = false;
    for (const auto& [name, entry] : previous->benchmarks) {
      const auto now = pooled.find(name);
      const bool skipped_now = now != pooled.end() && now->second.skipped;
      const bool kept = !recorded.replaces(name);
      if (kept || skipped_now) b.benchmarks.emplace(name, entry);
      kept_other_entries = kept_other_entries || kept;
    }
    // A team suite's recording (method 0: its own) into a file that keeps other suites' entries, ours
    // among them perhaps, keeps the file's method: those entries were measured with it.
    if (b.recorded.measuring_method == 0 && kept_other_entries) {
      b.recorded.measuring_method = previous->recorded.measuring_method;
    }
  }
  return b;
}

std::vector<SkippedBenchmark> skipped_benchmarks(const std::vector<ResultsFile>& runs) {
  std::vector<SkippedBenchmark> skipped;
  for (const auto& [name, samples] : pool_results(runs)) {
    if (samples.skipped && !samples.error) skipped.push_back({name, samples.skip_message});
  }
  return skipped;
}

std::vector<BaselineMove> baseline_moves(const Baseline& previous, const Baseline& next,
                                         const RecordedFamilies& recorded) {
  std::vector<BaselineMove> moves;
  for (const auto& [name, entry] : next.benchmarks) {
    if (!recorded.replaces(name)) continue;
    const auto old = previous.benchmarks.find(name);
    BaselineMove move;
    move.name = name;
    move.unit = entry.unit;
    move.new_median = entry.median;
    if (old == previous.benchmarks.end()) {
      move.kind = BaselineMove::Kind::kAdded;
    } else {
      move.old_median = old->second.median;
      move.change_pct = (entry.median / old->second.median - 1.0) * 100.0;
      move.tolerance_pct = at_least_cycle_resolution(resolve_tolerance(previous, name, old->second, /*same_gpu=*/false),
                                                     old->second.unit, old->second.median)
                               .pct;
    }
    moves.push_back(move);
  }
  for (const auto& [name, entry] : previous.benchmarks) {
    if (!recorded.replaces(name) || next.benchmarks.count(name) != 0) continue;
    BaselineMove move;
    move.name = name;
    move.kind = BaselineMove::Kind::kRemoved;
    move.unit = entry.unit;
    move.old_median = entry.median;
    moves.push_back(move);
  }
  std::stable_sort(moves.begin(), moves.end(), [](const BaselineMove& a, const BaselineMove& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    return std::fabs(a.change_pct) > std::fabs(b.change_pct);
  });
  return moves;
}

void write_moves(const std::vector<BaselineMove>& moves, std::ostream& out) {
  char line[160];
  for (const BaselineMove& m : moves) {
    switch (m.kind) {
      case BaselineMove::Kind::kMoved:
        std::snprintf(line, sizeof line, "%+7.1f%%  %.2f %s -> %.2f %s  ", m.change_pct, m.old_median, m.unit.c_str(),
                      m.new_median, m.unit.c_str());
        break;
      case BaselineMove::Kind::kAdded:
        std::snprintf(line, sizeof line, "    new   %.2f %s  ", m.new_median, m.unit.c_str());
        break;
      case BaselineMove::Kind::kRemoved:
        std::snprintf(line, sizeof line, "removed   was %.2f %s  ", m.old_median, m.unit.c_str());
        break;
    }
    out << line << m.name << "\n";
  }
  std::size_t compared = 0;
  std::size_t beyond = 0;
  const BaselineMove* largest = nullptr;  // moves are sorted: the first beyond its tolerance
  for (const BaselineMove& m : moves) {
    if (m.kind != BaselineMove::Kind::kMoved) continue;
    ++compared;
    if (std::fabs(m.change_pct) <= m.tolerance_pct) continue;
    ++beyond;
    if (largest == nullptr) largest = &m;
  }
  if (largest == nullptr) {
    out << "no benchmark moved beyond the tolerance the previous file judges it with\n";
    return;
  }
  std::snprintf(line, sizeof line, "%+.1f%% (tolerance %.1f%%) ", largest->change_pct, largest->tolerance_pct);
  out << "WARNING: " << beyond << " of " << compared
      << " benchmarks moved beyond the tolerance the previous file judges them with; largest " << line
      << largest->name
      << "\n  If this GPU did not record the previous file, machines of one model differ: check the movers on "
         "another machine before committing: runners like the old one would report them SLOW (or FAST).\n";
}

}  // namespace gpuperf::gate
