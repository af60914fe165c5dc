#include "harness/timed_cases.h"

#include <regex>
#include <stdexcept>

namespace gpuperf {
namespace {

std::regex regex_of(const std::string& pattern, const char* flag) {
  try {
    return std::regex(pattern);
  } catch (const std::regex_error& e) {
    throw std::invalid_argument(std::string(flag) + "='" + pattern + "' is not a regular expression (" + e.what() +
                                "): give one that names the cases, e.g. '^reduction/'");
  }
}

}  // namespace

std::vector<TimedCase> timed_cases(const std::vector<const Case*>& cases, const std::string& selected_filter,
                                   const std::string& time_filter) {
  const std::regex selected = regex_of(selected_filter, "--benchmark_filter");
  const std::regex timed = regex_of(time_filter, "--time-filter");
  std::vector<TimedCase> plan;
  std::vector<const Case*> pending;
  for (const Case* c : cases) {
    const std::string name = c->name();
    if (!std::regex_search(name, selected)) continue;
    if (!std::regex_search(name, timed)) {
      pending.push_back(c);
      continue;
    }
    plan.push_back({c, std::move(pending)});
    pending.clear();
  }
  return plan;
}

}  // namespace gpuperf
