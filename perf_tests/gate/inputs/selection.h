#pragma once
// Which benchmarks a gate run considers (--family F or --filter REGEX; a shard's, perf_gate run --shard):
// applied to the results and the baseline alike, so that judging one family does not report every other
// one as MISSING.

#include <optional>
#include <regex>
#include <set>
#include <string>

namespace gpuperf::gate {

class Selection {
 public:
  Selection() = default;  // everything
  // InputError for an invalid regular expression (ECMAScript syntax, matched anywhere in the name).
  static Selection family(const std::string& family);
  static Selection filter(const std::string& regex);
  // Exactly these benchmarks; `description` names them in reports ("shard 2 of 4 (54 benchmarks)").
  static Selection names(std::set<std::string> names, std::string description);

  bool matches(const std::string& benchmark_name) const;
  std::string describe() const;  // "family reduction", "filter 'reduce9'", "all benchmarks"

 private:
  std::string family_prefix_;  // "reduction/"
  std::string filter_text_;
  std::optional<std::regex> filter_;
  std::optional<std::set<std::string>> names_;
  std::string names_description_;
};

}  // namespace gpuperf::gate
