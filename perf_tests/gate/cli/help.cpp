#include "gate/cli/help.h"

#include <algorithm>
#include <cstring>

namespace gpuperf::gate::cli {
namespace {

constexpr const char* kHelpExitCodes = R"(exit codes:
  0   pass: no regression (SAME, FAST, NEW, AMBIGUOUS after re-measuring; MISSING without --strict)
  1   regression: a benchmark is SLOW (with --strict: or MISSING)
  2   invalid input or infrastructure: bad arguments, unreadable or corrupt file, a benchmark that
      reported an error, no samples at all, results from another GPU than the baseline
  77  not judged: no regression, but some benchmark (or every one) could not be judged (throttled,
      too few samples or processes, unit mismatch); CTest reports it as skipped
)";

constexpr const char* kHelpFiles = R"(files: an input must be a regular file of at most 512 MiB; an output must be absent or a regular file
  in a writable folder, and never a file the call reads under another option (record --out may replace
  its --previous, migrate --out its --baseline). Every output of a call is checked before anything is
  read, and all are written or none. A file that is read and rewritten (record --out, migrate --out,
  ncu-store, ledger) is locked meanwhile through a lock file in ${TMPDIR:-/tmp}/gpuperf-locks-<uid>/,
  never beside it.
)";

// The widest "--option ARGUMENT" that keeps its meaning in the column after it [characters]; a wider one
// is followed by two spaces instead.
constexpr std::size_t kHelpOptionColumn = 30;

std::string help_padded(std::string text, std::size_t width) {
  text += text.size() + 2 <= width ? std::string(width - text.size(), ' ') : "  ";
  return text;
}

std::string help_option_line(const OptionSpec& option) {
  std::string form = option.name;
  if (std::strlen(option.argument) > 0) form += std::string(" ") + option.argument;
  return "  " + help_padded(form, kHelpOptionColumn) + option.meaning + "\n";
}

}  // namespace

std::string command_list_text(const std::vector<Command>& commands) {
  std::size_t width = std::strlen("--version");
  for (const Command& command : commands) width = std::max(width, std::strlen(command.name));
  width += 2;
  std::string text =
      "perf_gate: runs the perf tests and judges their results against a GPU's baseline\n\n"
      "usage: perf_gate COMMAND [OPTIONS]   (an option's value: --option VALUE or --option=VALUE)\n"
      "       perf_gate COMMAND --help, or perf_gate help COMMAND: what COMMAND does, every option\n\n"
      "commands:\n";
  for (const Command& command : commands) {
    text += "  perf_gate " + help_padded(command.name, width) + command.purpose + "\n";
  }
  text += "  perf_gate " + help_padded("--version", width) +
          "print the harness's release (gpuperf MAJOR.MINOR.PATCH), which every report names\n\n";
  return text + kHelpExitCodes + "\n" + kHelpFiles;
}

std::string command_help_text(const Command& command) {
  std::string text = std::string("perf_gate ") + command.name + ": " + command.purpose + "\n\nusage:\n" + command.usage +
                     "\noptions (--option VALUE or --option=VALUE):\n";
  for (const OptionSpec& option : command.options) text += help_option_line(option);
  text += help_option_line({"--help", OptionKind::kSwitch, FileRole::kNone, "", "print this help and exit 0"});
  return text +
         "\nexit codes: 0 pass, 1 regression, 2 invalid input or infrastructure, 77 nothing judged\n"
         "(perf_gate --help says what each means)\n";
}

std::string help_pointer_line(const std::string& command) {
  if (command.empty()) return "usage: perf_gate COMMAND [OPTIONS]; 'perf_gate --help' lists the commands";
  return "usage: perf_gate " + command + " [OPTIONS]; 'perf_gate " + command + " --help' lists its options";
}

}  // namespace gpuperf::gate::cli
