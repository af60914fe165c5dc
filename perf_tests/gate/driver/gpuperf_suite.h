#pragma once
// gpuperf_bench (perf_tests/harness/bench_main.cpp) as a suite: --gpu-info names the GPU, --list-cases its cases,
// --fingerprint-only checks and captures, --no-reference-check times only, --time-filter times a subset
// of the cases a process sets up, and each process writes Google Benchmark JSON with the harness's
// context and fingerprints (--benchmark_out).

#include <string>

#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

class GpuperfSuite : public Suite {
 public:
  explicit GpuperfSuite(std::string program) : program_(std::move(program)) {}

  std::string program() const override { return program_; }
  SuiteGpu gpu() override;
  ProcessOutcome check(const std::string& filter, const EnvironmentAdditions& environment,
                       const ProcessFiles& files) override;
  ProcessOutcome time(const TimingRequest& request, const ProcessFiles& files, std::ostream& err) override;
  bool supports_time_filter() override;
  std::optional<formats::CaseListing> case_listing() override;  // --list-cases
  ResultsFile read_results(const std::string& path) const override;
  std::optional<ResultsFile> read_fingerprints(const std::string& path) const override;

 private:
  std::string program_;
};

// The GPU described by the JSON `--gpu-info` printed; `source` names it. InputError where it is not that
// JSON object, or its slug breaks the name rule (it names a file).
SuiteGpu parse_gpu_info(const std::string& text, const std::string& source);

}  // namespace gpuperf::gate::driver
