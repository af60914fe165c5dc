// perf_gate run --record's procedure (gate/driver/suite_record.h) on a fake suite (fake_suite.h): our own
// suite recorded whole (a checking process first, then the timing processes with no reference check, its
// fingerprints kept), a team's suite without the checking process; what a failure leaves (nothing), what
// the previous file keeps (its hand-set tolerances); and the options perf_gate run --record refuses.
// The scenarios of scripts/update_baseline.sh's procedure that need no process.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "gate/driver/suite_record.h"
#include "gate/inputs/baseline.h"
#include "gate/recording/record.h"
#include "gate/tests/driver/fake_suite.h"
#include "gate/tests/driver/lock_folder_test.h"
#include "gate/tests/support/cli_run.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::driver {
namespace {

using testing::file_text;
using testing::fake_fingerprints;
using testing::FakeSuite;
using testing::kFakeCanary;
using testing::kFakeLong;
using testing::kFakeShort;

class SuiteRecordTest : public testing::LockFolderTest {
 protected:
  RecordRunOptions options() const {
    RecordRunOptions o;
    o.baselines = path("baselines");
    o.out = path("out");
    o.processes = 3;
    o.commit = "abc";
    return o;
  }

  std::string target() const { return path("baselines/nvidia-h200.json"); }

  int record(FakeSuite& suite, const RecordRunOptions& o) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = record_suite_baseline(o, suite, out, err);
    out_ = out.str();
    err_ = err.str();
    return code;
  }

  // A previous baseline of the fake suite whose fake/long has a tolerance written by hand.
  void write_previous_with_hand_set_tolerance(double tolerance_pct) {
    std::filesystem::create_directories(path("baselines"));
    RecordOptions options;
    options.commit = "old";
    Baseline previous = record_baseline(FakeSuite::clean_processes(3), nullptr, options);
    previous.benchmarks.at(kFakeLong).tolerance_pct = tolerance_pct;
    std::ofstream(target()) << baseline_to_text(previous);
  }

  bool found_in_err(const std::string& text) const { return err_.find(text) != std::string::npos; }

  std::string out_;
  std::string err_;
};

std::vector<std::string> calls_of_our_suite(int processes) {
  std::vector<std::string> calls = {"gpu", "check ."};
  for (int i = 0; i < processes; ++i) calls.emplace_back("time . reps=30");
  return calls;
}

TEST_F(SuiteRecordTest, OurSuiteIsCheckedOnceThenTimedWholeWithoutReferenceChecks) {
  FakeSuite suite;
  suite.fingerprints = fake_fingerprints("00000000000000aa");
  ASSERT_EQ(record(suite, options()), formats::kExitPass) << err_;
  EXPECT_EQ(suite.calls, calls_of_our_suite(3)) << "'time' without 'check': no reference check";
  EXPECT_EQ(out_, "wrote " + target() + ": 3 benchmarks of NVIDIA H200 (nvidia-h200), 3 runs, commit abc\n");
  EXPECT_TRUE(found_in_err("[perf_gate] checking every case and capturing its fingerprint on NVIDIA H200\n")) << err_;
  EXPECT_TRUE(found_in_err("[perf_gate] run 3 of 3 on NVIDIA H200\n")) << err_;
  EXPECT_TRUE(found_in_err("[perf_gate] review the changes above, then commit " + target())) << err_;
  for (const EnvironmentAdditions& environment : suite.environments) {
    EXPECT_EQ(environment, (EnvironmentAdditions{{"GPUPERF_GIT_COMMIT", "abc"}}));
  }
  EXPECT_NO_THROW(suite.read_results(path("out/record.run3.json"))) << "the runs' files are named record.runN";

  const Baseline written = load_baseline(target());
  EXPECT_EQ(written.recorded.runs, 3) << "the checking process counts as no run";
  EXPECT_EQ(written.recorded.commit, "abc");
  ASSERT_TRUE(written.benchmarks.count(kFakeCanary)) << "every family, the canary's too";
  EXPECT_EQ(written.benchmarks.at(kFakeCanary).process_medians.size(), 3u);
  ASSERT_TRUE(written.benchmarks.at(kFakeLong).fingerprint.has_value()) << "the fingerprints are kept";
  EXPECT_EQ(written.benchmarks.at(kFakeLong).fingerprint->kernels.front().sass_hash, "00000000000000aa");
  EXPECT_TRUE(written.benchmarks.at(kFakeShort).fingerprint.has_value());
}

