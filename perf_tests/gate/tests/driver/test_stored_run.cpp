// perf_gate run's procedure (gate/driver/stored_run.h) on a fake suite (fake_suite.h): which processes it
// asks for, in what order and with which filters, how it judges between looks, and how it ends; the
// scenarios of scripts/tests/test_perf_test.sh that need no process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/exit_codes.h"
#include "gate/driver/looks.h"
#include "gate/driver/stored_run.h"
#include "gate/inputs/baseline.h"
#include "gate/phases/phase_files.h"
#include "gate/recording/record.h"
#include "gate/tests/driver/fake_suite.h"
#include "gate/tests/driver/lock_folder_test.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::driver {
namespace {

using testing::file_text;
using testing::fake_fingerprints;
using testing::FakeSuite;
using testing::kFakeLong;
using testing::kFakeShort;

// A scratch folder with a baseline of the fake suite in baselines/, the lock folder (under TMPDIR)
// inside it for the test's time.
class StoredRunTest : public testing::LockFolderTest {
 protected:
  void SetUp() override {
    LockFolderTest::SetUp();
    std::filesystem::create_directories(path("baselines"));
  }

  // A baseline of 10 clean processes, tolerance 3% (the fingerprints of `fingerprints`, where given).
  void record_baseline_file(const std::optional<ResultsFile>& fingerprints = std::nullopt) {
    std::vector<ResultsFile> runs = FakeSuite::clean_processes(10);
    if (fingerprints) runs.push_back(*fingerprints);
    RecordOptions options;
    options.default_tolerance_pct = 3.0;
    options.same_gpu_tolerance_pct = 3.0;
    options.commit = "abc";
    std::ofstream(path("baselines/nvidia-h200.json")) << baseline_to_text(record_baseline(runs, nullptr, options));
  }

  StoredRunOptions options() const {
    StoredRunOptions o;
    o.family = "fake";
    o.baselines = path("baselines");
    o.out = path("out");
    o.git_commit = "abc";
    o.diagnosis = false;
    return o;
  }

  int run(FakeSuite& suite, const StoredRunOptions& o) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = run_against_baseline(o, suite, out, err);
    out_ = out.str();
    err_ = err.str();
    return code;
  }

  // The benchmarks a verdict file judged.
  std::set<std::string> judged_in(const std::string& verdict_file) const {
    std::set<std::string> names;
    const nlohmann::json verdicts = nlohmann::json::parse(file_text(path(verdict_file)));
    for (const auto& b : verdicts.at("benchmarks")) {
      names.insert(b["name"].get<std::string>());
    }
    return names;
  }

  std::vector<std::string> phase_names() const {
    std::vector<std::string> names;
    for (const phases::Phase& phase :
         phases::parse_phase_file(file_text(path("out/phases/perf_phases.fake.json")), "phases").phases) {
      names.push_back(phase.name);
    }
    return names;
  }

  std::string out_;
  std::string err_;
};

const std::string kFirstLook = "^(fake|ceiling)/";

TEST_F(StoredRunTest, NoGpuIsSkipped) {
  FakeSuite suite;
  suite.has_gpu = false;
  EXPECT_EQ(run(suite, options()), formats::kExitNotJudged);
  EXPECT_NE(err_.find("SKIPPED: no CUDA device"), std::string::npos) << err_;
}

TEST_F(StoredRunTest, AGpuWithoutBaselineIsSkippedOrWithStrictFails) {
  FakeSuite suite;
  EXPECT_EQ(run(suite, options()), formats::kExitNotJudged);
  EXPECT_NE(
      out_.find("SKIPPED: no baseline for this GPU (NVIDIA H200): expected " + path("baselines/nvidia-h200.json")),
      std::string::npos)
      << out_;
  StoredRunOptions strict = options();
  strict.strict = true;
  EXPECT_EQ(run(suite, strict), formats::kExitInvalidInput);
  EXPECT_NE(err_.find("error: no baseline for this GPU"), std::string::npos) << err_;
  EXPECT_EQ(suite.calls, (std::vector<std::string>{"gpu", "gpu"})) << "nothing is run without a baseline";
}

