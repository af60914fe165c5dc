#pragma once
// The code side of the reports (judging/code_check.h): the text every report writes beside the timing verdicts.
// The console, Markdown and JSON reports share these, so that they say the same thing.

#include <string>
#include <vector>

#include "gate/judging/comparison.h"

namespace gpuperf::gate {

// What a person reads beside one verdict: "code: reduce9<256>: grid 528x1x1 -> 128x1x1 blocks; ...", or
// for a SLOW or FAST verdict over the same code "code: the same as the baseline's (SASS, launches,
// libraries): the change is not in the code" (stored mode over kernels-only fingerprints: "code: the same
// kernels as the baseline's (...); copies and sets not compared"), for PLATFORM "code: the same as the
// baseline's (SASS, launches, libraries, copies and sets)". Empty otherwise (same code under SAME; not
// compared).
std::string code_line(const BenchmarkComparison& row, const std::string& mode);

// A verdict that passed (SAME, FAST, AMBIGUOUS) over code that slows code down whatever the timing says:
// "<name>: SAME, but reduce9<256>: local memory 0 -> 48 B/thread", one per warning. Empty otherwise.
std::vector<std::string> code_warnings(const BenchmarkComparison& row);

// One line for the run: "code: 104 benchmarks ran the same code as the baseline, 3 changed, 1 not
// compared (these results hold no fingerprint for it)", or "code changes not checked: <why>". Empty
// when no row was compared.
std::string code_summary(const Comparison& comparison);

// Why no benchmark's code was compared (Comparison::code_not_checked), naming the sides as the mode does:
// "these results hold no fingerprints (a checking process of gpuperf_bench captures them with CUPTI)",
// "fingerprints not captured (a Google Benchmark suite)"; "" when they were compared.
std::string code_not_checked_text(const Comparison& comparison);

// "same code: 104 verdicts: 103 SAME, 1 UNCHANGED": the verdicts on identical fingerprints, the gate's
// observed false alarms. Empty when there were none.
std::string same_code_summary(const Comparison& comparison);

}  // namespace gpuperf::gate
