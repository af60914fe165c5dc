#include "gate/driver/benchmark_filters.h"

namespace gpuperf::gate::driver {

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
