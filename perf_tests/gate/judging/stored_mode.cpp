#include "gate/judging/stored_mode.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "formats/input_error.h"
#include "gate/judging/code_check.h"
#include "gate/judging/runner_judging.h"
#include "gate/judging/same_code_rule.h"
#include "gate/judging/tolerance.h"
#include "gate/statistics/runner_history.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {


// No timer resolves a relative change below this (CUDA events tick in 32 ns steps; kernels under
// ~20 us are repeated inside a sample): the spread of identical medians is taken as at least this.
constexpr double kTimerResolutionSd = 1e-4;

BenchmarkComparison row_from_current(const std::string& name, const BenchmarkSamples& current) {
  BenchmarkComparison row;
  row.name = name;
  row.unit = current.unit;
  row.current_samples = static_cast<int>(current.samples.size());
  row.throttled = current.throttled;
  row.repetitions = current.repetitions;
  row.bytes = current.bytes;
  row.flops = current.flops;
  row.injected_slowdown_pct = current.injected_slowdown_pct;
  if (!current.samples.empty()) row.current_median = median(current.samples);
  return row;
}

// Whether the results were measured on a GPU that recorded the baseline: then only that GPU's own
// process-to-process noise separates them from the baseline, not the spread between machines. `uuid` is
// empty when the results name no GPU or several.
bool recorded_on(const Baseline& baseline, const std::string& uuid) {
  const std::vector<std::string>& recorded = baseline.recorded.gpu_uuids;
  return !uuid.empty() && std::find(recorded.begin(), recorded.end(), uuid) != recorded.end();
}

// The baseline side of one benchmark as the results' GPU is judged against it: where that GPU is one of the
// entry's machine_medians, its own level (the process medians, centred on the machines' centre, moved to
// that level), so that a machine 2% above the others is not judged against their centre at the same-GPU
// tolerance; elsewhere the entry as recorded. `own_level`: whether it was moved.
struct BaselineSideOfGpu {
  double centre = 0.0;                // [unit]
  std::vector<double> process_medians;  // [unit]
  bool own_level = false;
};

BaselineSideOfGpu baseline_side_for(const BaselineEntry& entry, const std::string& uuid) {
  const auto level = uuid.empty() ? entry.machine_medians.end() : entry.machine_medians.find(uuid);
  if (level == entry.machine_medians.end()) return {entry.median, entry.process_medians, false};
  BaselineSideOfGpu side{level->second, entry.process_medians, true};
  for (double& m : side.process_medians) m *= level->second / entry.median;
  return side;
}

// What every benchmark of one comparison is judged with.
struct StoredJudging {
  const Baseline& baseline;
  const std::vector<ResultsFile>& results;
  std::string uuid;  // the results' one GPU, "" when they name none or several
  bool same_gpu = false;
  ErrorBudget budget;
  bool last_look = true;
  // This runner's histories of the baseline's code, by benchmark: empty where the history file holds none
  // of the runner's. `runner_known`: a history of this GPU model and baseline was given and the results name
  // one GPU; without one, no row speaks of a runner history.
  const std::map<std::string, RunnerBenchmarkHistory>& runner;
  bool runner_known = false;
};

