#include "gate/driver/ab_run.h"

#include <filesystem>
#include <optional>
#include <system_error>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/driver/benchmark_filters.h"
#include "gate/driver/console.h"
#include "gate/driver/gpu_lock.h"
#include "gate/driver/looks.h"
#include "gate/driver/ncu_diagnosis.h"
#include "gate/driver/shared_steps.h"
#include "gate/judging/outcome.h"
#include "gate/reports/report_files.h"

namespace gpuperf::gate::driver {
namespace {

struct Arm {
  const char* name;  // "a", "b"
  Suite& suite;
  std::vector<std::string> runs;  // its results files, one a round
  std::optional<ResultsFile> fingerprints;  // a team's suite's, captured apart after round 1
};

class AbRun {
 public:
  AbRun(const AbRunOptions& options, Suite& a, Suite& b, std::ostream& out, std::ostream& err)
      : options_(options), a_{"a", a, {}, {}}, b_{"b", b, {}, {}}, out_(out), err_(err) {}

  int run();

 private:
  void remove_previous_rounds() const;
  void measure(int rounds, const std::string& filter, const std::string& time_filter,
               const std::vector<std::string>& alone);
  void run_arm(Arm& arm, const std::string& filter, const std::string& time_filter,
               const std::vector<std::string>& alone);
  Look judge();
  int write_reports(const Look& last);
  void remeasure(int attempt, const std::vector<std::string>& ambiguous);
  void capture_fingerprints_apart(Arm& arm);

