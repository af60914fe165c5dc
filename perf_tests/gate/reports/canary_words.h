#pragma once
// The words of the memory canary (judging/memory_canary.h) that every report writes: its line, what to do
// when it moved, and the note beside a memory-bound verdict.

#include <string>
#include <vector>

#include "gate/judging/memory_canary.h"

namespace gpuperf::gate {

// One line: "this machine streams memory 3.1% slower than the baseline's (ceiling: device_copy +3.0% [+2.8,
// +3.2], ...)", "memory canary: +0.2% (median of 3 ceiling benchmarks), no shift beyond 1%", or "no memory
// canary (the results hold no ceiling benchmarks)"; each followed by "; not compared: ..." where some were
// left out.
std::string canary_summary(const Canary& canary);

// When it moved: what to do about memory-bound verdicts; "" otherwise.
std::string canary_action(const Canary& canary);

// The benchmarks left out, each with why: "ceiling/memset/n:268435456 (not in the results)".
std::vector<std::string> canary_left_out_words(const Canary& canary);

// The note beside a memory-bound verdict when the canary moved: "machine's memory 3.1% slower".
std::string canary_note(double change_pct);

}  // namespace gpuperf::gate
