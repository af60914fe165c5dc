#include "gate/cli/arguments.h"

#include <cmath>
#include <sstream>

#include "formats/atomic_file.h"

namespace gpuperf::gate::cli {

Arguments::Arguments(const std::string& command, const std::vector<std::string>& args,
                     const std::vector<OptionSpec>& options) {
  for (std::size_t i = 0; i < args.size();) {
    const std::string& option = args[i++];
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& candidate : options) {
      if (option == candidate.name) spec = &candidate;
    }
    if (spec == nullptr) throw UsageError("unknown option '" + option + "' for " + command);
    if (spec->kind == OptionKind::kSwitch) {
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

}  // namespace gpuperf::gate::cli
