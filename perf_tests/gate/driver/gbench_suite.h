#pragma once
// A team's Google Benchmark binary as a suite (perf_gate run/ab-run --format gbench). Each timing process
// runs it with --benchmark_out=FILE --benchmark_out_format=json --benchmark_repetitions=N (and the team's
// own arguments before them); its runs are read as the suite's family (gate/inputs/gbench_results.h,
// names by formats/foreign_names.h). A re-measurement selects the ambiguous runs with --benchmark_filter.
// What it shares with any team's suite (the GPU from NVML, no checking pass, no canary): team_suite.h.

#include <string>
#include <vector>

#include "gate/driver/team_suite.h"

namespace gpuperf::gate::driver {

class GbenchSuite : public TeamSuite {
 public:
  using TeamSuite::TeamSuite;

  ProcessOutcome time(const TimingRequest& request, const ProcessFiles& files, std::ostream& err) override;
  ResultsFile read_results(const std::string& path) const override;

 protected:
  std::vector<std::string> capture_argv(const std::string& name) const override;
};

// The --benchmark_filter that selects exactly the runs `names` (ours, of the suite `family`) came from,
// whatever run settings Google Benchmark wrote in their full names (benchmark_filters.h, gbench_runs_filter):
// "^(BM_saxpy/1024|BM_copy<float>/4096)(/(min_time:[^/]*|...|process_time))*$". DriverStop (exit 2) for a name of another family or one the
// mapping cannot have written.
std::string gbench_filter(const std::vector<std::string>& names, const std::string& family);

}  // namespace gpuperf::gate::driver
