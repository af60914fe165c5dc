#include "gate/cli/arguments.h"

#include <sys/stat.h>

#include <cmath>
#include <sstream>

#include "formats/atomic_file.h"
#include "formats/nearest_name.h"

namespace gpuperf::gate::cli {

Arguments::Arguments(const std::string& command, const std::vector<std::string>& args,
                     const std::vector<OptionSpec>& options) {
  for (std::size_t i = 0; i < args.size();) {
    std::string option = args[i++];
    // "--opt=value" is "--opt value"; the value may then begin with "--" ("--filter=--x").
    std::optional<std::string> attached;
    if (const std::size_t equals = option.find('='); option.rfind("--", 0) == 0 && equals != std::string::npos &&
                                                     equals > 2) {
      attached = option.substr(equals + 1);
      option.resize(equals);
    }
    const OptionSpec* spec = nullptr;
    std::vector<std::string> names;
    for (const OptionSpec& candidate : options) {
      if (option == candidate.name) spec = &candidate;
      names.emplace_back(candidate.name);
    }
    if (spec == nullptr) {
      throw UsageError("unknown option '" + option + "' for '" + command + "'" + did_you_mean(option, names));
    }
    if (spec->kind == OptionKind::kSwitch) {
      if (attached) throw UsageError(option + " takes no value (given '" + *attached + "')");
      switches_.insert(option);
      continue;
    }
    if (spec->kind == OptionKind::kRest) {
      std::vector<std::string>& rest = values_[option];
      for (; i < args.size(); ++i) {
        rest.push_back(args[i]);
        order_.emplace_back(option, args[i]);
      }
      if (rest.empty()) throw UsageError(option + " needs a value");
      break;
    }
    const bool single = spec->kind == OptionKind::kValue;
    std::vector<std::string>& values = values_[option];
    if (single && !values.empty()) throw UsageError(option + " given twice");
    if (attached) {
      values.push_back(*attached);
      order_.emplace_back(option, values.back());
      if (single) continue;
    }
    while (i < args.size() && args[i].rfind("--", 0) != 0) {
      values.push_back(args[i++]);
      order_.emplace_back(option, values.back());
      if (single) break;
    }
    if (values.empty()) throw UsageError(option + " needs a value");
  }
}

bool Arguments::has(const std::string& option) const {
  return values_.count(option) != 0 || switches_.count(option) != 0;
}

std::string Arguments::value(const std::string& option) const {
  const auto it = values_.find(option);
  return it == values_.end() ? "" : it->second.front();
}

const std::vector<std::string>& Arguments::list(const std::string& option) const {
  const auto it = values_.find(option);
  if (it == values_.end()) throw UsageError(option + " is required");
  return it->second;
}

std::string Arguments::required(const std::string& option) const {
  if (!has(option)) throw UsageError(option + " is required");
  return value(option);
}

std::optional<double> Arguments::number(const std::string& option, double low, double high) const {
  if (!has(option)) return std::nullopt;
  const std::string text = value(option);
  double parsed = 0.0;
  std::size_t used = 0;
  try {
    parsed = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(parsed) || parsed < low || parsed > high) {
    std::ostringstream message;
    message << option << " '" << text << "' must be a number in [" << low << ", " << high << "]";
    throw UsageError(message.str());
  }
  return parsed;
}

std::optional<int> Arguments::whole_number(const std::string& option, int low, int high) const {
  const std::optional<double> parsed = number(option, low, high);
  if (!parsed) return std::nullopt;
  if (*parsed != static_cast<int>(*parsed)) throw UsageError(option + " must be a whole number");
  return static_cast<int>(*parsed);
}

std::vector<std::pair<std::string, std::string>> Arguments::in_order(std::initializer_list<const char*> options) const {
  std::vector<std::pair<std::string, std::string>> selected;
  for (const auto& entry : order_) {
    for (const char* option : options) {
      if (entry.first == option) selected.push_back(entry);
    }
  }
  return selected;
}

std::vector<std::string> checked_outputs(const Arguments& args, std::initializer_list<const char*> options) {
  std::vector<std::string> paths;
  formats::OutputFiles probe;
  for (const char* option : options) {
    if (!args.has(option)) continue;
    paths.push_back(args.value(option));
    probe.add(paths.back(), "");
  }
  return paths;
}

namespace {

// Whether `a` and `b` name one file: by identity where both exist (hard and symbolic links, "./a", "x/../a"),
// by their resolved paths otherwise (an output not written yet, an input that is missing).
bool paths_name_one_file(const std::string& a, const std::string& b) {
  struct stat first {};
  struct stat second {};
  if (::stat(a.c_str(), &first) == 0 && ::stat(b.c_str(), &second) == 0) {
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
  }
  return formats::resolved_path(a) == formats::resolved_path(b);
}

bool role_writes(FileRole role) { return role == FileRole::kOutput || role == FileRole::kUpdated; }
bool role_is_read_against_outputs(FileRole role) { return role == FileRole::kInput || role == FileRole::kUpdated; }

}  // namespace

void check_outputs_are_not_inputs(const Arguments& args, const std::vector<OptionSpec>& options) {
  for (const OptionSpec& written : options) {
    if (!role_writes(written.role) || !args.has(written.name)) continue;
    for (const OptionSpec& read : options) {
      if (&read == &written || !role_is_read_against_outputs(read.role) || !args.has(read.name)) continue;
      for (const std::string& output : args.list(written.name)) {
        for (const std::string& input : args.list(read.name)) {
          if (!paths_name_one_file(output, input)) continue;
          throw UsageError(std::string(written.name) + " '" + output + "' is the file " + read.name + " reads" +
                           (output == input ? "" : " ('" + input + "')") + ": writing it would replace an input - " +
                           "write " + written.name + " elsewhere; nothing was written");
        }
      }
    }
  }
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& names) {
  const std::optional<std::string> nearest = formats::nearest_name(word, names);
  return nearest ? "; did you mean '" + *nearest + "'?" : "";
}

}  // namespace gpuperf::gate::cli
