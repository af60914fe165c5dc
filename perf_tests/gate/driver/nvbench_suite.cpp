#include "gate/driver/nvbench_suite.h"

#include <set>

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "formats/foreign_names.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/suite_pace.h"
#include "gate/inputs/nvbench_results.h"

namespace gpuperf::gate::driver {
namespace {

// The options of nvbench's command line (docs/cli_help.md) the driver gives each process itself.
const std::set<std::string>& driver_owned_options() {
  static const std::set<std::string> options = {"--benchmark", "-b",     "--devices", "--device", "-d",
                                                "--json",      "--jsonbin", "--csv",   "--markdown", "--md"};
  return options;
}

// Whether nvbench's --axis syntax (docs/cli_help_axis.md) reads `text` back as itself: it splits values
// at ',' and ranges at ':', takes '[' ']' as a list or flags, the first '=' as the end of the name, and
// ignores whitespace.
bool axis_syntax_holds(const std::string& text) {
  return !text.empty() && text.find_first_of("[],:= \t") == std::string::npos;
}

}  // namespace

NvbenchSuite::NvbenchSuite(std::string program, std::string family, std::vector<std::string> arguments)
    : TeamSuite(std::move(program), std::move(family), std::move(arguments)) {
  for (const std::string& argument : arguments_) {
    if (driver_owned_options().count(argument) != 0) {
      throw DriverStop(formats::kExitInvalidInput,
                       "the nvbench suite " + family_ + "'s arguments hold " + formats::escape_console(argument) +
                           ", which the driver gives each process itself (--devices 0, --jsonbin FILE, and the "
                           "benchmarks a re-measurement selects) - leave it out of the suite's arguments");
    }
  }
}

std::vector<std::string> nvbench_selection(const std::vector<std::string>& names, const std::string& family) {
  std::vector<formats::NvbenchState> states;
  std::set<std::string> whole;  // benchmarks selected with all their states: a value the syntax cannot hold
  for (const std::string& name : names) {
    formats::NvbenchName parsed = formats::nvbench_from_our_name(name);
    if (!parsed.error.empty() || parsed.family != family) {
      throw DriverStop(formats::kExitInvalidInput,
                       "cannot select '" + formats::escape_console(name) + "' in the nvbench suite " + family +
                           (parsed.error.empty() ? ": another family" : ": " + parsed.error));
    }
    for (const formats::NvbenchAxisValue& axis : parsed.state.axis_values) {
      if (!axis_syntax_holds(axis.name) || !axis_syntax_holds(axis.value)) whole.insert(parsed.state.benchmark);
    }
    states.push_back(std::move(parsed.state));
  }
  std::vector<std::string> selection;
  std::set<std::string> selected_whole;
  for (const formats::NvbenchState& state : states) {
    const bool all_states = whole.count(state.benchmark) != 0;
    // A state selected twice would be run, and written, twice.
    if (all_states && !selected_whole.insert(state.benchmark).second) continue;
    selection.push_back("--benchmark");
    selection.push_back(state.benchmark);
    if (all_states) continue;
    for (const formats::NvbenchAxisValue& axis : state.axis_values) {
      selection.push_back("--axis");
      selection.push_back(axis.name + "=" + axis.value);
    }
  }
  return selection;
}

// The first look runs every state of the binary (its family is the whole suite); a re-measurement names
// the ambiguous ones (request.only_names). request.check_references is the team's tests' business.
ProcessOutcome NvbenchSuite::time(const TimingRequest& request, const ProcessFiles& files, std::ostream& err) {
  std::vector<std::string> argv = {program_, "--devices", "0", "--min-samples", std::to_string(request.repetitions)};
  const PaceChoice pace = nvbench_pace(arguments_);  // before any --benchmark: it applies to all
  note_pace_once(pace.note, err);
  argv.insert(argv.end(), pace.added.begin(), pace.added.end());
  argv.insert(argv.end(), arguments_.begin(), arguments_.end());
  std::string selected;  // the selection as one key for the progress of processes alike
  if (!request.only_names.empty()) {
    const std::vector<std::string> selection = nvbench_selection(request.only_names, family_);
    argv.insert(argv.end(), selection.begin(), selection.end());
    for (const std::string& word : selection) selected += word + " ";
  }
  argv.emplace_back("--jsonbin");
  argv.push_back(files.results);
  return run_with_progress({argv, request.environment, files.log}, nvbench_log_progress, selected, std::nullopt, err);
}

ResultsFile NvbenchSuite::read_results(const std::string& path) const {
  return with_fingerprint_reason(load_nvbench_results(path, family_, identity()).results, "an nvbench suite");
}

// The one state, run once: nvbench's --profile ("only run each benchmark once", for profilers), given
// before the selection so that it applies to it. A state whose axis values the selection cannot hold
// (nvbench_selection) runs with the other states of its benchmark: its fingerprint is theirs together.
std::vector<std::string> NvbenchSuite::capture_argv(const std::string& name) const {
  std::vector<std::string> argv = {program_, "--devices", "0"};
  argv.insert(argv.end(), arguments_.begin(), arguments_.end());
  argv.emplace_back("--profile");
  const std::vector<std::string> selection = nvbench_selection({name}, family_);
  argv.insert(argv.end(), selection.begin(), selection.end());
  return argv;
}

}  // namespace gpuperf::gate::driver