TEST_F(SuiteRecordTest, WithoutAFingerprintTheBaselineHoldsNoneAndSaysSo) {
  FakeSuite suite;  // captures nothing, as under another profiler
  ASSERT_EQ(record(suite, options()), formats::kExitPass) << err_;
  EXPECT_TRUE(found_in_err("[perf_gate] no fingerprint captured (" + path("out/record.fingerprints.log") +
                           "): the baseline will hold none\n"))
      << err_;
  const Baseline written = load_baseline(target());
  EXPECT_FALSE(written.benchmarks.at(kFakeLong).fingerprint.has_value());
  EXPECT_EQ(written.recorded.runs, 3);
}

TEST_F(SuiteRecordTest, ATeamsSuiteHasNoCheckingProcessAndKeepsItsFileNames) {
  FakeSuite suite;
  suite.suite_abilities = {false, false};
  RecordRunOptions o = options();
  o.family = "fake";
  o.processes = 2;
  o.repetitions = 7;
  ASSERT_EQ(record(suite, o), formats::kExitPass) << err_;
  EXPECT_EQ(suite.calls, (std::vector<std::string>{"gpu", "time . reps=7", "time . reps=7"}));
  EXPECT_NO_THROW(suite.read_results(path("out/fake.record2.json")));
  EXPECT_FALSE(found_in_err("fingerprint")) << err_;
}

TEST_F(SuiteRecordTest, AFailedOrCrashedCheckWritesNothingAndTimesNothing) {
  write_previous_with_hand_set_tolerance(7.5);
  const std::string before = file_text(target());
  FakeSuite failing;
  failing.fail_at_process = 1;
  EXPECT_EQ(record(failing, options()), formats::kExitInvalidInput);
  EXPECT_TRUE(found_in_err("error: checking the cases failed (exit 1); log: " + path("out/record.fingerprints.log") +
                           "; nothing written to " + target() + "\n"))
      << err_;
  EXPECT_EQ(failing.calls, (std::vector<std::string>{"gpu", "check ."}));
  EXPECT_EQ(file_text(target()), before);

  FakeSuite crashing;
  crashing.crash_at_process = 1;
  EXPECT_EQ(record(crashing, options()), formats::kExitInvalidInput);
  EXPECT_TRUE(found_in_err("error: the benchmark binary crashed (signal 11) while checking the cases; log: ")) << err_;
  EXPECT_EQ(file_text(target()), before);
}

TEST_F(SuiteRecordTest, AFailedOrCrashedRunWritesNothing) {
  FakeSuite crashing;
  crashing.crash_at_process = 3;  // the checking process, run 1, then run 2
  EXPECT_EQ(record(crashing, options()), formats::kExitInvalidInput);
  EXPECT_TRUE(found_in_err("error: the benchmark binary crashed (signal 11) in run 2; log: " +
                           path("out/record.run2.log") + "; nothing written to " + target() + "\n"))
      << err_;
  EXPECT_FALSE(std::filesystem::exists(target())) << "no first baseline from part of the runs";
  EXPECT_EQ(crashing.calls.size(), 4u) << "no process after the crash";

  write_previous_with_hand_set_tolerance(7.5);
  const std::string before = file_text(target());
  FakeSuite failing;
  failing.fail_at_process = 4;
  EXPECT_EQ(record(failing, options()), formats::kExitInvalidInput);
  EXPECT_TRUE(found_in_err("error: the benchmark binary failed (exit 1) in run 3; log: ")) << err_;
  EXPECT_EQ(file_text(target()), before);
}

