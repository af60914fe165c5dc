#pragma once
// What a team's suite, of any tool's format, shares as the driver sees it (gbench_suite.h, nvbench_suite.h):
// - its name is the family of its benchmarks' names (formats/foreign_names.h), and the team's own
//   arguments go to each of its processes;
// - the GPU is the driver's to identify (nvml_gpu.h), once, before any process runs: the lock is taken by
//   the GPU's UUID, which no tool's output holds;
// - no checking pass: the suite's correctness is its team's own tests;
// - its fingerprints captured apart, one benchmark a process with the capture library injected
//   (team_fingerprints.h), where the library is found; where not, the reports say "fingerprints not
//   captured (a Google Benchmark suite, and perf_gate found no capture library ...)";
// - no memory canary: the ceiling family is ours;
// - no --time-filter: another tool can only select what a process runs, so a re-measurement runs the
//   ambiguous benchmarks alone. A case's time can depend on what ran before it in its process
//   (stored_run.h), but a binary of another tool offers no way to set up a case untimed: this is the
//   closest it allows, and both arms of an A/B comparison are re-measured alike.

#include <optional>
#include <string>
#include <vector>

#include "formats/gpu_identity.h"
#include "gate/driver/process_progress.h"
#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

class TeamSuite : public Suite {
 public:
  // `family`: the suite's name, the family of its benchmarks' names; `arguments`: given to each process
  // before the driver's own.
  TeamSuite(std::string program, std::string family, std::vector<std::string> arguments)
      : program_(std::move(program)), family_(std::move(family)), arguments_(std::move(arguments)) {}

  std::string program() const override { return program_; }
  SuiteAbilities abilities() const override { return {false, false, !fingerprint_library_.empty()}; }
  SuiteGpu gpu() override;
  ProcessOutcome check(const std::string& filter, const EnvironmentAdditions& environment,
                       const ProcessFiles& files) override;
  bool supports_time_filter() override { return false; }
  std::optional<ResultsFile> read_fingerprints(const std::string& path) const override;

  // The capture library (team_fingerprints.h, find_fingerprint_library); "" for none: then nothing of the
  // suite's code is known, and its reports say why.
  void set_fingerprint_library(std::string path) { fingerprint_library_ = std::move(path); }
  std::optional<ResultsFile> capture_fingerprints(const std::vector<std::string>& names, const std::string& prefix,
                                                  std::ostream& err) override;

 protected:
  // The GPU NVML names; DriverStop: exit 77 where there is none, 2 where NVML cannot say.
  const formats::GpuIdentity& identity() const;

  // The command line of a process that runs the benchmark `name` (ours) once, for its fingerprint.
  virtual std::vector<std::string> capture_argv(const std::string& name) const = 0;

  // `file`, a timing process's results, saying why it holds no fingerprint: `tool` ("a Google Benchmark
  // suite"), and that no capture library was found where none was; nothing where the suite's fingerprints
  // are captured apart.
  ResultsFile with_fingerprint_reason(ResultsFile file, const std::string& tool) const;

  // Says `text` on `err` as a note the first time a timing process is run ("" says nothing): the pace the
  // driver chose for the suite (suite_pace.h), once a run.
  void note_pace_once(const std::string& text, std::ostream& err);

  // Runs a timing process with its progress on `err`, read from its log by `reader` (process_progress.h);
  // `selection` ("" the whole suite) and `known_total` as ProcessProgress::run takes them.
  ProcessOutcome run_with_progress(const ProcessSpec& spec, ProcessProgress::LogReader reader,
                                   const std::string& selection, std::optional<int> known_total, std::ostream& err);

  const std::string program_;
  const std::string family_;
  const std::vector<std::string> arguments_;

 private:
  std::string fingerprint_library_;
  mutable std::optional<formats::GpuIdentity> identity_;  // read once, by gpu() or the first results read
  bool pace_noted_ = false;
  std::optional<ProcessProgress> progress_;  // made by the first timing process
};

}  // namespace gpuperf::gate::driver
