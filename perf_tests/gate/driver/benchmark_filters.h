#pragma once
// The regular expressions the driver gives a suite's --benchmark_filter and --time-filter (searched in
// each benchmark's name): a family, a family with the memory canary beside it, an exact list of names.

#include <string>
#include <vector>

namespace gpuperf::gate::driver {

// `name` with every character a regular expression gives a meaning ([ ] \ . * ^ $ + ? ( ) { } |) escaped.
std::string regex_escaped(const std::string& name);

// Exactly these benchmarks, and their Google Benchmark suffixes: "^(a/x/n:1|a/y/n:2)(/|$)".
std::string exact_filter(const std::vector<std::string>& names);

// Every benchmark of `family`, and of `canary` beside it where given and another family:
// "^reduction/", "^(reduction|ceiling)/".
std::string family_filter(const std::string& family, const std::string& canary);

// Exactly `names`, and every benchmark of `canary` where given and another family than `family`:
// "^(reduction/reduce9/n:1)(/|$)|^ceiling/" (a run that times only what changed).
std::string names_filter(const std::vector<std::string>& names, const std::string& family, const std::string& canary);

}  // namespace gpuperf::gate::driver
