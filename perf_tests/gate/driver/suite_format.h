#pragma once
// The kinds of benchmark suite the driver runs (perf_gate run/ab-run --format): how a suite binary is asked
// to list, filter and time its benchmarks, and where its output is read.
//   gpuperf  gpuperf_bench, the harness's own (gpuperf_suite.h)
//   gbench   a Google Benchmark binary (--benchmark_out; gbench_suite.h)
//   nvbench  an nvbench binary (--jsonbin; nvbench_suite.h)

#include <memory>
#include <string>
#include <vector>

#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

enum class SuiteFormat { kGpuperf, kGbench, kNvbench };

// "gpuperf", "gbench", "nvbench".
const char* format_name(SuiteFormat format);

// The format a --format value names; DriverStop (exit 2) for another word.
SuiteFormat parse_suite_format(const std::string& text);

// The suite of that format whose binary is `program`: `family` names a team's suite's benchmarks (its
// suite name), `arguments` go to each of its processes. DriverStop (exit 2) for arguments the suite's kind
// refuses (nvbench_suite.h).
std::unique_ptr<Suite> make_suite(SuiteFormat format, const std::string& program, const std::string& family = "",
                                  const std::vector<std::string>& arguments = {});

}  // namespace gpuperf::gate::driver
