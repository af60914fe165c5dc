#include "gate/driver/stored_run.h"

#include <filesystem>
#include <optional>
#include <set>
#include <system_error>
#include <vector>

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/driver/benchmark_filters.h"
#include "gate/driver/console.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/gpu_lock.h"
#include "gate/driver/looks.h"
#include "gate/driver/ncu_diagnosis.h"
#include "gate/driver/phase_recorder.h"
#include "gate/driver/shared_steps.h"
#include "gate/driver/shards.h"
#include "gate/inputs/baseline.h"
#include "gate/inputs/selection.h"
#include "gate/judging/code_check.h"
#include "gate/judging/memory_canary.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/reports/code_words.h"
#include "gate/reports/report_files.h"
#include "gate/reports/reports.h"

namespace gpuperf::gate::driver {
namespace {

// Writes the phase file when the test ends, however it ends.
class PhaseFileAtExit {
 public:
  PhaseFileAtExit(const PhaseRecorder& phases, std::string dir, std::string family, std::ostream& err)
      : phases_(phases), dir_(std::move(dir)), family_(std::move(family)), err_(err) {}
  ~PhaseFileAtExit() {
    if (!phases_.write(dir_))
      note(err_, "could not write perf_phases." + family_ + ".json in " + dir_ + " (the verdict stands)");
  }
  PhaseFileAtExit(const PhaseFileAtExit&) = delete;
  PhaseFileAtExit& operator=(const PhaseFileAtExit&) = delete;

 private:
  const PhaseRecorder& phases_;
  std::string dir_;
  std::string family_;
  std::ostream& err_;
};

// The reports of the run: <out>/<name>.md and .verdict.json.
ReportFiles stored_report_files(const StoredRunOptions& options) {
  const std::string prefix = options.out + "/" + run_name(options);
  return {prefix + ".md", prefix + ".verdict.json", ""};
}

class StoredRun {
 public:
  StoredRun(const StoredRunOptions& options, Suite& suite, const SuiteGpu& gpu, std::string baseline_path,
            Baseline baseline, std::optional<RunnerHistory> runner_history, PhaseRecorder& phases, std::ostream& out,
            std::ostream& err)
      : options_(options),
        suite_(suite),
        gpu_(gpu),
        baseline_path_(std::move(baseline_path)),
        baseline_(std::move(baseline)),
        runner_history_(std::move(runner_history)),
        phases_(phases),
        out_(out),
        err_(err),
        name_(run_name(options)),
        prefix_(options.out + "/" + name_) {}

  int run();

 private:
  std::string canary() const { return options_.canary && suite_.abilities().canary ? kCanaryFamily : ""; }
  void select_cases();
  std::string with_canary(const std::vector<std::string>& names) const;
  void remove_previous_results() const;
  void check_and_fingerprint();
  void capture_fingerprints_apart();
  void leave_unchanged_untimed();
  void measure_look(const std::string& time_filter, const std::vector<std::string>& alone);
  void measure(int run, const std::string& time_filter, const std::vector<std::string>& alone);
  Look judge();
  int write_reports(const Look& last);
  std::vector<NcuDiagnosis> diagnose(const Comparison& comparison);

  const StoredRunOptions& options_;
  Suite& suite_;
  const SuiteGpu& gpu_;
  const std::string baseline_path_;
  const Baseline baseline_;
  const std::optional<RunnerHistory> runner_history_;  // --runner-history's, read before the GPU is taken
  PhaseRecorder& phases_;
  std::ostream& out_;
  std::ostream& err_;
  const std::string name_;    // the family, or the shard's name
  const std::string prefix_;  // <out>/<name>

  Selection selection_;      // the benchmarks judged
  std::string cases_filter_;  // the suite's cases they are (a regular expression), the canary's not beside them