  const AbRunOptions& options_;
  Arm a_;
  Arm b_;
  std::ostream& out_;
  std::ostream& err_;
  int round_ = 0;
  std::optional<bool> time_filter_support_;
  MeasuredResults measured_a_;
  MeasuredResults measured_b_;
  std::optional<Comparison> decided_;  // the latest judgement's; none where it failed
};

// The reports of the comparison: <out>/ab.md and ab.verdict.json.
ReportFiles ab_report_files(const AbRunOptions& options) {
  return {options.out + "/ab.md", options.out + "/ab.verdict.json", ""};
}

int AbRun::run() {
  // An earlier comparison's reports go first: this one may end before it writes its own, and theirs
  // would be read as its verdict.
  remove_report_files(ab_report_files(options_));
  const SuiteGpu gpu = b_.suite.gpu();
  const GpuLock lock(gpu.uuid, options_.lock_wait_s);
  std::error_code error;
  std::filesystem::create_directories(options_.out, error);
  if (error) {
    throw DriverStop(formats::kExitInvalidInput,
                     "cannot create the folder " + options_.out + ": " + error.message() + " - give a writable --out");
  }
  remove_previous_rounds();
  measure(options_.rounds, options_.filter, "", {});
  if (options_.check_references) {
    capture_fingerprints_apart(a_);
    capture_fingerprints_apart(b_);
  }
  const Look last = judge_until_decided(
      options_.max_remeasure, [this] { return judge(); },
      [this](int attempt, const std::vector<std::string>& ambiguous) { remeasure(attempt, ambiguous); });
  return write_reports(last);
}

// The reports of the last judgement.
int AbRun::write_reports(const Look& last) {
  if (!decided_) return last.exit_code;
  ReportExtras extras{options_.same_code_ledger, {}};
  if (options_.diagnosis && b_.suite.abilities().checks) {
    extras.diagnose = [this](const Comparison& comparison) {
      return diagnose_ab(comparison, {a_.suite.program(), b_.suite.program(), options_.out});
    };
  }
  return driver::write_reports(std::move(*decided_), last.exit_code, ab_report_files(options_), extras, out_, err_);
}

// A round of an earlier comparison would be judged as this one's.
void AbRun::remove_previous_rounds() const {
  std::error_code error;
  std::vector<std::filesystem::path> previous;
  for (const auto& entry : std::filesystem::directory_iterator(options_.out, error)) {
    const std::string name = entry.path().filename().string();
    const bool a_round = (name.rfind("a.round", 0) == 0 || name.rfind("b.round", 0) == 0) && name.size() >= 12 &&
                         name.compare(name.size() - 5, 5, ".json") == 0;
    if (a_round) previous.push_back(entry.path());
  }
  for (const std::filesystem::path& path : previous) std::filesystem::remove(path, error);
}

// `alone`, where not empty: only these benchmarks run (`filter` names them too).
void AbRun::measure(int rounds, const std::string& filter, const std::string& time_filter,
                    const std::vector<std::string>& alone) {
  for (const int last = round_ + rounds; round_ < last;) {
    ++round_;
    note(err_, "round " + std::to_string(round_));
    // Alternate which build goes first, so neither always runs on a GPU the other just warmed.
    Arm& first = round_ % 2 == 1 ? a_ : b_;
    Arm& second = round_ % 2 == 1 ? b_ : a_;
    run_arm(first, filter, time_filter, alone);
    run_arm(second, filter, time_filter, alone);
  }
}

void AbRun::run_arm(Arm& arm, const std::string& filter, const std::string& time_filter,
                    const std::vector<std::string>& alone) {
  const std::string name = options_.out + "/" + arm.name + ".round" + std::to_string(round_);
  const ProcessFiles files{name + ".json", name + ".log"};
  // Round 1 checks every case of both builds against its reference; later rounds only time.
  const TimingRequest request{
      filter, time_filter, options_.repetitions, round_ == 1 && options_.check_references, {}, alone};
  const ProcessOutcome outcome = arm.suite.time(request, files, err_);
  const std::string build = std::string("build ") + arm.name;
  if (outcome.signaled) {
    stop_after_failure(files.log,
                       build + " crashed (signal " + std::to_string(outcome.code) + ") in round " +
                           std::to_string(round_) + "; log: " + files.log,
                       err_);
  }
  if (!outcome.succeeded()) {
    stop_after_failure(files.log,
                       build + " failed in round " + std::to_string(round_) + " (exit " + std::to_string(outcome.code) +
                           "); log: " + files.log,
                       err_);
  }
  arm.runs.push_back(files.results);
}

// A team's suite: the fingerprints of what the build's round 1 ran, each benchmark in a process of its
// own (our own suite captures them in round 1 itself). A round that cannot be read is judged's to refuse.
void AbRun::capture_fingerprints_apart(Arm& arm) {
  if (!arm.suite.abilities().fingerprints_apart || arm.runs.empty()) return;
  std::vector<std::string> names;
  try {
    for (const auto& entry : arm.suite.read_results(arm.runs.front()).benchmarks) names.push_back(entry.first);
  } catch (const formats::InputError&) {
    return;
  }
  arm.fingerprints = arm.suite.capture_fingerprints(names, options_.out + "/" + arm.name, err_);
}

// Every round so far, decided; the reports are written once, after the last look.
Look AbRun::judge() {
  decided_.reset();
  try {
    std::vector<ResultsFile> a = measured_a_.read(a_.suite, a_.runs);
    std::vector<ResultsFile> b = measured_b_.read(b_.suite, b_.runs);
    // Held by round 1's file, which ran what they were captured of (a file more would be a round more).
    if (a_.fingerprints && !a.empty()) a.front().fingerprints = a_.fingerprints->fingerprints;
    if (b_.fingerprints && !b.empty()) b.front().fingerprints = b_.fingerprints->fingerprints;
    AbOptions options;
    options.tolerance_pct = options_.tolerance_pct;
    options.looks = looks_budget(options_.max_remeasure);
    decided_ = compare_ab(a, b, options);
    return {exit_code(*decided_), ambiguous_benchmarks(*decided_)};
  } catch (const formats::InputError& e) {
    err_ << "perf_gate: error: " << e.what() << "\n";
    return {formats::kExitInvalidInput, {}};
  }
}

// Re-measurement rounds time the ambiguous benchmarks and set up the first rounds' other cases in their
// turn (harness/timed_cases.h says why). A build from before --time-filter (an older commit under
// scripts/bisect.sh), or a team's suite (gbench_suite.h), times them alone, and then so does the other
// build: both arms alike.
void AbRun::remeasure(int attempt, const std::vector<std::string>& ambiguous) {
  note(err_, "re-measuring " + std::to_string(ambiguous.size()) + " ambiguous benchmark(s) in " +
                 std::to_string(options_.rounds) + " more rounds, attempt " + std::to_string(attempt) + " of " +
                 std::to_string(options_.max_remeasure));
  if (!time_filter_support_) {
    time_filter_support_ = a_.suite.supports_time_filter() && b_.suite.supports_time_filter();
    if (!*time_filter_support_ && a_.suite.abilities().checks) {
      note(err_, "a build has no --time-filter (older than the harness's): both time the ambiguous benchmarks alone");
    }
  }
  if (*time_filter_support_) {
    measure(options_.rounds, options_.filter, exact_filter(ambiguous), {});
  } else {
    measure(options_.rounds, exact_filter(ambiguous), "", ambiguous);
  }
}

}  // namespace

int run_ab(const AbRunOptions& options, Suite& a, Suite& b, std::ostream& out, std::ostream& err) {
  try {
    return AbRun(options, a, b, out, err).run();
  } catch (const DriverStop& stop) {
    return report_stop(stop, err);
  } catch (const formats::InputError& e) {
    err << "perf_gate: error: " << e.what() << "\n";
    return formats::kExitInvalidInput;
  }
}

}  // namespace gpuperf::gate::driver