TEST_F(SuiteRecordTest, ThePreviousFilesHandSetToleranceIsKeptAndWhatMovedPrinted) {
  write_previous_with_hand_set_tolerance(7.5);
  FakeSuite suite;
  suite.slowdown_pct = 5.0;
  ASSERT_EQ(record(suite, options()), formats::kExitPass) << err_;
  EXPECT_NE(out_.find("what moved versus " + target() + " (largest change first):\n"), std::string::npos) << out_;
  EXPECT_NE(out_.find(kFakeLong), std::string::npos) << "a moved benchmark is named: " << out_;
  const Baseline written = load_baseline(target());
  EXPECT_EQ(written.benchmarks.at(kFakeLong).tolerance_pct, 7.5);
  EXPECT_FALSE(written.benchmarks.at(kFakeShort).tolerance_pct.has_value());
  EXPECT_EQ(written.recorded.commit, "abc");
}

// One baseline folder, one file a GPU, shared by our suite's families and teams' suites (gpuperf_add_suite):
// recording one keeps the others' entries as the file held them.
class SharedBaselineTest : public SuiteRecordTest {
 protected:
  static constexpr const char* kTeamEntry = "saxpy_suite/BM_saxpy/1024";

  // The previous file: the fake suite's benchmarks (fake/..., ceiling/...), a team's suite's benchmark with a
  // tolerance set by hand and a fingerprint, and `extra` (a benchmark of the fake family no longer there).
  void write_shared_previous(const std::string& extra = "") {
    std::filesystem::create_directories(path("baselines"));
    RecordOptions options;
    options.commit = "old";
    std::vector<ResultsFile> runs = FakeSuite::clean_processes(3);
    runs.push_back(fake_fingerprints("00000000000000aa"));
    runs.back().fingerprints[kFakeCanary] = runs.back().fingerprints.at(kFakeLong);
    Baseline previous = record_baseline(runs, nullptr, options);
    previous.benchmarks.at(kFakeCanary).tolerance_pct = 9.25;
    BaselineEntry team = previous.benchmarks.at(kFakeLong);
    team.process_medians = {1.25, 1.5, 1.75};
    team.median = geometric_mean(team.process_medians);
    team.tolerance_pct = 6.5;
    previous.benchmarks.emplace(kTeamEntry, team);
    if (!extra.empty()) previous.benchmarks.emplace(extra, previous.benchmarks.at(kFakeShort));
    std::ofstream(target()) << baseline_to_text(previous);
  }

  // The lines of the file's entry `name`, from its key to its closing brace.
  static std::string entry_text(const std::string& file, const std::string& name) {
    const std::size_t from = file.find("    \"" + name + "\": {\n");
    if (from == std::string::npos) return "";
    return file.substr(from, file.find("\n    }", from) + 6 - from);
  }
};

TEST_F(SharedBaselineTest, RecordingOurSuiteKeepsATeamsSuiteEntriesByteForByte) {
  write_shared_previous();
  const std::string team_before = entry_text(file_text(target()), kTeamEntry);
  ASSERT_NE(team_before.find("\"tolerance_pct\": 6.5"), std::string::npos) << team_before;
  FakeSuite suite;
  suite.slowdown_pct = 5.0;
  ASSERT_EQ(record(suite, options()), formats::kExitPass) << err_;
  EXPECT_EQ(entry_text(file_text(target()), kTeamEntry), team_before) << "another suite's entry as it was";
  EXPECT_NE(out_.find("kept 1 benchmarks of families not recorded here, as they were: saxpy_suite (1)"),
            std::string::npos)
      << out_;
  EXPECT_EQ(out_.find(kTeamEntry), std::string::npos) << "what moved lists the recorded suite's only: " << out_;
  EXPECT_NE(out_.find(kFakeLong), std::string::npos) << out_;
  const Baseline written = load_baseline(target());
  EXPECT_EQ(written.benchmarks.size(), 4u);
  EXPECT_EQ(written.benchmarks.at(kFakeCanary).tolerance_pct, 9.25);
}

