#pragma once
// A team's Google Benchmark binary as a suite (perf_gate run/ab-run --format gbench). Each timing process
// runs it with --benchmark_out=FILE --benchmark_out_format=json --benchmark_repetitions=N (and the team's
// own arguments before them); its runs are read as the suite's family (gate/inputs/gbench_results.h,
// names by formats/foreign_names.h). What our own suite does beside timing, it cannot:
// - no checking or fingerprint pass: the suite's correctness is its team's own tests, and the reports say
//   "fingerprints not captured (a Google Benchmark suite)";
// - no memory canary: the ceiling family is ours;
// - no --time-filter: Google Benchmark can only select what a process runs (--benchmark_filter), so a
//   re-measurement runs the ambiguous benchmarks alone. A case's time can depend on what ran before it in
//   its process (stored_run.h), but a binary of another tool offers no way to set up a case untimed: this
//   is the closest it allows, and both arms of an A/B comparison are re-measured alike.
// The GPU is the driver's to identify (nvml_gpu.h): the binary writes none.

#include <optional>
#include <string>
#include <vector>

#include "formats/gpu_identity.h"
#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

class GbenchSuite : public Suite {
 public:
  // `family`: the suite's name, the family of its benchmarks' names; `arguments`: given to each process
  // before the driver's own (the team's, say --benchmark_min_time=0.2s).
  GbenchSuite(std::string program, std::string family, std::vector<std::string> arguments)
      : program_(std::move(program)), family_(std::move(family)), arguments_(std::move(arguments)) {}

  std::string program() const override { return program_; }
  SuiteAbilities abilities() const override { return {false, false}; }
  SuiteGpu gpu() override;
  ProcessOutcome check(const std::string& filter, const EnvironmentAdditions& environment,
                       const ProcessFiles& files) override;
  ProcessOutcome time(const TimingRequest& request, const ProcessFiles& files) override;
  bool supports_time_filter() override { return false; }
  ResultsFile read_results(const std::string& path) const override;
  std::optional<ResultsFile> read_fingerprints(const std::string& path) const override;

 private:
  const formats::GpuIdentity& identity() const;

  std::string program_;
  std::string family_;
  std::vector<std::string> arguments_;
  mutable std::optional<formats::GpuIdentity> identity_;  // read once, by gpu() or the first results read
};

// The --benchmark_filter that selects exactly the runs `names` (ours, of the suite `family`) came from:
// "^(BM_saxpy/1024|BM_copy<float>/4096)(/|$)". DriverStop (exit 2) for a name of another family or one the
// mapping cannot have written.
std::string gbench_filter(const std::vector<std::string>& names, const std::string& family);

}  // namespace gpuperf::gate::driver
