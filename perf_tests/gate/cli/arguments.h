#pragma once
// The arguments of one perf_gate command, parsed against the options its entry of the command table
// (cli.cpp) declares, "--opt value" or "--opt=value": an option the command does not take, a value given
// twice or missing, a number out of range are a UsageError (exit 2, pointing at the command's --help), never
// a default silently taken.

#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gpuperf::gate::cli {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

// kValue: one value ("--out FILE", "--out=FILE"); kValues: one or more ("--results A.json B.json"); kSwitch: none;
// kRest: every argument after it, verbatim, "--" ones too (the option "--": "run ... -- --benchmark_x=1",
// arguments for another program).
enum class OptionKind { kValue, kValues, kSwitch, kRest };

// What an option's value is to the call's files, for the check that no output overwrites an input
// (check_outputs_are_not_inputs). kUpdated: read and rewritten in place by design (a ledger, a store of
// profiles), an input to every other output. kReplaced: an input that the call's output may replace, read
// whole before it is written (record --previous, migrate --baseline), an input to nothing else.
enum class FileRole { kNone, kInput, kOutput, kUpdated, kReplaced };

// One option of a command's entry in the command table: the parser, the per-command help and the check of
// outputs against inputs all read it.
struct OptionSpec {
  const char* name;  // "--baseline"
  OptionKind kind;
  FileRole role = FileRole::kNone;
  const char* argument = "";  // the value in the help: "FILE", "N (30)"; "" for a switch
  const char* meaning = "";   // one line of the help: what the option does
};

class Arguments {
 public:
  // `args` without the program name and the command; `command` names it in messages.
  Arguments(const std::string& command, const std::vector<std::string>& args, const std::vector<OptionSpec>& options);

  bool has(const std::string& option) const;
  // The option's (first) value, "" when it was not given.
  std::string value(const std::string& option) const;
  // The option's values; UsageError "... is required" when it was not given.
  const std::vector<std::string>& list(const std::string& option) const;
  std::string required(const std::string& option) const;
  // The option's value as a number in [low, high]; nullopt when it was not given.
  std::optional<double> number(const std::string& option, double low, double high) const;
  // The option's value as a whole number in [low, high]; nullopt when it was not given.
  std::optional<int> whole_number(const std::string& option, int low, int high) const;
  // The values of `options`, each with its option, in the order given on the command line (the fleet
  // report's GPU columns follow it).
  std::vector<std::pair<std::string, std::string>> in_order(std::initializer_list<const char*> options) const;

 private:
  std::map<std::string, std::vector<std::string>> values_;
  std::set<std::string> switches_;
  std::vector<std::pair<std::string, std::string>> order_;
};

// UsageError when a file the call writes (kOutput, kUpdated) is a file it reads under another option
// (kInput, kUpdated): the same file where both exist (st_dev and st_ino: links and "./" spellings too),
// the same resolved path otherwise. Runs before the command, so nothing is read or written.
void check_outputs_are_not_inputs(const Arguments& args, const std::vector<OptionSpec>& options);

// "; did you mean 'NAME'?" for the name of `names` nearest to `word` (a misspelling: a few letters off),
// "" when none is near.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& names);

// The output options of a command that are given, checked (formats::check_output_path, each file once)
// before anything is read or computed: a bad one fails the call at once, with nothing written.
std::vector<std::string> checked_outputs(const Arguments& args, std::initializer_list<const char*> options);

}  // namespace gpuperf::gate::cli
