#include "gate/driver/gbench_suite.h"

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/foreign_names.h"
#include "gate/driver/benchmark_filters.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/suite_pace.h"
#include "gate/inputs/gbench_results.h"

namespace gpuperf::gate::driver {

std::string gbench_filter(const std::vector<std::string>& names, const std::string& family) {
  std::vector<std::string> run_names;
  for (const std::string& name : names) {
    const formats::GbenchName run = formats::gbench_from_our_name(name);
    if (!run.error.empty() || run.family != family) {
      throw DriverStop(formats::kExitInvalidInput,
                       "cannot select '" + formats::escape_console(name) + "' in the Google Benchmark suite " +
                           family + (run.error.empty() ? ": another family" : ": " + run.error));
    }
    run_names.push_back(run.run_name);
  }
  return gbench_runs_filter(run_names);
}

// The first look runs every benchmark of the binary (its family is the whole suite); a re-measurement
// names the ambiguous ones (request.only_names). request.check_references is the team's tests' business.
ProcessOutcome GbenchSuite::time(const TimingRequest& request, const ProcessFiles& files, std::ostream& err) {
  std::vector<std::string> argv = {program_};
  argv.insert(argv.end(), arguments_.begin(), arguments_.end());
  const PaceChoice pace = gbench_pace(arguments_);  // the driver's minimum time where the team's is not set
  note_pace_once(pace.note, err);
  argv.insert(argv.end(), pace.added.begin(), pace.added.end());
  const std::string filter = request.only_names.empty() ? "" : gbench_filter(request.only_names, family_);
  if (!filter.empty()) argv.push_back("--benchmark_filter=" + filter);
  argv.push_back("--benchmark_repetitions=" + std::to_string(request.repetitions));
  argv.push_back("--benchmark_out=" + files.results);
  argv.emplace_back("--benchmark_out_format=json");
  const std::optional<int> count =
      request.only_names.empty() ? std::nullopt : std::optional<int>(static_cast<int>(request.only_names.size()));
  return run_with_progress({argv, request.environment, files.log}, gbench_log_progress, filter, count, err);
}

ResultsFile GbenchSuite::read_results(const std::string& path) const {
  return with_fingerprint_reason(load_gbench_results(path, family_, identity()), "a Google Benchmark suite");
}

// One repetition of the one benchmark, at a minimum time short enough for one iteration: the fingerprint
// is the same whatever the iterations (process_fingerprint.h), and a MinTime in the suite's code wins
// anyway. A bare number of seconds: Google Benchmark 1.7 refuses the "s" suffix, 1.8 takes both.
std::vector<std::string> GbenchSuite::capture_argv(const std::string& name) const {
  std::vector<std::string> argv = {program_};
  argv.insert(argv.end(), arguments_.begin(), arguments_.end());
  argv.push_back("--benchmark_filter=" + gbench_filter({name}, family_));
  argv.emplace_back("--benchmark_repetitions=1");
  argv.emplace_back("--benchmark_min_time=0.001");
  return argv;
}

}  // namespace gpuperf::gate::driver
