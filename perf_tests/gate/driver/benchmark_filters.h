#pragma once
// The regular expressions the driver gives a suite's --benchmark_filter and --time-filter (searched in
// each benchmark's name): a family, a family with the memory canary beside it, an exact list of names.

#include <string>
#include <vector>

namespace gpuperf::gate::driver {

// `name` with every character a regular expression gives a meaning ([ ] \ . * ^ $ + ? ( ) { } |) escaped.
std::string regex_escaped(const std::string& name);

// Exactly these benchmarks of our own suite, and their Google Benchmark suffixes: "^(a/x/n:1|a/y/n:2)(/|$)".
std::string exact_filter(const std::vector<std::string>& names);

// Exactly the Google Benchmark runs of these run names less their run settings, as
// formats::gbench_run_name_without_settings() gives them ("BM_a/1024", "BM_a/1024/threads:2"), and no
// other: Google Benchmark searches --benchmark_filter in each run's full name (function, arguments, then
// min_time:, min_warmup_time:, iterations:, repeats:, manual_time|real_time|process_time, then threads:N;
// BenchmarkName::str() in its src/benchmark_name.cc), with POSIX extended regular expressions. So a name
// may be followed by any run settings and, where it ends in threads:N, has them before its threads:
//   {"BM_x/1", "BM_a/1024/threads:2"} -> "^(BM_x/1)(/(S))*$|^(BM_a/1024)(/(S))*/threads:2$", S the settings;
// "BM_x/1/2" is not selected by "BM_x/1", nor "BM_a/1024/manual_time/threads:4" by its threads:2.
std::string gbench_runs_filter(const std::vector<std::string>& run_names);

// Every benchmark of `family`, and of `canary` beside it where given and another family:
// "^reduction/", "^(reduction|ceiling)/".
std::string family_filter(const std::string& family, const std::string& canary);

// Exactly `names`, and every benchmark of `canary` where given and another family than `family`:
// "^(reduction/reduce9/n:1)(/|$)|^ceiling/" (a run that times only what changed).
std::string names_filter(const std::vector<std::string>& names, const std::string& family, const std::string& canary);

}  // namespace gpuperf::gate::driver