TEST_F(StoredRunTest, ACleanRunChecksThenTimesThreeProcessesWithTheCanary) {
  record_baseline_file();
  FakeSuite suite;
  EXPECT_EQ(run(suite, options()), formats::kExitPass) << out_ << err_;
  EXPECT_EQ(suite.calls,
            (std::vector<std::string>{"gpu", "check ^fake/", "time " + kFirstLook + " reps=30",
                                      "time " + kFirstLook + " reps=30", "time " + kFirstLook + " reps=30"}));
  EXPECT_NE(out_.find("report: " + path("out/fake.md")), std::string::npos) << out_;
  EXPECT_NE(err_.find("captured no fingerprint"), std::string::npos) << "the fake captures none: " << err_;
  EXPECT_TRUE(std::filesystem::exists(path("out/fake.verdict.json")));
  EXPECT_EQ(phase_names(), (std::vector<std::string>{"lock_wait", "checking", "first_look"}));
}

TEST_F(StoredRunTest, EveryProcessIsToldTheBuildsCommit) {
  record_baseline_file();
  FakeSuite given;
  run(given, options());
  ASSERT_EQ(given.environments.size(), 4u);
  for (const EnvironmentAdditions& environment : given.environments) {
    EXPECT_EQ(environment, (EnvironmentAdditions{{"GPUPERF_GIT_COMMIT", "abc"}}));
  }
  // Not given: the baselines' checkout's, none here (not a git checkout).
  StoredRunOptions o = options();
  o.git_commit = std::nullopt;
  FakeSuite found;
  run(found, o);
  ASSERT_FALSE(found.environments.empty());
  EXPECT_EQ(found.environments.front(), (EnvironmentAdditions{{"GPUPERF_GIT_COMMIT", ""}}));
}

TEST_F(StoredRunTest, OptionsShapeTheProcesses) {
  record_baseline_file();
  FakeSuite suite;
  StoredRunOptions o = options();
  o.check_references = false;
  o.canary = false;
  o.processes = 2;
  o.repetitions = 7;
  EXPECT_EQ(run(suite, o), formats::kExitPass) << out_ << err_;
  EXPECT_EQ(suite.calls, (std::vector<std::string>{"gpu", "time ^fake/ reps=7", "time ^fake/ reps=7"}));
}

TEST_F(StoredRunTest, ASlowdownFailsWithASlowLine) {
  record_baseline_file();
  FakeSuite suite;
  suite.slowdown_pct = 10.0;
  EXPECT_EQ(run(suite, options()), formats::kExitRegression);
  EXPECT_NE(out_.find("SLOW"), std::string::npos) << out_;
  EXPECT_NE(out_.find(kFakeLong), std::string::npos) << out_;
}

TEST_F(StoredRunTest, AmbiguousBenchmarksAreRemeasuredWithinTheLooksBudget) {
  record_baseline_file();
  FakeSuite suite;
  suite.slowdown_pct = 3.0;  // at the tolerance: ambiguous
  StoredRunOptions o = options();
  o.max_remeasure = 2;
  run(suite, o);
  ASSERT_NE(err_.find("re-measuring"), std::string::npos) << out_ << err_;
  const std::string remeasure =
      "time " + kFirstLook + " time=^(" + std::string(kFakeLong) + "|" + kFakeShort + ")(/|$) reps=30";
  int timed = 0;
  int remeasured = 0;
  for (const std::string& call : suite.calls) {
    timed += call.rfind("time ", 0) == 0 ? 1 : 0;
    remeasured += call == remeasure ? 1 : 0;
  }
  EXPECT_EQ(timed, 3 + remeasured) << "re-measurements keep the first look's filter and time the ambiguous ones";
  EXPECT_GE(remeasured, 3);
  EXPECT_LE(timed, 3 * looks_budget(o.max_remeasure)) << "never past the budget";
  EXPECT_NE(err_.find("attempt 1 of 2"), std::string::npos) << err_;
  const std::vector<std::string> names = phase_names();
  EXPECT_EQ(names.size(), 3 + static_cast<std::size_t>(remeasured / 3));
  EXPECT_EQ(names.back(), "remeasure");
  // Rendered once, after the last look: one summary line, one report named.
  std::size_t summaries = 0;
  for (std::size_t at = out_.find("perf_gate compare: "); at != std::string::npos;
       at = out_.find("perf_gate compare: ", at + 1)) {
    ++summaries;
  }
  EXPECT_EQ(summaries, 1u) << out_;
}