BenchmarkComparison compare_one(const std::string& name, const BaselineEntry& entry, const BenchmarkSamples& current,
                                const StoredJudging& how) {
  const Baseline& baseline = how.baseline;
  const ErrorBudget& budget = how.budget;
  bool same_gpu = how.same_gpu;
  BenchmarkComparison row = row_from_current(name, current);
  if (row.unit.empty()) row.unit = entry.unit;  // a benchmark that only errored reports no unit
  const BaselineSideOfGpu side = baseline_side_for(entry, how.uuid);
  // A GPU of recorded.gpu_uuids whose level this entry lacks (the benchmark was recorded on the other
  // machines only) is another machine for it: the cross-machine tolerance, against their centre.
  if (!side.own_level && entry.machine_medians.size() >= kMinMachinesForSpread) same_gpu = false;
  row.baseline_median = side.centre;
  row.baseline_processes = static_cast<int>(entry.process_medians.size());
  if (row.bytes == 0.0) row.bytes = entry.bytes;
  if (row.flops == 0.0) row.flops = entry.flops;
  const Tolerance tolerance = resolve_tolerance(baseline, name, entry, same_gpu);
  row.tolerance_pct = tolerance.pct;
  row.tolerance_source = tolerance.source;

  if (current.error) {
    row.verdict = Verdict::kError;
    row.reason = reason_of(ReasonCode::kBenchmarkError, current.error_message);
    return row;
  }
  const std::vector<double> now = process_medians(how.results, name, kMinSamples);
  row.current_processes = static_cast<int>(now.size());
  if (RowReason why = why_not_judgeable(current, row.current_processes); !why.empty()) {
    row.verdict = Verdict::kNotJudged;
    row.reason = std::move(why);
    return row;
  }
  if (current.unit != entry.unit) {
    row.verdict = Verdict::kNotJudged;
    row.reason = unit_mismatch(entry.unit, current.unit);
    return row;
  }
  row.current_median = geometric_mean(now);
  const double sd_floor = resolution_sd(entry.unit, entry.median);
  std::optional<RowNote> runner_unused;  // why the runner's history did not judge, where the runner is in it
  if (how.runner_known) {
    const auto runs = how.runner.find(name);
    if (runs == how.runner.end()) {
      runner_unused = no_runner_history_note(row);
    } else {
      const RunnerHistoryJudging judging{runs->second, now, entry.process_medians,
                                         resolve_tolerance(baseline, name, entry, true), budget, how.last_look,
                                         sd_floor};
      runner_unused = judge_against_runner_history(judging, row);
      if (!runner_unused) return row;
    }
  }
  const ProcessEvidence evidence =
      compare_process_medians(side.process_medians, now, budget.interval_confidence(), sd_floor);
  if (!evidence.judged) {
    row.verdict = Verdict::kNotJudged;
    row.reason = reason_of(ReasonCode::kOneProcessEachSide);
    return row;
  }
  if (side.own_level) {
    RowNote own = note_of(NoteCode::kOwnLevelInBaseline);
    own.offset_pct = (side.centre / entry.median - 1.0) * 100.0;
    own.count = static_cast<int>(entry.machine_medians.size());
    row.notes.push_back(own);
  }
  if (row.baseline_processes < kRecommendedBaselineProcesses) {
    RowNote few = note_of(NoteCode::kFewBaselineProcesses);
    few.count = row.baseline_processes;
    few.needed = kRecommendedBaselineProcesses;
    row.notes.push_back(few);
  }
  if (runner_unused) row.notes.push_back(*runner_unused);
  apply_evidence(evidence, row.current_processes, DecisionRule{tolerance.pct, budget.test_alpha()}, row);
  return row;
}

// The memory canary of `results` (judging/memory_canary.h), and its note on every judged memory-bound row when it moved.
void add_canary(const Baseline& baseline, const std::vector<ResultsFile>& results, const Selection& selection,
                Comparison& comparison) {
  comparison.canary = memory_canary(baseline, results, comparison.budget.interval_confidence());
  // "No canary" is said only where the selection leaves the ceiling family out (perf_gate run --family reduction, a shard without it); where it
  // takes the family in, the ceiling rows (MISSING, NEW, NOT_JUDGED) already say why.
  if (!comparison.canary->measured() && selection.matches(std::string(kCanaryFamily) + "/")) {
    comparison.canary.reset();
    return;
  }
  if (!comparison.canary->moved()) return;
  for (BenchmarkComparison& row : comparison.benchmarks) {
    if (row.judged() && memory_bound(row.unit, row.bytes, row.flops)) {
      row.machine_memory_change_pct = comparison.canary->change_pct;
    }
  }
}

