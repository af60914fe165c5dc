#pragma once
// One command of perf_gate as the command table (cli.cpp) declares it. The usage, the per-command help,
// the parser, the check of outputs against inputs and the dispatch all read this one table, so that a
// command or option cannot be added to one and missed in another.

#include <vector>

#include "gate/cli/arguments.h"
#include "gate/cli/commands.h"

namespace gpuperf::gate::cli {

struct Command {
  const char* name;     // "compare"
  Run run;              // the function that runs it (commands.h)
  const char* purpose;  // one line for `perf_gate --help`: what it does, lower case, no full stop
  const char* usage;    // its paragraph of the usage: the synopsis, then what it does
  std::vector<OptionSpec> options;
};

}  // namespace gpuperf::gate::cli
