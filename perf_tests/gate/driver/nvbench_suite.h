#pragma once
// A team's nvbench binary as a suite (perf_gate run/ab-run --format nvbench). Each timing process runs it
// as
//   <binary> --devices 0 --min-samples N <the team's arguments> [selection] --jsonbin FILE
// and its states are read as the suite's family (gate/inputs/nvbench_results.h: every cold GPU sample time
// nvbench took, from the files --jsonbin writes beside FILE; names by formats/foreign_names.h).
// - --devices 0: the GPU CUDA shows first, the one the driver identified and locked (nvml_gpu.h); nvbench
//   runs every visible GPU otherwise, and a file of several GPUs' states is no one GPU's results.
// - --min-samples N: the driver's repetitions. nvbench stops a state at its own criteria beyond that (its
//   --max-noise, --min-time, --timeout, which the team's arguments may set); the process's median over
//   its samples is what the gate uses, the process being the unit.
// - A re-measurement selects each ambiguous state with --benchmark NAME and an --axis NAME=VALUE per axis
//   (nvbench's docs/cli_help.md: the same benchmark may be given several times); a value nvbench's axis
//   syntax cannot hold exactly (one with '[', ']', ',' or ':') selects its whole benchmark instead.
// The team's arguments must not select benchmarks or devices or name output (--benchmark, --devices,
// --json...): the driver owns those, and a benchmark selected twice would write two states of one name.
// What it shares with any team's suite (the GPU from NVML, no checking pass, no canary): team_suite.h.

#include <string>
#include <vector>

#include "gate/driver/team_suite.h"

namespace gpuperf::gate::driver {

class NvbenchSuite : public TeamSuite {
 public:
  // DriverStop (exit 2) where `arguments` hold an option the driver owns.
  NvbenchSuite(std::string program, std::string family, std::vector<std::string> arguments);

  ProcessOutcome time(const TimingRequest& request, const ProcessFiles& files, std::ostream& err) override;
  ResultsFile read_results(const std::string& path) const override;

 protected:
  std::vector<std::string> capture_argv(const std::string& name) const override;
};

// The nvbench arguments that select exactly the states `names` (ours, of the suite `family`) came from:
// {"--benchmark", "copy_sweep", "--axis", "BlockSize=64", "--axis", "T=I32", ...}. DriverStop (exit 2) for
// a name of another family or one the mapping cannot have written.
std::vector<std::string> nvbench_selection(const std::vector<std::string>& names, const std::string& family);

}  // namespace gpuperf::gate::driver
