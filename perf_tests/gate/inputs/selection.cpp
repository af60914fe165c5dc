#include "gate/inputs/selection.h"

#include "formats/input_error.h"

namespace gpuperf::gate {

Selection Selection::family(const std::string& family) {
  Selection s;
  s.family_prefix_ = family + "/";
  return s;
}

Selection Selection::filter(const std::string& regex) {
  Selection s;
  s.filter_text_ = regex;
  try {
    s.filter_.emplace(regex, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw formats::InputError("--filter '" + regex + "' is not a valid regular expression (" + e.what() +
                     ") - use ECMAScript syntax, e.g. 'reduction/reduce9'");
  }
  return s;
}

Selection Selection::names(std::set<std::string> names, std::string description) {
  Selection s;
  s.names_ = std::move(names);
  s.names_description_ = std::move(description);
  return s;
}

bool Selection::matches(const std::string& name) const {
  if (names_) return names_->count(name) != 0;
  if (!family_prefix_.empty()) return name.compare(0, family_prefix_.size(), family_prefix_) == 0;
  if (filter_) return std::regex_search(name, *filter_);
  return true;
}

std::string Selection::describe() const {
  if (names_) return names_description_;
  if (!family_prefix_.empty()) return "family " + family_prefix_.substr(0, family_prefix_.size() - 1);
  if (filter_) return "filter '" + filter_text_ + "'";
  return "all benchmarks";
}

}  // namespace gpuperf::gate
