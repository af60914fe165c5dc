#include "gate/driver/suite_record.h"

#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/driver/console.h"
#include "gate/driver/gpu_lock.h"
#include "gate/driver/shared_steps.h"
#include "gate/recording/write_baseline.h"

namespace gpuperf::gate::driver {
namespace {

// Every case of the suite, in each process.
constexpr const char* kWholeSuite = ".";

void create_folder(const std::string& folder, const char* option) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) {
    throw DriverStop(formats::kExitInvalidInput, "cannot create the folder " + folder + ": " + error.message() +
                                                     " - give a writable " + option);
  }
}

// The processes of one recording, whose results go into the GPU's baseline file `target`.
class Recording {
 public:
  Recording(const RecordRunOptions& options, Suite& suite, std::string target, std::string commit,
            std::string gpu_name, std::ostream& err)
      : options_(options),
        suite_(suite),
        target_(std::move(target)),
        environment_{{"GPUPERF_GIT_COMMIT", commit}},
        gpu_name_(std::move(gpu_name)),
        err_(err) {}

  std::optional<ResultsFile> check_cases();
  std::vector<std::string> time_processes();

 private:
  // The files of the process `name`; a results file an earlier recording left would be read as this one's.
  ProcessFiles fresh_files(const std::string& name) const;
  // Exit 2 where the process did not succeed: `crashed` where a signal ended it, else `failed`.
  void stop_unless_succeeded(const ProcessOutcome& outcome, const std::string& crashed, const std::string& failed,
                             const ProcessFiles& files) const;

  const RecordRunOptions& options_;
  Suite& suite_;
  const std::string target_;
  const EnvironmentAdditions environment_;
  const std::string gpu_name_;
  std::ostream& err_;
};

ProcessFiles Recording::fresh_files(const std::string& name) const {
  const std::string prefix = options_.out + "/" + name;
  const ProcessFiles files{prefix + ".json", prefix + ".log"};
  std::error_code error;
  std::filesystem::remove(files.results, error);
  return files;
}

void Recording::stop_unless_succeeded(const ProcessOutcome& outcome, const std::string& crashed,
                                      const std::string& failed, const ProcessFiles& files) const {
  const std::string where = "; log: " + files.log + "; nothing written to " + target_;
  if (outcome.signaled) stop_after_failure(files.log, crashed + where, err_);
  if (!outcome.succeeded()) stop_after_failure(files.log, failed + where, err_);
}

// The checking process; what it captured, nullopt where it captured no fingerprint.
std::optional<ResultsFile> Recording::check_cases() {
  note(err_, "checking every case and capturing its fingerprint on " + gpu_name_);
  const ProcessFiles files = fresh_files("record.fingerprints");
  const ProcessOutcome outcome = suite_.check(kWholeSuite, environment_, files);
  const std::string code = std::to_string(outcome.code);
  stop_unless_succeeded(outcome, "the benchmark binary crashed (signal " + code + ") while checking the cases",
                        "checking the cases failed (exit " + code + ")", files);
  // CUPTI may be unavailable (another profiler attached): the cases were checked, their code is unknown.
  std::optional<ResultsFile> fingerprints = suite_.read_fingerprints(files.results);
  if (!fingerprints) note(err_, "no fingerprint captured (" + files.log + "): the baseline will hold none");
  return fingerprints;
}

// The timing processes' results, each one run of the baseline.
std::vector<std::string> Recording::time_processes() {
  std::vector<std::string> runs;
  for (int run = 1; run <= options_.processes; ++run) {
    note(err_, "run " + std::to_string(run) + " of " + std::to_string(options_.processes) + " on " + gpu_name_);
    const std::string number = std::to_string(run);
    const ProcessFiles files =
        fresh_files(options_.family.empty() ? "record.run" + number : options_.family + ".record" + number);
    const TimingRequest request{kWholeSuite, "", options_.repetitions, false, environment_, {}};
    const ProcessOutcome outcome = suite_.time(request, files, err_);
    const std::string code = std::to_string(outcome.code);
    stop_unless_succeeded(outcome, "the benchmark binary crashed (signal " + code + ") in run " + number,
                          "the benchmark binary failed (exit " + code + ") in run " + number, files);
    runs.push_back(files.results);
  }
  return runs;
}

}  // namespace

int record_suite_baseline(const RecordRunOptions& options, Suite& suite, std::ostream& out, std::ostream& err) {
  try {
    const SuiteGpu gpu = suite.gpu();
    create_folder(options.baselines, "--baselines");
    create_folder(options.out, "--out");
    const std::string target = options.baselines + "/" + gpu.slug + ".json";
    const GpuLock lock(gpu.uuid, options.lock_wait_s);
    std::string commit = options.commit.empty() ? checkout_commit(options.baselines) : options.commit;
    if (commit.empty()) commit = "unknown";
    // The previous file checked before anything is timed: one that cannot be read or is another GPU's
    // would be refused at the end, after minutes of timing. It is read again under its lock at the end.
    const BaselineDestination destination{target, target, true};
    if (const std::optional<Baseline> previous = read_previous_baseline(destination)) {
      if (previous->gpu.slug != gpu.slug) {
        throw formats::InputError(target + " is the baseline of '" + previous->gpu.slug + "', but this GPU is '" +
                                  gpu.slug + "' - move the file to baselines/" + previous->gpu.slug + ".json");
      }
    }
    Recording recording(options, suite, target, commit, formats::escape_console(gpu.name), err);
    std::vector<ResultsFile> runs;  // the fingerprints first (they count as no run), then each timing process
    if (suite.abilities().checks) {
      if (std::optional<ResultsFile> fingerprints = recording.check_cases()) runs.push_back(std::move(*fingerprints));
    }
    const std::vector<std::string> paths = recording.time_processes();
    MeasuredResults measured;
    for (ResultsFile& run : measured.read(suite, paths)) runs.push_back(std::move(run));
    // A team's suite: the fingerprints of what the timing processes ran, each benchmark in a process of
    // its own, after them (the names come from their results).
    if (suite.abilities().fingerprints_apart && !runs.empty()) {
      std::vector<std::string> names;
      for (const auto& entry : runs.back().benchmarks) names.push_back(entry.first);
      if (std::optional<ResultsFile> fingerprints =
              suite.capture_fingerprints(names, options.out + "/" + options.family + ".record", err)) {
        runs.insert(runs.begin(), std::move(*fingerprints));
      }
    }
    RecordOptions record_options;
    record_options.commit = commit;
    write_recorded_baseline(runs, destination, record_options, out);
    note(err, "review the changes above, then commit " + target);
    return formats::kExitPass;
  } catch (const formats::InputError& e) {
    err << "perf_gate: error: " << e.what() << " (nothing written)\n";
    return formats::kExitInvalidInput;
  } catch (const DriverStop& stop) {
    return report_stop(stop, err);
  }
}

}  // namespace gpuperf::gate::driver
