#include "gate/driver/benchmark_filters.h"

#include <map>

namespace gpuperf::gate::driver {
namespace {

// One run setting Google Benchmark may append between a run's arguments and its threads:N, each key's
// value whatever it is (formats/foreign_names.cpp strips them by these keys alone).
constexpr const char* kGbenchSettingPattern =
    "(/(min_time:[^/]*|min_warmup_time:[^/]*|iterations:[^/]*|repeats:[^/]*|manual_time|real_time|process_time))*";

}  // namespace

std::string regex_escaped(const std::string& name) {
  static const std::string kSpecial = "[]\\.*^$+?(){}|";
  std::string escaped;
  for (const char c : name) {
    if (kSpecial.find(c) != std::string::npos) escaped += '\\';
    escaped += c;
  }
  return escaped;
}

std::string exact_filter(const std::vector<std::string>& names) {
  std::string alternatives;
  for (const std::string& name : names) alternatives += (alternatives.empty() ? "" : "|") + regex_escaped(name);
  return "^(" + alternatives + ")(/|$)";
}

std::string gbench_runs_filter(const std::vector<std::string>& run_names) {
  // The names by the threads:N they end in ("" for none): the settings come before it.
  std::map<std::string, std::string> alternatives_by_threads;
  for (const std::string& run_name : run_names) {
    const std::size_t slash = run_name.rfind('/');
    const bool threaded = slash != std::string::npos && run_name.compare(slash + 1, 8, "threads:") == 0;
    const std::string threads = threaded ? run_name.substr(slash) : "";
    std::string& alternatives = alternatives_by_threads[threads];
    alternatives += (alternatives.empty() ? "" : "|") + regex_escaped(threaded ? run_name.substr(0, slash) : run_name);
  }
  std::string filter;
  for (const auto& [threads, alternatives] : alternatives_by_threads) {
    filter += (filter.empty() ? "^(" : "|^(") + alternatives + ")" + kGbenchSettingPattern + regex_escaped(threads) + "$";
  }
  return filter;
}

std::string family_filter(const std::string& family, const std::string& canary) {
  if (canary.empty() || canary == family) return "^" + family + "/";
  return "^(" + family + "|" + canary + ")/";
}

std::string names_filter(const std::vector<std::string>& names, const std::string& family, const std::string& canary) {
  std::string filter = exact_filter(names);
  if (!canary.empty() && canary != family) filter += "|^" + canary + "/";
  return filter;
}

}  // namespace gpuperf::gate::driver