// The same-code ledger counts the run's verdicts on unchanged code before the reports are written, and
// its count is rendered in them with the verdicts: no report is rewritten after it was written.
TEST_F(StoredRunTest, TheLedgersCountIsRenderedInTheReportsOfTheRun) {
  record_baseline_file(fake_fingerprints("00000000000000aa"));
  FakeSuite suite;
  suite.fingerprints = fake_fingerprints("00000000000000aa");
  StoredRunOptions o = options();
  o.same_code_ledger = path("ledger.json");
  EXPECT_EQ(run(suite, o), formats::kExitPass) << out_ << err_;
  const std::string line = "same code on this GPU (NVIDIA H200, against the baseline), 1 report since";
  EXPECT_NE(out_.find(line), std::string::npos) << out_;
  EXPECT_NE(file_text(path("out/fake.md")).find("\n" + line), std::string::npos);
  const nlohmann::json verdict = nlohmann::json::parse(file_text(path("out/fake.verdict.json")));
  EXPECT_EQ(verdict.at("same_code_ledger").at("reports"), 1);
  EXPECT_EQ(verdict.at("same_code_ledger").at("verdicts").at("SAME"), 2) << verdict.dump();
  EXPECT_TRUE(std::filesystem::exists(path("ledger.json")));
}

// A team's suite (--format gbench): no checking process, no canary, and without --time-filter the
// ambiguous benchmarks are re-measured alone, by name.
TEST_F(StoredRunTest, ATeamsSuiteIsTimedAloneWithoutCheckingOrCanary) {
  record_baseline_file();
  FakeSuite suite;
  suite.suite_abilities = {false, false};
  suite.time_filter_supported = false;
  suite.slowdown_pct = 3.0;  // at the tolerance: ambiguous
  StoredRunOptions o = options();
  o.max_remeasure = 1;
  o.skip_unchanged = true;
  run(suite, o);
  ASSERT_NE(err_.find("re-measuring"), std::string::npos) << out_ << err_;
  EXPECT_NE(err_.find("captures no fingerprints: --skip-unchanged times every benchmark"), std::string::npos) << err_;
  const std::string alone = "time ^(" + std::string(kFakeLong) + "|" + kFakeShort + ")(/|$) reps=30 alone=2";
  int first_look = 0;
  int remeasured = 0;
  for (const std::string& call : suite.calls) {
    EXPECT_NE(call.rfind("check", 0), 0u) << "no checking process: " << call;
    first_look += call == "time ^fake/ reps=30" ? 1 : 0;
    remeasured += call == alone ? 1 : 0;
  }
  EXPECT_EQ(first_look, 3) << "the family alone, no canary beside it";
  EXPECT_EQ(remeasured, 3) << "the ambiguous benchmarks alone, named";
}

TEST_F(StoredRunTest, ACrashIsToldApartFromAFailure) {
  record_baseline_file();
  FakeSuite crashing;
  crashing.crash_at_process = 3;  // the checking process, then run 2
  EXPECT_EQ(run(crashing, options()), formats::kExitInvalidInput);
  EXPECT_NE(err_.find("error: the benchmark binary crashed (signal 11) during run 2 of fake; log: " +
                      path("out/fake.run2.log")),
            std::string::npos)
      << err_;
  EXPECT_EQ(phase_names(), (std::vector<std::string>{"lock_wait", "checking"})) << "written whatever the exit";
  FakeSuite failing;
  failing.fail_at_process = 1;
  EXPECT_EQ(run(failing, options()), formats::kExitInvalidInput);
  EXPECT_NE(
      err_.find("error: checking and fingerprinting fake failed (exit 1); log: " + path("out/fake.fingerprints.log")),
      std::string::npos)
      << err_;
  FakeSuite crashing_check;
  crashing_check.crash_at_process = 1;
  EXPECT_EQ(run(crashing_check, options()), formats::kExitInvalidInput);
  EXPECT_NE(err_.find("crashed (signal 11) while checking fake"), std::string::npos) << err_;
}