TEST_F(SharedBaselineTest, RecordingATeamsSuiteKeepsOurFamiliesAndRemovesOnlyItsOwnGoneBenchmarks) {
  write_shared_previous("fake/gone/n:3");
  const std::string before = file_text(target());
  const std::string canary_before = entry_text(before, kFakeCanary);
  const std::string team_before = entry_text(before, kTeamEntry);
  ASSERT_NE(canary_before.find("\"fingerprint\""), std::string::npos) << "kept with its fingerprint: " << canary_before;
  FakeSuite suite;  // a team's suite named "fake": its benchmarks are fake/...
  suite.suite_abilities = {false, false};
  suite.times_canary = false;
  RecordRunOptions o = options();
  o.family = "fake";
  ASSERT_EQ(record(suite, o), formats::kExitPass) << err_;
  const std::string after = file_text(target());
  EXPECT_EQ(entry_text(after, kFakeCanary), canary_before) << "our family's entry, fingerprint included";
  EXPECT_EQ(entry_text(after, kTeamEntry), team_before) << "another team's suite's entry";
  EXPECT_EQ(entry_text(after, "fake/gone/n:3"), "") << "the recorded suite's gone benchmark is removed";
  EXPECT_NE(out_.find("removed   was"), std::string::npos) << out_;
  EXPECT_NE(out_.find("fake/gone/n:3"), std::string::npos) << out_;
  EXPECT_NE(out_.find("as they were: ceiling (1), saxpy_suite (1)"), std::string::npos) << out_;
  EXPECT_EQ(out_.find(kFakeCanary), std::string::npos) << "what moved: the recorded suite's only: " << out_;
  EXPECT_EQ(load_baseline(target()).benchmarks.size(), 4u);
}

// A benchmark the suite skipped itself is no fault of the GPU: the others are recorded, it is named, and
// its previous entry is kept.
TEST_F(SuiteRecordTest, ABenchmarkTheSuiteSkippedIsLeftOutAndItsPreviousEntryKept) {
  FakeSuite first;
  first.skips = {kFakeShort};
  ASSERT_EQ(record(first, options()), formats::kExitPass) << err_;
  EXPECT_NE(out_.find("left out 1 benchmarks the suite skipped itself (not the GPU's doing; a previous entry is "
                      "kept as it was): fake/short/n:1 (needs two GPUs)"),
            std::string::npos)
      << out_;
  EXPECT_EQ(load_baseline(target()).benchmarks.count(kFakeShort), 0u) << "a first baseline has nothing to keep";

  write_previous_with_hand_set_tolerance(7.5);
  const Baseline previous = load_baseline(target());
  FakeSuite suite;
  suite.skips = {kFakeLong};
  suite.slowdown_pct = 5.0;
  ASSERT_EQ(record(suite, options()), formats::kExitPass) << err_;
  const Baseline written = load_baseline(target());
  ASSERT_EQ(written.benchmarks.count(kFakeLong), 1u);
  EXPECT_EQ(written.benchmarks.at(kFakeLong).process_medians, previous.benchmarks.at(kFakeLong).process_medians);
  EXPECT_EQ(written.benchmarks.at(kFakeLong).tolerance_pct, 7.5);
  EXPECT_NE(written.benchmarks.at(kFakeShort).median, previous.benchmarks.at(kFakeShort).median) << "re-recorded";
  const std::size_t moved = out_.find("what moved");
  ASSERT_NE(moved, std::string::npos) << out_;
  EXPECT_EQ(out_.find(kFakeLong, moved), std::string::npos) << "a skipped benchmark did not move: " << out_;

  FakeSuite skips_all;
  skips_all.skips = {kFakeShort, kFakeLong, kFakeCanary};
  const std::string before = file_text(target());
  EXPECT_EQ(record(skips_all, options()), formats::kExitInvalidInput);
  EXPECT_TRUE(found_in_err("the suite skipped every one of its 3 benchmarks")) << err_;
  EXPECT_EQ(file_text(target()), before);
}

