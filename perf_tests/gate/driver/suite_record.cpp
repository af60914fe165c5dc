#include "gate/driver/suite_record.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/driver/benchmark_filters.h"
#include "gate/driver/console.h"
#include "gate/driver/gpu_lock.h"
#include "gate/driver/shared_steps.h"
#include "gate/recording/write_baseline.h"

namespace gpuperf::gate::driver {
namespace {

void create_folder(const std::string& folder, const char* option) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) {
    throw DriverStop(formats::kExitInvalidInput, "cannot create the folder " + folder + ": " + error.message() +
                                                     " - give a writable " + option);
  }
}

// The processes' results, each one run of the baseline.
std::vector<std::string> time_processes(const RecordRunOptions& options, Suite& suite, const std::string& commit,
                                        const std::string& gpu_name, std::ostream& err) {
  std::vector<std::string> runs;
  for (int run = 1; run <= options.processes; ++run) {
    note(err, "run " + std::to_string(run) + " of " + std::to_string(options.processes) + " on " + gpu_name);
    const std::string name = options.out + "/" + options.family + ".record" + std::to_string(run);
    const ProcessFiles files{name + ".json", name + ".log"};
    std::error_code error;
    std::filesystem::remove(files.results, error);  // an earlier recording's file would be read as this one's
    const TimingRequest request{
        family_filter(options.family, ""), "", options.repetitions, false, {{"GPUPERF_GIT_COMMIT", commit}}, {}};
    const ProcessOutcome outcome = suite.time(request, files);
    const std::string where = " in run " + std::to_string(run) + "; log: " + files.log + "; nothing written";
    if (outcome.signaled) {
      stop_after_failure(files.log, "the benchmark binary crashed (signal " + std::to_string(outcome.code) + ")" + where,
                         err);
    }
    if (!outcome.succeeded()) {
      stop_after_failure(files.log, "the benchmark binary failed (exit " + std::to_string(outcome.code) + ")" + where,
                         err);
    }
    runs.push_back(files.results);
  }
  return runs;
}

}  // namespace

int record_suite_baseline(const RecordRunOptions& options, Suite& suite, std::ostream& out, std::ostream& err) {
  try {
    if (suite.abilities().checks) {
      throw DriverStop(formats::kExitInvalidInput,
                       "--record records a team's suite (--format gbench); our own suite's baseline holds every "
                       "family: record it with scripts/update_baseline.sh --build-dir <build dir>");
    }
    const SuiteGpu gpu = suite.gpu();
    create_folder(options.baselines, "--baselines");
    create_folder(options.out, "--out");
    const std::string target = options.baselines + "/" + gpu.slug + ".json";
    const GpuLock lock(gpu.uuid, options.lock_wait_s);
    const std::string commit = options.commit.empty() ? checkout_commit(options.baselines) : options.commit;
    const std::vector<std::string> paths =
        time_processes(options, suite, commit, formats::escape_console(gpu.name), err);
    MeasuredResults measured;
    const std::vector<ResultsFile> runs = measured.read(suite, paths);
    RecordOptions record_options;
    record_options.commit = commit.empty() ? "unknown" : commit;
    write_recorded_baseline(runs, {target, target, true}, record_options, out);
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