// A run that ends before its judgement leaves no earlier run's reports behind as its own, and the console
// names no report it did not write.
TEST_F(StoredRunTest, AFailedRunLeavesNoEarlierReportBehind) {
  record_baseline_file();
  FakeSuite clean;
  ASSERT_EQ(run(clean, options()), formats::kExitPass) << out_ << err_;
  ASSERT_TRUE(std::filesystem::exists(path("out/fake.md")));
  ASSERT_TRUE(std::filesystem::exists(path("out/fake.verdict.json")));
  FakeSuite failing;
  failing.fail_at_process = 2;  // the first timing process
  EXPECT_EQ(run(failing, options()), formats::kExitInvalidInput);
  EXPECT_FALSE(std::filesystem::exists(path("out/fake.md"))) << "the earlier PASS report stayed";
  EXPECT_FALSE(std::filesystem::exists(path("out/fake.verdict.json"))) << "the earlier PASS verdicts stayed";
  EXPECT_EQ(out_.find("report: "), std::string::npos) << out_;
  ASSERT_EQ(run(clean, options()), formats::kExitPass);
  FakeSuite no_gpu;
  no_gpu.has_gpu = false;
  EXPECT_EQ(run(no_gpu, options()), formats::kExitNotJudged);
  EXPECT_FALSE(std::filesystem::exists(path("out/fake.md"))) << "a skipped run left the earlier report";
  // A report that cannot be removed is an error, named, before anything runs.
  std::filesystem::create_directories(path("out/fake.md/in_the_way"));
  FakeSuite blocked;
  EXPECT_EQ(run(blocked, options()), formats::kExitInvalidInput);
  EXPECT_NE(err_.find("cannot remove the previous run's report " + path("out/fake.md")), std::string::npos) << err_;
  EXPECT_TRUE(blocked.calls.empty());
}

TEST_F(StoredRunTest, ACorruptBaselineFailsBeforeAnythingIsMeasured) {
  std::ofstream(path("baselines/nvidia-h200.json")) << "{\"schema_version\": 2, \"gpu\":";
  FakeSuite suite;
  EXPECT_EQ(run(suite, options()), formats::kExitInvalidInput);
  EXPECT_NE(err_.find("nvidia-h200.json"), std::string::npos) << err_;
  EXPECT_EQ(suite.calls, std::vector<std::string>{"gpu"});
}

TEST_F(StoredRunTest, SkipUnchangedTimesOnlyWhatChanged) {
  record_baseline_file(fake_fingerprints("00000000000000aa"));
  FakeSuite unchanged;
  unchanged.fingerprints = fake_fingerprints("00000000000000aa");
  StoredRunOptions o = options();
  o.skip_unchanged = true;
  EXPECT_EQ(run(unchanged, o), formats::kExitPass) << out_ << err_;
  EXPECT_NE(out_.find("2 of 2 fingerprinted benchmarks unchanged"), std::string::npos) << out_;
  EXPECT_EQ(unchanged.calls, (std::vector<std::string>{"gpu", "check ^fake/"})) << "nothing timed";

  FakeSuite changed;
  changed.fingerprints = fake_fingerprints("00000000000000ff");
  changed.slowdown_pct = 10.0;
  EXPECT_EQ(run(changed, o), formats::kExitRegression) << out_ << err_;
  const std::string only_long = "time ^(fake/long/n:2)(/|$)|^ceiling/ reps=30";
  EXPECT_EQ(changed.calls, (std::vector<std::string>{"gpu", "check ^fake/", only_long, only_long, only_long}));
}

// A regression's Nsight Compute diagnosis is part of the report rendered once: where ncu cannot be found,
// the Markdown ends with the line that says so, after the table, and the console says it too.
TEST_F(StoredRunTest, TheDiagnosisOfARegressionIsRenderedInItsReport) {
  record_baseline_file();
  FakeSuite suite;
  suite.slowdown_pct = 10.0;
  suite.suite_abilities.checks = true;
  StoredRunOptions o = options();
  o.diagnosis = true;
  const char* previous = std::getenv("NCU");
  const std::string kept = previous != nullptr ? previous : "";
  ::setenv("NCU", path("no-ncu-here").c_str(), 1);
  const int code = run(suite, o);
  if (previous != nullptr) {
    ::setenv("NCU", kept.c_str(), 1);
  } else {
    ::unsetenv("NCU");
  }
  EXPECT_EQ(code, formats::kExitRegression) << out_ << err_;
  const std::string skipped = "ncu not found (no program " + path("no-ncu-here");
  const std::string md = file_text(path("out/fake.md"));
  EXPECT_NE(md.find("\nNcu diagnosis skipped: " + skipped), std::string::npos) << md;
  EXPECT_GT(md.find("Ncu diagnosis skipped"), md.find("| Verdict | Benchmark |")) << "after the table";
  EXPECT_NE(out_.find("ncu diagnosis skipped: " + skipped), std::string::npos) << out_;
  EXPECT_EQ(phase_names().back(), "diagnosis");
}

// --shard: the suite's listing cut by the baseline's costs (shards.h); the canary, fake/long and fake/short
// in that order cost about 0.03, 0.09 and 0.02 s a process, so two shards are {canary} and {long, short}.
StoredRunOptions shard_options(StoredRunOptions o, int index, int count) {
  o.family = "";
  o.shard = Shard{index, count};
  return o;
}

