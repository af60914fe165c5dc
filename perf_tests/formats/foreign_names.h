#pragma once
// Another tool's benchmark names on our name rule (names.h), and back. A Google Benchmark run or an nvbench
// state of a team's suite gets a name family/variant[/shape...], so that the gate judges it as it judges
// ours, and the name a baseline or a report holds leads back to the benchmark that made it.
// docs/suites.md states the rule for users.
//
//   Google Benchmark  <family>/<function>[/<argument>...][/threads:N]
//     "BM_saxpy/1024/manual_time"      in saxpy_suite  ->  saxpy_suite/BM_saxpy/1024
//     "BM_copy<float>/4096/real_time"  in saxpy_suite  ->  saxpy_suite/BM_copy_x3cfloat_x3e/4096
//     "BM_x/threads:2"                 in saxpy_suite  ->  saxpy_suite/BM_x/threads:2
//   The family is the suite's name, which the user gives (a CMake name; it must be a family name of
//   names.h); the variant is the benchmark's function name; the shape its arguments, one part each, as
//   Google Benchmark writes them ("n:1024" for a named one). The run settings Google Benchmark appends
//   (min_time:, min_warmup_time:, iterations:, repeats:, manual_time, real_time, process_time) are left out:
//   they say how it was timed, not what, and a baseline must outlive a change of them (the same rule as our
//   own suite's, gate/inputs/results.h). threads:N stays: on 2 threads it is another benchmark than on 1.
//
//   nvbench  <family>/<benchmark>[/<axis>:<value>,<axis>:<value>...]
//     copy_sweep, state "Device=0 BlockSize=2^6 T=I32 Elements=2^20"
//                                      in suite  ->  suite/copy_sweep/BlockSize:64,T:I32,Elements:1048576
//   The axes in the order the state lists them, each value as its axis_values hold it (a power-of-two axis
//   as its value, 64, not 2^6). The device is not part of the name: which GPU measured is the baseline
//   file's business (baselines/<gpu>.json). A benchmark without axes is <family>/<benchmark>.
//
// Escaping: a byte outside a part's characters is written _xHH (two lower-case hex digits), so any byte
// string maps, control characters and non-ASCII included. A part keeps letters, digits, '.', '-' and '_';
// a Google Benchmark part and an nvbench benchmark's name keep ',' and ':' too, which separate nvbench's
// axes and values and are escaped there. '_' is kept except where an 'x' and two lower-case hex digits
// follow it, where it would read as an escape: then it is _x5f ("BM_saxpy" stays, "a_x41" is "a_x5fx41").
// The map is one-to-one: *_from_our_name gives back exactly what *_to_our_name was given (for Google
// Benchmark, the run name less its run settings), and refuses a name the mapping cannot have written.
//
// Length: a name longer than kMaxBenchmarkNameLength once mapped is refused, saying so: the limit protects
// every reader and report (names.h), and a name cut short would no longer lead back.

#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::formats {

// A foreign name on our rule: `name` (valid under names.h), or else `error`, what is wrong (the foreign
// name escaped, safe to print), and `remedy`, what to do about it.
struct MappedName {
  std::string name;
  std::string error;
  std::string remedy;
  bool ok() const { return error.empty(); }
};

// --- Google Benchmark ---

// Whether one '/'-separated component of a run name is a run setting Google Benchmark appends
// (BenchmarkName::str() in its src/benchmark_name.cc): min_time:, min_warmup_time:, iterations:, repeats:,
// manual_time, real_time, process_time, and threads: when `threads_too`.
bool is_gbench_run_setting(std::string_view component, bool threads_too);

// The run name less the run settings at its end; its first component always stays. With `keep_threads`
// a trailing threads:N stays: "BM_x/8/manual_time/threads:2" -> "BM_x/8/threads:2"; without it,
// "BM_x/8" (our own suite's names, whose registry never uses threads).
std::string gbench_run_name_without_settings(std::string_view run_name, bool keep_threads);

// Our name of a run of the suite `family`: "BM_saxpy/1024/manual_time" -> "<family>/BM_saxpy/1024".
MappedName gbench_to_our_name(std::string_view family, std::string_view run_name);

// The inverse: the family and the run name less its settings ("BM_saxpy/1024"), or `error` (safe to
// print) when `name` is not one gbench_to_our_name writes.
struct GbenchName {
  std::string family;
  std::string run_name;
  std::string error;
};
GbenchName gbench_from_our_name(std::string_view name);

// --- nvbench ---

struct NvbenchAxisValue {
  std::string name;   // "BlockSize"
  std::string value;  // "64", as the state's axis_values hold it (nvbench writes every value as text)
};

// What names one nvbench state apart from the others, its device aside.
struct NvbenchState {
  std::string benchmark;                      // "copy_sweep"
  std::vector<NvbenchAxisValue> axis_values;  // in the state's order
};

// Our name of a state of the suite `family`: "<family>/copy_sweep/BlockSize:64,T:I32".
MappedName nvbench_to_our_name(std::string_view family, const NvbenchState& state);

// The inverse, or `error` (safe to print) when `name` is not one nvbench_to_our_name writes.
struct NvbenchName {
  std::string family;
  NvbenchState state;
  std::string error;
};
NvbenchName nvbench_from_our_name(std::string_view name);

// The axis values a state's name shows, for a state without axis_values: "Device=0 BlockSize=2^6 T=I32
// Elements[pow2]=20" -> BlockSize 64, T I32, Elements 1048576 (the device left out). Lossy where
// axis_values are not (a float axis is shown to 5 digits, a string value may hold a space): the reader
// prefers axis_values. `error` when a word is not Axis=value or a power of two is out of range.
struct NvbenchAxisValues {
  std::vector<NvbenchAxisValue> values;
  std::string error;
};
NvbenchAxisValues nvbench_axis_values_from_state_name(std::string_view state_name);

}  // namespace gpuperf::formats
