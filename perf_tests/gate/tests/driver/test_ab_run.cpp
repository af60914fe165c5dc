// perf_gate ab-run's procedure (gate/driver/ab_run.h) on two fake suites: the interleaved rounds, round 1
// checking, re-measurement rounds with and without --time-filter, and a crash told apart; the scenarios
// of scripts/tests/test_ab_compare.sh that need no process.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "gate/driver/ab_run.h"
#include "gate/tests/driver/fake_suite.h"
#include "gate/tests/driver/lock_folder_test.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate::driver {
namespace {

using testing::FakeSuite;

class AbRunTest : public testing::LockFolderTest {
 protected:
  AbRunOptions options() const {
    AbRunOptions o;
    o.out = path("out");
    o.rounds = 2;
    o.diagnosis = false;
    return o;
  }

  int run(FakeSuite& a, FakeSuite& b, const AbRunOptions& o) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = run_ab(o, a, b, out, err);
    out_ = out.str();
    err_ = err.str();
    return code;
  }

  std::string out_;
  std::string err_;
};

TEST_F(AbRunTest, ABuildAgainstItselfPassesInInterleavedRounds) {
  FakeSuite a("a_bench");
  FakeSuite b("b_bench");
  AbRunOptions o = options();
  o.max_remeasure = 0;
  EXPECT_EQ(run(a, b, o), formats::kExitPass) << out_ << err_;
  // Round 1 checks in both builds, later rounds only time; B's GPU is the one locked.
  EXPECT_EQ(a.calls, (std::vector<std::string>{"time check . reps=20", "time . reps=20"}));
  EXPECT_EQ(b.calls, (std::vector<std::string>{"gpu", "time check . reps=20", "time . reps=20"}));
  EXPECT_NE(out_.find("report: " + path("out/ab.md")), std::string::npos);
  o.check_references = false;
  FakeSuite unchecked_a;
  FakeSuite unchecked_b;
  EXPECT_EQ(run(unchecked_a, unchecked_b, o), formats::kExitPass);
  EXPECT_EQ(unchecked_a.calls, (std::vector<std::string>{"time . reps=20", "time . reps=20"}));
}

TEST_F(AbRunTest, ASlowerBuildFails) {
  FakeSuite a;
  FakeSuite b;
  b.slowdown_pct = 10.0;
  EXPECT_EQ(run(a, b, options()), formats::kExitRegression) << out_ << err_;
  EXPECT_NE(out_.find("SLOW"), std::string::npos) << out_;
}

TEST_F(AbRunTest, AmbiguousBenchmarksGetRoundsOfTheirOwn) {
  FakeSuite a;
  FakeSuite b;
  b.slowdown_pct = 1.0;  // at the tolerance
  AbRunOptions o = options();
  o.max_remeasure = 1;
  o.filter = "^fake/";
  run(a, b, o);
  ASSERT_NE(err_.find("re-measuring"), std::string::npos) << out_ << err_;
  EXPECT_EQ(b.calls.at(3), "probe") << "the support of --time-filter is asked once, of both builds";
  EXPECT_EQ(b.calls.back().rfind("time ^fake/ time=^(", 0), 0u) << b.calls.back();

  FakeSuite old;
  old.time_filter_supported = false;
  FakeSuite close;
  close.slowdown_pct = 1.0;
  run(old, close, o);
  EXPECT_NE(err_.find("a build has no --time-filter"), std::string::npos) << err_;
  EXPECT_EQ(close.calls.back().rfind("time ^(", 0), 0u)
      << "both arms time the ambiguous ones alone: " << close.calls.back();
  EXPECT_EQ(old.calls.back().rfind("time ^(", 0), 0u) << old.calls.back();
}

TEST_F(AbRunTest, ACrashIsToldApartFromAFailure) {
  FakeSuite a;
  FakeSuite b;
  b.crash_at_process = 2;  // its round 2 (B runs first in even rounds)
  EXPECT_EQ(run(a, b, options()), formats::kExitInvalidInput);
  EXPECT_NE(err_.find("error: build b crashed (signal 11) in round 2; log: " + path("out/b.round2.log")),
            std::string::npos)
      << err_;
  FakeSuite failing;
  failing.fail_at_process = 1;
  FakeSuite other;
  EXPECT_EQ(run(failing, other, options()), formats::kExitInvalidInput);
  EXPECT_NE(err_.find("error: build a failed in round 1 (exit 1)"), std::string::npos) << err_;
}

// A comparison that ends before its judgement leaves no earlier one's reports behind as its own.
TEST_F(AbRunTest, AFailedComparisonLeavesNoEarlierReportBehind) {
  FakeSuite a;
  FakeSuite b;
  AbRunOptions o = options();
  o.max_remeasure = 0;
  ASSERT_EQ(run(a, b, o), formats::kExitPass) << out_ << err_;
  ASSERT_TRUE(std::filesystem::exists(path("out/ab.md")));
  FakeSuite failing;
  failing.fail_at_process = 1;
  FakeSuite other;
  EXPECT_EQ(run(failing, other, o), formats::kExitInvalidInput);
  EXPECT_FALSE(std::filesystem::exists(path("out/ab.md"))) << "the earlier PASS report stayed";
  EXPECT_FALSE(std::filesystem::exists(path("out/ab.verdict.json"))) << "the earlier PASS verdicts stayed";
  EXPECT_EQ(out_.find("report: "), std::string::npos) << out_;
}

TEST_F(AbRunTest, NoGpuIsNotJudged) {
  FakeSuite a;
  FakeSuite b;
  b.has_gpu = false;
  EXPECT_EQ(run(a, b, options()), formats::kExitNotJudged);
  EXPECT_TRUE(a.calls.empty());
}

}  // namespace
}  // namespace gpuperf::gate::driver