TEST_F(StoredRunTest, OneShardTimesTheWholeSuite) {
  record_baseline_file();
  FakeSuite suite;
  suite.listing = FakeSuite::listing_of_all();
  EXPECT_EQ(run(suite, shard_options(options(), 1, 1)), formats::kExitPass) << out_ << err_;
  EXPECT_EQ(suite.calls, (std::vector<std::string>{"gpu", "list", "check .", "time . reps=30", "time . reps=30",
                                                   "time . reps=30"}));
  EXPECT_NE(err_.find("every family (3 benchmarks)"), std::string::npos) << err_;
  EXPECT_NE(out_.find("report: " + path("out/families.md")), std::string::npos) << out_;
  EXPECT_EQ(judged_in("out/families.verdict.json"),
            (std::set<std::string>{kFakeShort, kFakeLong, testing::kFakeCanary}));
  EXPECT_TRUE(std::filesystem::exists(path("out/phases/perf_phases.families.json")));
}

TEST_F(StoredRunTest, ShardsCutTheSuiteAndJudgeOnlyTheirOwn) {
  record_baseline_file();
  FakeSuite first;
  first.listing = FakeSuite::listing_of_all();
  EXPECT_EQ(run(first, shard_options(options(), 1, 2)), formats::kExitPass) << out_ << err_;
  const std::string canary_only = "^(ceiling/device_copy/n:1)(/|$)";
  EXPECT_EQ(first.calls[2], "check " + canary_only);
  // The whole suite run, its own cases timed (the cases before them set up in their turn).
  EXPECT_EQ(first.calls[3], "time . time=" + canary_only + "|^ceiling/ reps=30");
  EXPECT_NE(err_.find("shard 1 of 2 of the families (1 benchmarks)"), std::string::npos) << err_;

  FakeSuite second;
  second.listing = FakeSuite::listing_of_all();
  second.slowdown_pct = 10.0;
  EXPECT_EQ(run(second, shard_options(options(), 2, 2)), formats::kExitRegression) << out_ << err_;
  const std::string fake_both = "^(fake/long/n:2|fake/short/n:1)(/|$)";
  const std::string timed_both = "time . time=" + fake_both + "|^ceiling/ reps=30";
  EXPECT_EQ(second.calls,
            (std::vector<std::string>{"gpu", "list", "check " + fake_both, timed_both, timed_both, timed_both}));
  EXPECT_EQ(judged_in("out/families_2of2.verdict.json"), (std::set<std::string>{kFakeLong, kFakeShort}))
      << "the canary is the first shard's to judge";
  EXPECT_EQ(judged_in("out/families_1of2.verdict.json"), (std::set<std::string>{testing::kFakeCanary}));
  EXPECT_TRUE(std::filesystem::exists(path("out/phases/perf_phases.families_2of2.json")));
}

TEST_F(StoredRunTest, TheLastShardCallsWhatTheBuildNoLongerHasMissing) {
  record_baseline_file();
  FakeSuite suite;
  suite.listing = FakeSuite::listing_of_all();
  suite.listing->cases.pop_back();  // fake/short is gone from the registry, not from the baseline
  StoredRunOptions o = shard_options(options(), 2, 2);
  o.strict = true;
  EXPECT_EQ(run(suite, o), formats::kExitRegression) << out_ << err_;
  EXPECT_NE(out_.find("MISSING"), std::string::npos) << out_;
  EXPECT_NE(out_.find(kFakeShort), std::string::npos) << out_;
}

TEST_F(StoredRunTest, AShardOfASuiteThatCannotListItsCasesIsAnError) {
  record_baseline_file();
  FakeSuite suite;  // no listing
  EXPECT_EQ(run(suite, shard_options(options(), 1, 1)), formats::kExitInvalidInput) << out_ << err_;
  EXPECT_NE(err_.find("cannot list its cases for --shard"), std::string::npos) << err_;
}

TEST_F(StoredRunTest, AShardWithoutCasesIsSkipped) {
  record_baseline_file();
  FakeSuite suite;
  suite.listing = FakeSuite::listing_of_all();
  EXPECT_EQ(run(suite, shard_options(options(), 4, 4)), formats::kExitNotJudged) << out_ << err_;
  EXPECT_NE(out_.find("SKIPPED: families_4of4 holds no case"), std::string::npos) << out_;
  EXPECT_EQ(suite.calls, (std::vector<std::string>{"gpu", "list"})) << "nothing run";
}

}  // namespace
}  // namespace gpuperf::gate::driver