// The files that carry fingerprints: the checking processes (ours), the fingerprints captured apart (a
// team's suite). What --skip-unchanged left untimed was decided on these, before any timing process ran
// (perf_gate unchanged, driver/stored_run.h); a timing process's platform cannot undo that decision and make
// a benchmark nobody timed MISSING, a verdict that blames the code. The report still lists how the timing
// processes' platform differs (Comparison::platform).
std::vector<ResultsFile> fingerprinting_files(const std::vector<ResultsFile>& results) {
  std::vector<ResultsFile> files;
  for (const ResultsFile& file : results) {
    if (!file.fingerprints.empty()) files.push_back(file);
  }
  return files;
}

}  // namespace

RowReason why_not_judgeable(const BenchmarkSamples& samples, int usable_processes) {
  if (samples.skipped) return reason_of(ReasonCode::kSkippedBySuite, samples.skip_message);
  if (usable_processes > 0) return {};
  RowReason reason = reason_of(samples.throttled > 0 ? ReasonCode::kThrottled : ReasonCode::kTooFewSamples);
  reason.samples = SampleShortfall{static_cast<int>(samples.samples.size()), samples.throttled, samples.repetitions,
                                   samples.power_capped, samples.shared_gpu, kMinSamples};
  return reason;
}

double resolution_sd(const std::string& unit, double median) {
  // A whole cycle of rounding is uniform over one cycle: sd 1 / sqrt(12) cycles.
  if (unit == formats::kUnitCycles && median > 0.0) return std::max(kTimerResolutionSd, 1.0 / std::sqrt(12.0) / median);
  return kTimerResolutionSd;
}

void apply_evidence(const ProcessEvidence& evidence, int processes, const DecisionRule& rule,
                    BenchmarkComparison& row) {
  row.ratio = evidence.ratio;
  row.ci_low = evidence.ci_low;
  row.ci_high = evidence.ci_high;
  row.p_slower = evidence.p_slower;
  row.p_faster = evidence.p_faster;
  row.process_sd_pct = evidence.sd_pct;
  row.df = evidence.df;
  row.verdict = decide(Evidence{row.ci_low, row.ci_high, row.p_slower, row.p_faster, processes, row.ratio}, rule);
  if (processes < rule.min_processes && (row.ci_low > 1.0 + rule.tolerance_pct / 100.0 ||
                                         row.ci_high < 1.0 - rule.tolerance_pct / 100.0)) {
    RowNote outlier = note_of(NoteCode::kOutlierProcessRule);
    outlier.count = processes;
    outlier.needed = rule.min_processes;
    row.notes.push_back(outlier);
  }
}

