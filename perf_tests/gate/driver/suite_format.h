#pragma once
// The kinds of benchmark suite the driver runs (perf_gate run/ab-run --format): how a suite binary is asked
// to list, filter and time its benchmarks, and where its output is read.
//   gpuperf  gpuperf_bench, the harness's own (gpuperf_suite.h)
//   gbench   a Google Benchmark binary (--benchmark_out)                          not yet
//   nvbench  an nvbench binary (--json)                                           not yet

#include <memory>
#include <string>

#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

enum class SuiteFormat { kGpuperf, kGbench, kNvbench };

// "gpuperf", "gbench", "nvbench".
const char* format_name(SuiteFormat format);

// The format a --format value names; DriverStop (exit 2) for another word.
SuiteFormat parse_suite_format(const std::string& text);

// The suite of that format whose binary is `program`. DriverStop (exit 2) for a format the driver cannot
// run yet, saying so and what to do meanwhile.
std::unique_ptr<Suite> make_suite(SuiteFormat format, const std::string& program);

}  // namespace gpuperf::gate::driver
