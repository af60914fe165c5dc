// gpuperf_bench's own flags: one table (bench_flags.cpp) from which the program takes them out of its
// arguments and prints its --help. Google Benchmark's flags (--benchmark_*) are left for it.
#pragma once

#include <string>
#include <vector>

#include "harness/program_flags.h"

namespace gpuperf {

// What the flags asked for; each field is one flag of the table.
struct BenchOptions {
  bool help = false;
  bool version = false;
  bool list_cases = false;
  bool gpu_info = false;
  bool no_reference_check = false;
  bool no_fingerprint = false;
  bool fingerprint_only = false;
  bool reverse_order = false;
  bool profiler_window = false;
  std::string time_filter;            // "" when not given
  std::string profiler_window_order;  // "" when not given
};

// The table, in the order --help lists it.
const std::vector<ProgramFlag<BenchOptions>>& bench_flags();

// Takes the table's flags out of argv (argc updated); the rest is Google Benchmark's to parse or refuse.
// FlagError when a flag of the table is misused or two exclude each other (bench_flags_conflict).
BenchOptions take_bench_flags(int& argc, char** argv);

// "" when `options` go together; else the one line that says which two do not, and what to do.
std::string bench_flags_conflict(const BenchOptions& options);

// The help of the program named `program`: what it does, its exit codes, the table, and where Google
// Benchmark's flags are (main prints them after it, from Google Benchmark).
std::string bench_help(const std::string& program);

}  // namespace gpuperf
