#include "common/registry.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "formats/escape.h"
#include "formats/names.h"

namespace gpuperf {
namespace {

// Every name reaches reports, baselines and CI logs: a name that breaks formats/names.h's rule stops the
// program at start-up (exit 2), where its author sees it, rather than in the gate, which refuses it too.
void require_name(formats::NameKind kind, const std::string& name, const std::string& family) {
  const std::string error = formats::name_error(kind, name);
  if (!error.empty()) {
    throw std::invalid_argument("registry: " + error + " (register_" + formats::escape_console(family) + ")");
  }
}

}  // namespace

std::string not_applicable_reason(const Requirements& needs, const DeviceCapabilities& device) {
  const auto version = [](int cc) { return std::to_string(cc / 10) + "." + std::to_string(cc % 10); };
  if (device.compute_capability < needs.min_compute_capability) {
    return "needs compute capability " + version(needs.min_compute_capability) + " or newer; this GPU has " +
           version(device.compute_capability);
  }
  if (device.shared_memory_per_block_optin_bytes < needs.shared_memory_per_block_bytes) {
    return "needs " + std::to_string(needs.shared_memory_per_block_bytes / 1024) +
           " KiB of shared memory per block; this GPU allows " +
           std::to_string(device.shared_memory_per_block_optin_bytes / 1024) + " KiB";
  }
  return "";
}

void Registry::add_family(const std::string& family, void (*register_family)(Registry&)) {
  if (family.empty()) throw std::invalid_argument("registry: a family needs a name");
  require_name(formats::NameKind::kFamily, family, family);
  const std::size_t first = cases_.size();
  adding_family_ = family;
  try {
    register_family(*this);
  } catch (...) {
    adding_family_.clear();
    throw;
  }
  adding_family_.clear();
  const auto has_role = [&](unsigned role) {
    return std::any_of(cases_.begin() + static_cast<std::ptrdiff_t>(first), cases_.end(),
                       [role](const Case& c) { return (c.roles & role) != 0; });
  };
  if (!has_role(kCorrectness) || !has_role(kPerf)) {
    throw std::invalid_argument("registry: family '" + family + "' registered " +
                                std::to_string(cases_.size() - first) + " case(s) but no " +
                                (has_role(kCorrectness) ? "perf" : "correctness") +
                                " case: give it at least one of each role (register_" + family + ")");
  }
}

void Registry::add(Case c) {
  if (!adding_family_.empty()) {
    if (c.family.empty()) c.family = adding_family_;
    if (c.family != adding_family_) {
      throw std::invalid_argument("registry: register_" + adding_family_ + " added '" + c.name() +
                                  "' of family '" + c.family + "': leave Case::family empty, add_family() sets it");
    }
  }
  if (c.family.empty() || c.variant.empty() || c.shape.empty() || !c.make) {
    throw std::invalid_argument("registry: case '" + c.name() + "' needs a family, variant, shape and make()");
  }
  require_name(formats::NameKind::kNamePart, c.variant, c.family);
  require_name(formats::NameKind::kNamePart, c.shape, c.family);
  require_name(formats::NameKind::kBenchmark, c.name(), c.family);
  if (c.runs_per_sample < 1) throw std::invalid_argument("registry: " + c.name() + ": runs_per_sample < 1");
  const auto same = [&](const Case& other) { return other.name() == c.name(); };
  if (std::any_of(cases_.begin(), cases_.end(), same)) {
    throw std::invalid_argument("registry: duplicate case name '" + c.name() + "'");
  }
  cases_.push_back(std::move(c));
}

std::string Registry::name_in_family(const std::string& variant, const std::string& shape) const {
  if (adding_family_.empty()) {
    throw std::logic_error("registry: name_in_family('" + variant + "', '" + shape + "') outside add_family()");
  }
  return case_name(adding_family_, variant, shape);
}

const Case* Registry::find(const std::string& name) const {
  const auto it = std::find_if(cases_.begin(), cases_.end(), [&name](const Case& c) { return c.name() == name; });
  return it == cases_.end() ? nullptr : &*it;
}

void Registry::validate_references() const {
  std::map<std::string, const Case*> by_name;
  std::set<std::string> families;
  for (const Case& c : cases_) {
    by_name[c.name()] = &c;
    families.insert(c.family);
  }
  const auto check = [&](const Case& c, const char* field, const std::string& target_name) {
    if (target_name.empty()) return;
    const std::string where = "registry: case '" + c.name() + "' has " + field + " '" + target_name + "'";
    if (target_name == c.name()) throw std::invalid_argument(where + ": itself");
    const auto found = by_name.find(target_name);
    if (found == by_name.end()) {
      const std::string target_family = target_name.substr(0, target_name.find('/'));
      if (families.count(target_family) == 0) return;  // a family this build leaves out
      throw std::invalid_argument(where + ", which is no registered case: register it, or fix the name");
    }
    if ((c.roles & kPerf) != 0 && (found->second->roles & kPerf) == 0) {
      throw std::invalid_argument(where + ", which is never timed (no perf role): compare with a perf case");
    }
  };
  for (const Case& c : cases_) {
    check(c, "compared_with", c.compared_with);
    check(c, "speedup_over", c.speedup_over);
  }
}

}  // namespace gpuperf
