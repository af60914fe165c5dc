// Which of a process's selected cases it times (gpuperf_bench --time-filter), and which it only sets up
// in their turn before them.
//
// Why set up cases that are not timed: a case's time can depend on what the process allocated and freed
// before it. Where a small buffer that every thread of a kernel hits lands in device memory (an atomic
// counter, a library's per-block partial sums) decides which L2 slice serves it; on an H100 that moved
// count_equal's per-element atomics at 2^25 by 1.5% and cub::DeviceReduce::Sum at 2^25 by up to 1.3%, the
// same placement giving the same time in every process (docs/results.md, "Where a buffer lands"). A
// re-measurement that timed only the ambiguous benchmarks, in a process with nothing before them, therefore
// timed cub 2^25 0.8% (an H100) and 1.4% (an H200) slower than the first look it was pooled with; with
// --time-filter, which times the ambiguous ones and sets up the first look's other cases in their turn,
// within 0.1%: each timed case follows the history it had in the first look.
#pragma once

#include <string>
#include <vector>

#include "common/registry.h"

namespace gpuperf {

struct TimedCase {
  const Case* timed = nullptr;
  // Selected cases not timed, between the previous timed case and this one, in order: set up (inputs,
  // one run, the pause after freed memory, warm-up) and released before `timed` is.
  std::vector<const Case*> set_up_before;
};

// The cases whose name `selected_filter` matches (std::regex_search, as --benchmark_filter), in the order
// given, grouped around those `time_filter` matches too. Selected cases after the last timed one change
// nothing and are left out. Throws std::invalid_argument, naming the flag, where either is not a
// regular expression.
std::vector<TimedCase> timed_cases(const std::vector<const Case*>& cases, const std::string& selected_filter,
                                   const std::string& time_filter);

}  // namespace gpuperf