Comparison compare_with_baseline(const Baseline& baseline, const std::vector<ResultsFile>& results,
                                 const CompareOptions& options) {
  if (results.empty()) throw formats::InputError("no results files given - pass --results FILE");
  const std::string slug = common_gpu_slug(results);
  if (slug.empty()) {
    throw formats::InputError(results.front().source +
                     ": context has no gpu_slug, so the GPU cannot be matched with the baseline - write the "
                     "results with the project's perf binary, which records it");
  }
  if (slug != baseline.gpu.slug) {
    throw formats::InputError("GPU mismatch: the results are from '" + slug + "' (" + results.front().gpu.name +
                     ") but the baseline is for '" + baseline.gpu.slug + "' - compare with baselines/" + slug +
                     ".json, or record that GPU's baseline: scripts/update_baseline.sh");
  }
  const std::map<std::string, BenchmarkSamples> pooled = pool_results(results);
  const std::string uuid = common_gpu_uuid(results);
  const bool same_gpu = recorded_on(baseline, uuid);
  const std::map<std::string, RunnerBenchmarkHistory>* runner = nullptr;
  bool runner_in_file = false;  // a history of this GPU model and baseline was given: every row speaks of it
  std::string runner_history_of_baseline;  // a history of another recording of the baseline: its date
  if (options.runner_history != nullptr) {
    const RunnerHistory& history = *options.runner_history;
    if (history.gpu_slug != slug) {
      throw formats::InputError("the runner history is for '" + history.gpu_slug + "', the results for '" + slug +
                                "' - pass the history file of this GPU model (perf_gate history-offsets --baseline baselines/" +
                                slug + ".json)");
    }
    const auto found = history.runners.find(uuid);
    if (history.baseline_recorded != baseline.recorded.date) {
      runner_history_of_baseline = history.baseline_recorded;
    } else if (!uuid.empty()) {
      runner_in_file = true;
      if (found != history.runners.end()) runner = &found->second;
    }
  }

  Comparison comparison;
  comparison.mode = "compare";
  comparison.gpu_name = results.front().gpu.name.empty() ? baseline.gpu.name : results.front().gpu.name;
  comparison.gpu_slug = slug;
  comparison.against.baseline_recorded = baseline.recorded.date;
  comparison.against.baseline_commit = baseline.recorded.commit;
  comparison.against.gpu_uuid = uuid;
  comparison.against.runner_history_of_baseline = runner_history_of_baseline;
  comparison.budget = ErrorBudget{options.run_alpha, std::max<int>(1, static_cast<int>(baseline.benchmarks.size())),
                                  std::max(1, options.looks)};
  comparison.strict = options.strict;
  comparison.fail_on_platform = options.fail_on_platform;
  comparison.method_change = method_change_of(baseline, results);
  comparison.platform = platform_changes(platform_of(baseline), platform_of(results));
  const std::map<std::string, RunnerBenchmarkHistory> no_runs;
  StoredJudging judging{baseline, results, uuid, same_gpu, comparison.budget, options.last_look,
                        runner != nullptr ? *runner : no_runs, runner_in_file};

  for (const auto& [name, current] : pooled) {
    if (!options.selection.matches(name)) continue;
    const auto entry = baseline.benchmarks.find(name);
    if (entry != baseline.benchmarks.end()) {
      comparison.benchmarks.push_back(compare_one(name, entry->second, current, judging));
      continue;
    }
    BenchmarkComparison row = row_from_current(name, current);
    row.verdict = current.error ? Verdict::kError : Verdict::kNew;
    row.reason = current.error ? reason_of(ReasonCode::kBenchmarkError, current.error_message)
                               : reason_of(ReasonCode::kNotInBaseline);
    comparison.benchmarks.push_back(std::move(row));
  }
  const std::set<std::string> unchanged =
      options.skip_unchanged ? unchanged_benchmarks(baseline, fingerprinting_files(results), options.selection)
                             : std::set<std::string>{};
  for (const auto& [name, entry] : baseline.benchmarks) {
    if (!options.selection.matches(name) || pooled.count(name) != 0) continue;
    BenchmarkComparison row;
    row.name = name;
    const bool skipped = unchanged.count(name) != 0;
    row.verdict = skipped ? Verdict::kUnchanged : Verdict::kMissing;
    row.reason = reason_of(skipped ? ReasonCode::kUnchangedNotRetimed : ReasonCode::kNotInResults);
    row.unit = entry.unit;
    row.baseline_median = entry.median;
    row.baseline_processes = static_cast<int>(entry.process_medians.size());
    row.bytes = entry.bytes;
    row.flops = entry.flops;
    comparison.benchmarks.push_back(std::move(row));
  }
  sort_by_severity(comparison.benchmarks);
  add_code_changes(baseline_fingerprints(baseline), pool_fingerprints(results), comparison,
                   no_fingerprints_because(results));
  // After the code is compared: a same-code row beyond its tolerance is the platform's (same_code_rule.h).
  apply_same_code_rule(comparison);
  sort_by_severity(comparison.benchmarks);
  add_canary(baseline, results, options.selection, comparison);
  if (same_gpu && same_gpu_tolerance_applied(comparison)) {
    comparison.against.same_gpu_tolerance_pct = baseline.same_gpu_tolerance_pct;
  }
  return comparison;
}

bool same_gpu_tolerance_applied(const Comparison& comparison) {
  return std::any_of(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                     [](const BenchmarkComparison& row) {
                       return row.tolerance_source.origin == ToleranceOrigin::kSameGpuDefault;
                     });
}

}  // namespace gpuperf::gate
