#pragma once
// perf_gate run in-process, as a test calls it: the exit code and what it wrote to stdout and stderr.

#include <sstream>
#include <string>
#include <vector>

#include "gate/cli/cli.h"

namespace gpuperf::gate::testing {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

// `args` without the program name: cli({"compare", "--baseline", ...}).
inline CliRun cli(const std::vector<std::string>& args) {
  std::ostringstream out;
  std::ostringstream err;
  const int code = run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace gpuperf::gate::testing