  std::string commit_;
  std::string first_look_;                   // the cases the timing processes run; "" for none
  std::string first_look_timed_;             // of those, the ones the first look times; "" for all
  std::vector<std::string> first_look_alone_;  // a team's suite: the benchmarks it runs; empty for all
  bool skip_unchanged_ = false;              // as asked, unless no fingerprint was captured
  std::optional<ResultsFile> fingerprints_;  // the checking process's, where it captured some
  std::vector<std::string> runs_;            // every timing process's results, in order
  int run_count_ = 0;
  int looks_taken_ = 0;  // judgements so far
  MeasuredResults measured_;
  std::optional<Comparison> decided_;  // the latest judgement's; none where it failed
};

int StoredRun::run() {
  phases_.begin();
  const GpuLock lock(gpu_.uuid, options_.lock_wait_s);
  phases_.end("lock_wait");
  remove_previous_results();
  commit_ = options_.git_commit ? *options_.git_commit : checkout_commit(options_.baselines);
  select_cases();
  if (cases_filter_.empty()) {
    out_ << "SKIPPED: " << name_ << " holds no case: the suite has fewer cases than shards\n";
    return formats::kExitNotJudged;
  }
  const SuiteAbilities abilities = suite_.abilities();
  skip_unchanged_ = options_.skip_unchanged && (abilities.checks || abilities.fingerprints_apart);
  if (options_.skip_unchanged && !skip_unchanged_) {
    note(err_, suite_.program() + " captures no fingerprints: --skip-unchanged times every benchmark");
  }
  if (options_.check_references || options_.skip_unchanged) {
    if (abilities.checks) check_and_fingerprint();
    if (abilities.fingerprints_apart) capture_fingerprints_apart();
  }
  if (skip_unchanged_) leave_unchanged_untimed();
  if (!first_look_.empty()) {
    phases_.begin();
    measure_look(first_look_timed_, first_look_alone_);
    phases_.end("first_look");
  }
  const Look last = judge_until_decided(
      options_.max_remeasure, [this] { return judge(); },
      [this](int attempt, const std::vector<std::string>& ambiguous) {
        note(err_, "re-measuring " + std::to_string(ambiguous.size()) + " ambiguous benchmark(s) in " +
                       std::to_string(options_.processes) + " more processes, attempt " + std::to_string(attempt) +
                       " of " + std::to_string(options_.max_remeasure));
        phases_.begin();
        if (suite_.supports_time_filter()) {
          measure_look(exact_filter(ambiguous), {});
        } else {
          measure_look("", ambiguous);
        }
        phases_.end("remeasure");
      });
  return write_reports(last);
}

// The reports of the last judgement. Nsight Compute profiles our suite's cases in their profiler window
// (--profiler-window), which a team's suite has not.
int StoredRun::write_reports(const Look& last) {
  if (!decided_) return last.exit_code;
  ReportExtras extras{options_.same_code_ledger, {}};
  if (options_.diagnosis && suite_.abilities().checks) {
    extras.diagnose = [this](const Comparison& comparison) {
      phases_.begin();
      std::vector<NcuDiagnosis> diagnosis = diagnose(comparison);
      phases_.end("diagnosis");
      return diagnosis;
    };
  }
  return driver::write_reports(std::move(*decided_), last.exit_code, stored_report_files(options_), extras, out_,
                               err_);
}

// The family's cases, or the shard's: of the suite's listing cut as every shard cuts it (shards.h).
void StoredRun::select_cases() {
  if (!options_.shard) {
    selection_ = Selection::family(options_.family);
    cases_filter_ = "^" + options_.family + "/";
    first_look_ = family_filter(options_.family, canary());
    return;
  }
  const std::optional<formats::CaseListing> listing = suite_.case_listing();
  if (!listing) throw DriverStop(formats::kExitInvalidInput, suite_.program() + " cannot list its cases for --shard");
  const Shard shard = *options_.shard;
  const std::vector<std::string> cases = shard_cases(case_costs(*listing, baseline_, options_.repetitions), shard);
  std::set<std::string> judged(cases.begin(), cases.end());
  // A benchmark of the baseline this build's families no longer have is the last shard's to call MISSING.
  if (shard.index == shard.count) {
    std::set<std::string> listed, families;
    for (const formats::ListedCase& c : listing->cases) {
      listed.insert(c.name);
      families.insert(c.family);
    }
    for (const auto& entry : baseline_.benchmarks) {
      const std::string family = entry.first.substr(0, entry.first.find('/'));
      if (families.count(family) != 0 && listed.count(entry.first) == 0) judged.insert(entry.first);
    }
  }
  const std::string description = shard.count == 1 ? "every family (" + std::to_string(cases.size()) + " benchmarks)"
                                                   : "shard " + std::to_string(shard.index) + " of " +
                                                         std::to_string(shard.count) + " of the families (" +
                                                         std::to_string(cases.size()) + " benchmarks)";
  note(err_, description);
  selection_ = Selection::names(std::move(judged), description);
  // The whole suite as ".", which a suite of any size matches at no cost; a shard's cases by name. A shard's
  // timing processes run the whole suite up to its last case and time only its own (--time-filter): the
  // cases before are set up in their turn, so that each timed case follows the history it had in the
  // whole-suite processes of the baseline (a case's time can depend on what its process allocated before
  // it: perf_tests/harness/timed_cases.h). It costs a later shard the set-up of the cases before its own,
  // each a few milliseconds and its warm-up (memory comes from the pool).
  if (cases.empty()) return;
  cases_filter_ = shard.count == 1 ? "." : exact_filter(cases);
  first_look_ = ".";
  if (shard.count > 1) first_look_timed_ = with_canary(cases);
}

// Exactly `names`, with the canary's family beside them (in the first look's order: the registry's).
std::string StoredRun::with_canary(const std::vector<std::string>& names) const {
  return names_filter(names, options_.family, canary());
}

// A results file of an earlier run would be judged as this run's.
void StoredRun::remove_previous_results() const {
  const std::string runs = name_ + ".run";
  std::error_code error;
  std::vector<std::filesystem::path> previous = {prefix_ + ".fingerprints.json"};
  for (const auto& entry : std::filesystem::directory_iterator(options_.out, error)) {
    const std::string name = entry.path().filename().string();
    const bool a_run =
        name.rfind(runs, 0) == 0 && name.size() >= runs.size() + 5 && name.compare(name.size() - 5, 5, ".json") == 0;
    if (a_run) previous.push_back(entry.path());
  }
  for (const std::filesystem::path& path : previous) std::filesystem::remove(path, error);
}

void StoredRun::check_and_fingerprint() {
  const ProcessFiles files{prefix_ + ".fingerprints.json", prefix_ + ".fingerprints.log"};
  phases_.begin();
  const ProcessOutcome outcome = suite_.check(cases_filter_, {{"GPUPERF_GIT_COMMIT", commit_}}, files);
  phases_.end("checking");
  if (outcome.signaled) {
    stop_after_failure(files.log,
                       "the benchmark binary crashed (signal " + std::to_string(outcome.code) + ") while checking " +
                           name_ + "; log: " + files.log,
                       err_);
  }
  if (!outcome.succeeded()) {
    stop_after_failure(files.log,
                       "checking and fingerprinting " + name_ + " failed (exit " +
                           std::to_string(outcome.code) + "); log: " + files.log,
                       err_);
  }
  // CUPTI may be unavailable (another profiler attached): the cases were checked, but nothing is known of
  // their code, so nothing can be skipped as unchanged.
  fingerprints_ = suite_.read_fingerprints(files.results);
  if (!fingerprints_) {
    note(err_, "the checking process captured no fingerprint (" + files.log + "): every benchmark is timed");
    skip_unchanged_ = false;
  }
}

// A team's suite: the fingerprints of the baseline's benchmarks, each in a process of its own. A benchmark
// the baseline lacks has no code to be compared with: it is timed (NEW), except under --skip-unchanged,
// which times only the baseline's benchmarks whose code changed (docs/suites.md).
void StoredRun::capture_fingerprints_apart() {
  std::vector<std::string> names;
  for (const auto& entry : baseline_.benchmarks) {
    if (selection_.matches(entry.first)) names.push_back(entry.first);
  }
  phases_.begin();
  fingerprints_ = suite_.capture_fingerprints(names, prefix_, err_);
  phases_.end("checking");
  if (!fingerprints_) skip_unchanged_ = false;
}

// Only what changed is timed, with the canary beside it.
void StoredRun::leave_unchanged_untimed() {
  const std::vector<ResultsFile> checked = {*fingerprints_};
  const std::set<std::string> unchanged = unchanged_benchmarks(baseline_, checked, selection_);
  int fingerprinted = 0;
  for (const auto& entry : pool_fingerprints(checked)) fingerprinted += selection_.matches(entry.first) ? 1 : 0;
  out_ << unchanged_line(unchanged.size(), fingerprinted,
                        platform_prevents_skipping_words(platform_changes_preventing_skipping(baseline_, checked)))
       << "\n";
  std::vector<std::string> changed;
  for (const auto& entry : fingerprints_->fingerprints) {
    if (unchanged.count(entry.first) == 0) changed.push_back(entry.first);
  }
  // Only these, in a process of their own: a pull request's check costs what changed, not the suite.
  first_look_ = changed.empty() ? "" : with_canary(changed);
  first_look_timed_.clear();
  // A team's suite selects by name, not by our regular expression (suite.h, TimingRequest::only_names).
  if (!suite_.abilities().checks) first_look_alone_ = changed;
}

// `alone`, where not empty: only these benchmarks run (a suite without --time-filter re-measuring them).
void StoredRun::measure_look(const std::string& time_filter, const std::vector<std::string>& alone) {
  for (int process = 0; process < options_.processes; ++process) measure(++run_count_, time_filter, alone);
}

// One timing process, which neither checks nor captures.
void StoredRun::measure(int run, const std::string& time_filter, const std::vector<std::string>& alone) {
  const std::string name = prefix_ + ".run" + std::to_string(run);
  const ProcessFiles files{name + ".json", name + ".log"};
  const TimingRequest request{alone.empty() ? first_look_ : exact_filter(alone), time_filter, options_.repetitions,
                              false, {{"GPUPERF_GIT_COMMIT", commit_}}, alone};
  const ProcessOutcome outcome = suite_.time(request, files, err_);
  const std::string where = " during run " + std::to_string(run) + " of " + name_ + "; log: " + files.log;
  if (outcome.signaled) {
    stop_after_failure(files.log, "the benchmark binary crashed (signal " + std::to_string(outcome.code) + ")" + where,
                       err_);
  }
  if (!outcome.succeeded()) {
    stop_after_failure(files.log, "the benchmark binary failed (exit " + std::to_string(outcome.code) + ")" + where,
                       err_);
  }
  runs_.push_back(files.results);
}

// Every process so far against the baseline, decided; the reports are written once, after the last look.
Look StoredRun::judge() {
  decided_.reset();
  try {
    std::vector<ResultsFile> results = measured_.read(suite_, runs_);
    if (fingerprints_) results.push_back(*fingerprints_);
    CompareOptions options;
    options.selection = selection_;
    options.looks = looks_budget(options_.max_remeasure);
    options.last_look = ++looks_taken_ >= options.looks;
    options.strict = options_.strict;
    options.fail_on_platform = options_.fail_on_platform;
    options.skip_unchanged = skip_unchanged_;
    options.runner_history = runner_history_ ? &*runner_history_ : nullptr;
    decided_ = compare_with_baseline(baseline_, results, options);
    return {exit_code(*decided_), ambiguous_benchmarks(*decided_)};
  } catch (const formats::InputError& e) {
    err_ << "perf_gate: error: " << e.what() << "\n";
    return {formats::kExitInvalidInput, {}};
  }
}

// The kernels to profile: the fingerprints of this run's checking process (none with --no-reference-check).
std::vector<NcuDiagnosis> StoredRun::diagnose(const Comparison& comparison) {
  const std::string stored = baseline_path_.substr(0, baseline_path_.size() - 5) + ".ncu.json";
  return diagnose_stored(comparison, {stored, suite_.program(),
                                      fingerprints_ ? prefix_ + ".fingerprints.json" : prefix_ + ".run1.json", prefix_});
}

}  // namespace

std::string run_name(const StoredRunOptions& options) {
  return options.shard ? shard_name(*options.shard) : options.family;
}

int run_against_baseline(const StoredRunOptions& options, Suite& suite, std::ostream& out, std::ostream& err) {
  PhaseRecorder phases(run_name(options));
  try {
    // An earlier run's reports go first: this run may end before it writes its own (no GPU, no baseline, a
    // process that failed), and theirs would be read as its verdict.
    remove_report_files(stored_report_files(options));
    const SuiteGpu gpu = suite.gpu();
    const std::string baseline_path = options.baselines + "/" + gpu.slug + ".json";
    std::error_code error;
    if (!std::filesystem::is_regular_file(baseline_path, error)) {
      const std::string message = "no baseline for this GPU (" + formats::escape_console(gpu.name) + "): expected " +
                                  baseline_path +
                                  ". Record one with: scripts/update_baseline.sh --build-dir <build dir>";
      if (options.strict) throw DriverStop(formats::kExitInvalidInput, message);
      out << "SKIPPED: " << message << "\n";
      return formats::kExitNotJudged;
    }
    std::filesystem::create_directories(options.out, error);
    if (error) {
      throw DriverStop(formats::kExitInvalidInput,
                       "cannot create the folder " + options.out + ": " + error.message() + " - give a writable --out");
    }
    const PhaseFileAtExit phase_file(phases, options.phases_dir.empty() ? options.out + "/phases" : options.phases_dir,
                                     run_name(options), err);
    try {
      // Read before the GPU is taken: a baseline (or runner history) that cannot be judged against costs no
      // measurement.
      Baseline baseline = load_baseline(baseline_path);
      std::optional<RunnerHistory> runner_history;
      if (!options.runner_history.empty()) runner_history = read_runner_history(options.runner_history);
      return StoredRun(options, suite, gpu, baseline_path, std::move(baseline), std::move(runner_history), phases, out,
                       err)
          .run();
    } catch (const formats::InputError& e) {
      err << "perf_gate: error: " << e.what() << "\n";
      return formats::kExitInvalidInput;
    }
  } catch (const DriverStop& stop) {
    return report_stop(stop, err);
  } catch (const formats::InputError& e) {
    err << "perf_gate: error: " << e.what() << "\n";
    return formats::kExitInvalidInput;
  }
}

}  // namespace gpuperf::gate::driver
