// The looks loop of perf_gate run and ab-run (gate/driver/looks.h), the scenarios of the bash loop it
// replaces (scripts/tests/test_remeasure.sh): it judges once, re-measures only while the verdict is
// ambiguous, never more than max_remeasure times (the budget the gate's --looks spends), and tells the
// re-measurement which attempt it is and what to measure.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/exit_codes.h"
#include "gate/driver/looks.h"

namespace gpuperf::gate::driver {
namespace {

// A verdict that stays ambiguous for its first `ambiguous_looks` judgements; the calls in order.
struct Scenario {
  explicit Scenario(int ambiguous) : ambiguous_looks(ambiguous) {}
  int ambiguous_looks = 0;
  int judged = 0;
  std::string calls;

  Look run(int max_remeasure) {
    return judge_until_decided(
        max_remeasure,
        [this] {
          ++judged;
          calls += "judge ";
          Look look;
          if (judged <= ambiguous_looks) look.ambiguous = {"fam/x/n:" + std::to_string(judged)};
          return look;
        },
        [this](int attempt, const std::vector<std::string>& ambiguous) {
          calls += "more" + std::to_string(attempt) + "(" + ambiguous.front() + ") ";
        });
  }
};

std::string calls_of(int max_remeasure, int ambiguous_looks) {
  Scenario scenario(ambiguous_looks);
  scenario.run(max_remeasure);
  return scenario.calls;
}

TEST(Looks, TheBudgetIsTheFirstLookAndEachRemeasurement) {
  EXPECT_EQ(looks_budget(0), 1);
  EXPECT_EQ(looks_budget(3), 4);
  EXPECT_EQ(looks_budget(4), 5);
}

TEST(Looks, ADecidedVerdictIsJudgedOnce) { EXPECT_EQ(calls_of(3, 0), "judge "); }

TEST(Looks, AmbiguousBenchmarksAreRemeasuredUntilDecided) {
  EXPECT_EQ(calls_of(3, 1), "judge more1(fam/x/n:1) judge ");
  EXPECT_EQ(calls_of(3, 2), "judge more1(fam/x/n:1) judge more2(fam/x/n:2) judge ");
}

TEST(Looks, NeverMoreThanMaxRemeasureTimes) {
  EXPECT_EQ(calls_of(3, 9), "judge more1(fam/x/n:1) judge more2(fam/x/n:2) judge more3(fam/x/n:3) judge ");
  EXPECT_EQ(calls_of(0, 9), "judge ");
  for (int max_remeasure = 0; max_remeasure <= 6; ++max_remeasure) {
    Scenario scenario(99);
    const Look last = scenario.run(max_remeasure);
    EXPECT_EQ(scenario.judged, looks_budget(max_remeasure)) << max_remeasure;
    EXPECT_EQ(last.ambiguous.size(), 1u) << "the last judgement is returned, still ambiguous";
  }
}

TEST(Looks, AnInvalidJudgementIsNotRemeasured) {
  std::string calls;
  const Look last = judge_until_decided(
      3,
      [&] {
        calls += "judge ";
        return Look{formats::kExitInvalidInput, {"fam/x/n:1"}};
      },
      [&](int, const std::vector<std::string>&) { calls += "more "; });
  EXPECT_EQ(calls, "judge ");
  EXPECT_EQ(last.exit_code, formats::kExitInvalidInput);
}

}  // namespace
}  // namespace gpuperf::gate::driver
