#pragma once
// The arguments of one perf_gate command, parsed against the options its entry of the command table
// (cli.cpp) declares: an option the command does not take, a value given twice or missing, a number out of
// range are a UsageError (exit 2 with the usage), never a default silently taken.

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

// kValue: one value ("--out FILE"); kValues: one or more ("--results A.json B.json"); kSwitch: none;
// kRest: every argument after it, verbatim, "--" ones too (the option "--": "run ... -- --benchmark_x=1",
// arguments for another program).
enum class OptionKind { kValue, kValues, kSwitch, kRest };

struct OptionSpec {
  const char* name;  // "--baseline"
  OptionKind kind;
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

// The output options of a command that are given, checked (formats::check_output_path, each file once)
// before anything is read or computed: a bad one fails the call at once, with nothing written.
std::vector<std::string> checked_outputs(const Arguments& args, std::initializer_list<const char*> options);

}  // namespace gpuperf::gate::cli
