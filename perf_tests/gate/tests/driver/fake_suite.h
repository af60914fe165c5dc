#pragma once
// A suite for the driver's tests (gate/driver/suite.h) that starts no process: each timing process it is
// asked for becomes results in memory, two benchmarks (fake/short/n:1 at 20 us, fake/long/n:2 at 2000 us)
// and the memory canary's ceiling/device_copy/n:1 at 500 us where the filters select them, each process
// at its own small offset; it records every call, as fake_bench.sh's FAKE_ARGS_LOG does.

#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "formats/tests/launch_fixture.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/suite.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::testing {

inline constexpr const char* kFakeShort = "fake/short/n:1";
inline constexpr const char* kFakeLong = "fake/long/n:2";
inline constexpr const char* kFakeCanary = "ceiling/device_copy/n:1";

class FakeSuite : public driver::Suite {
 public:
  explicit FakeSuite(std::string program = "fake_bench") : program_(std::move(program)) {}

  // What the fake does.
  double slowdown_pct = 0.0;  // every sample this much slower [percent]
  bool has_gpu = true;        // false: gpu() says there is none (77)
  int crash_at_process = 0;   // the n-th process (checking or timing) dies of SIGSEGV; 0: none
  int fail_at_process = 0;    // the n-th process exits 1; 0: none
  bool time_filter_supported = true;
  std::optional<ResultsFile> fingerprints;  // what a checking process captured; nullopt: nothing
  double process_sd = 0.0005;               // the relative spread of process offsets
  driver::SuiteAbilities suite_abilities;   // {false, false}: a team's suite (no checking, no canary)
  bool times_canary = true;  // false: no ceiling/device_copy, as a team's suite of the one family "fake"
  std::set<std::string> skips;  // benchmarks every process reports skipped by the suite itself
  // What case_listing() gives ("list" in calls); nullopt: a suite that cannot list its cases.
  std::optional<formats::CaseListing> listing;

  // Every call, one a line: "gpu", "list", "check FILTER", "time [check] FILTER [time=T] reps=R [alone=N]",
  // "probe".
  std::vector<std::string> calls;
  // What each process was given on top of the environment, in call order.
  std::vector<driver::EnvironmentAdditions> environments;

  std::string program() const override { return program_; }
  driver::SuiteAbilities abilities() const override { return suite_abilities; }

  driver::SuiteGpu gpu() override {
    calls.emplace_back("gpu");
    if (!has_gpu) throw driver::DriverStop(formats::kExitNotJudged, "no CUDA device");
    return {"NVIDIA H200", kH200, "GPU-driver-test"};
  }

  driver::ProcessOutcome check(const std::string& filter, const driver::EnvironmentAdditions& environment,
                               const driver::ProcessFiles& /*files*/) override {
    calls.push_back("check " + filter);
    environments.push_back(environment);
    return outcome_of_next_process();
  }

  driver::ProcessOutcome time(const driver::TimingRequest& request, const driver::ProcessFiles& files,
                              std::ostream& /*err*/) override {
    calls.push_back(std::string("time ") + (request.check_references ? "check " : "") + request.filter +
                    (request.time_filter.empty() ? "" : " time=" + request.time_filter) +
                    " reps=" + std::to_string(request.repetitions) +
                    (request.only_names.empty() ? "" : " alone=" + std::to_string(request.only_names.size())));
    environments.push_back(request.environment);
    const driver::ProcessOutcome outcome = outcome_of_next_process();
    if (outcome.succeeded()) written_[files.results] = process_results(request, files.results);
    return outcome;
  }

  std::optional<formats::CaseListing> case_listing() override {
    calls.emplace_back("list");
    return listing;
  }
  // The three benchmarks in this (registry) order: the canary, fake/long, fake/short.
  static formats::CaseListing listing_of_all() {
    formats::CaseListing all;
    for (const char* name : {kFakeCanary, kFakeLong, kFakeShort}) {
      formats::ListedCase listed;
      listed.name = name;
      listed.family = std::string(name).substr(0, std::string(name).find('/'));
      listed.unit = "us";
      all.cases.push_back(listed);
    }
    return all;
  }
  bool supports_time_filter() override {
    calls.emplace_back("probe");
    return time_filter_supported;
  }

  ResultsFile read_results(const std::string& path) const override { return written_.at(path); }

  std::optional<ResultsFile> read_fingerprints(const std::string& /*path*/) const override { return fingerprints; }

  // Results of `processes` clean processes of the two benchmarks (and the canary): a baseline's.
  static std::vector<ResultsFile> clean_processes(int processes) {
    FakeSuite suite;
    std::vector<ResultsFile> files;
    for (int i = 0; i < processes; ++i) {
      files.push_back(suite.process_results({"^(fake|ceiling)/", "", 30, false, {}, {}}, "p" + std::to_string(i)));
    }
    return files;
  }

 private:
  driver::ProcessOutcome outcome_of_next_process() {
    ++processes_;
    if (processes_ == crash_at_process) return {true, 11};
    if (processes_ == fail_at_process) return {false, 1};
    return {false, 0};
  }

  ResultsFile process_results(const driver::TimingRequest& request, const std::string& source) {
    ResultsFile file = results_for(kH200, source);
    file.gpu.uuid = "GPU-driver-test";
    file.gpu.driver = "580.0";
    file.gpu.cuda_runtime = "13.0";
    const std::regex filter(request.filter);
    const std::optional<std::regex> time_filter =
        request.time_filter.empty() ? std::nullopt : std::optional<std::regex>(std::regex(request.time_filter));
    const double scale = 1.0 + slowdown_pct / 100.0;
    ++seed_;
    const double offset = noisy_samples(1.0, process_sd, 1, seed_).front();
    for (const auto& [name, center] :
         std::map<std::string, double>{{kFakeShort, 20.0}, {kFakeLong, 2000.0}, {kFakeCanary, 500.0}}) {
      if (!std::regex_search(name, filter) || (time_filter && !std::regex_search(name, *time_filter))) continue;
      if (!times_canary && name == kFakeCanary) continue;
      if (skips.count(name) != 0) {
        BenchmarkSamples skipped;
        skipped.skipped = true;
        skipped.skip_message = "needs two GPUs";
        skipped.repetitions = 1;
        file.benchmarks[name] = skipped;
        continue;
      }
      file.benchmarks[name] =
          time_samples(noisy_samples(center * scale * offset, 0.001, request.repetitions, seed_ * 100 + name.size()));
    }
    return file;
  }

  std::string program_;
  int processes_ = 0;
  std::uint64_t seed_ = 0;
  std::map<std::string, ResultsFile> written_;
};

// A fingerprint-only checking process's results (FakeSuite::fingerprints): each benchmark's one kernel,
// fake/long's with `long_sass` as its machine code.
inline ResultsFile fake_fingerprints(const std::string& long_sass) {
  ResultsFile file = FakeSuite::clean_processes(1).front();
  file.benchmarks.clear();
  formats::Fingerprint short_code;
  short_code.capture_status = formats::kCapturedByCupti;
  short_code.kernels = {
      formats::testing::launch_of("short_kernel", "short_kernel", {8, 1, 1}, {256, 1, 1}, 32, "00000000000000bb")};
  formats::Fingerprint long_code = short_code;
  long_code.kernels = {
      formats::testing::launch_of("long_kernel", "long_kernel", {8, 1, 1}, {256, 1, 1}, 32, long_sass)};
  file.fingerprints = {{kFakeShort, short_code}, {kFakeLong, long_code}};
  return file;
}

}  // namespace gpuperf::gate::testing