// The previous file is read before anything is timed: a bad one costs seconds, not the recording's minutes.
TEST_F(SuiteRecordTest, ABadPreviousBaselineIsRefusedBeforeAnythingIsTimed) {
  std::filesystem::create_directories(path("baselines"));
  std::ofstream(target()) << "{\"schema_version\": 2, \"gpu\": ";
  FakeSuite suite;
  EXPECT_EQ(record(suite, options()), formats::kExitInvalidInput);
  EXPECT_EQ(suite.calls, std::vector<std::string>{"gpu"}) << "no process run";
  EXPECT_TRUE(found_in_err(target())) << err_;
  EXPECT_TRUE(found_in_err("(nothing written)")) << err_;

  write_previous_with_hand_set_tolerance(7.5);
  std::string text = file_text(target());
  const std::string slug = "\"slug\": \"nvidia-h200\"";
  text.replace(text.find(slug), slug.size(), "\"slug\": \"nvidia-h100\"");
  std::ofstream(target()) << text;
  FakeSuite other;
  EXPECT_EQ(record(other, options()), formats::kExitInvalidInput);
  EXPECT_EQ(other.calls, std::vector<std::string>{"gpu"}) << "no process run";
  EXPECT_TRUE(found_in_err("is the baseline of 'nvidia-h100', but this GPU is 'nvidia-h200'")) << err_;
}

TEST_F(SuiteRecordTest, NoGpuIsSkippedWithNothingRun) {
  FakeSuite suite;
  suite.has_gpu = false;
  EXPECT_EQ(record(suite, options()), formats::kExitNotJudged);
  EXPECT_TRUE(found_in_err("SKIPPED: no CUDA device")) << err_;
  EXPECT_EQ(suite.calls, std::vector<std::string>{"gpu"});
  EXPECT_FALSE(std::filesystem::exists(target()));
}

TEST_F(SuiteRecordTest, WithoutACommitTheBaselinesCheckoutsOrUnknown) {
  RecordRunOptions o = options();
  o.commit = "";  // the scratch folder is no git checkout
  FakeSuite suite;
  ASSERT_EQ(record(suite, o), formats::kExitPass) << err_;
  EXPECT_EQ(load_baseline(target()).recorded.commit, "unknown");
  EXPECT_EQ(suite.environments.front(), (EnvironmentAdditions{{"GPUPERF_GIT_COMMIT", "unknown"}}));
}

// perf_gate run --record refuses, before running anything, a family of our own suite (its baseline holds
// every family) and the options of a perf test.
TEST_F(SuiteRecordTest, RunRecordRefusesAFamilyOfOurSuiteAndATestsOptions) {
  const std::vector<std::string> record_ours = {"run",       "--record", "--bench", path("no_such_bench"),
                                                "--baselines", path("baselines"), "--out", path("out")};
  std::vector<std::string> with_family = record_ours;
  with_family.insert(with_family.end(), {"--family", "reduction"});
  const testing::CliRun family = testing::cli(with_family);
  EXPECT_EQ(family.code, formats::kExitInvalidInput);
  EXPECT_NE(family.err.find("records every family"), std::string::npos) << family.err;
  EXPECT_NE(family.err.find("leave --family out"), std::string::npos) << family.err;

  for (const std::vector<std::string>& option : std::vector<std::vector<std::string>>{
           {"--skip-unchanged"}, {"--strict"}, {"--no-reference-check"}, {"--max-remeasure", "1"}}) {
    std::vector<std::string> args = record_ours;
    args.insert(args.end(), option.begin(), option.end());
    const testing::CliRun run = testing::cli(args);
    EXPECT_EQ(run.code, formats::kExitInvalidInput) << option.front();
    EXPECT_NE(run.err.find(option.front() + " is an option of a perf test"), std::string::npos) << run.err;
  }

  std::vector<std::string> team = record_ours;
  team.insert(team.end(), {"--format", "gbench"});
  const testing::CliRun unnamed = testing::cli(team);
  EXPECT_EQ(unnamed.code, formats::kExitInvalidInput);
  EXPECT_NE(unnamed.err.find("--family"), std::string::npos) << "a team's suite is recorded by its name: "
                                                             << unnamed.err;
  EXPECT_FALSE(std::filesystem::exists(path("out"))) << "nothing run";
}

}  // namespace
}  // namespace gpuperf::gate::driver
