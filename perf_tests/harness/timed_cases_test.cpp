// gpuperf_bench --time-filter's plan: which cases are timed, and which are set up before each.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/timed_cases.h"

namespace gpuperf {
namespace {

Case named(const std::string& family, const std::string& variant, const std::string& shape) {
  Case c;
  c.family = family;
  c.variant = variant;
  c.shape = shape;
  return c;
}

std::vector<std::string> names(const std::vector<const Case*>& cases) {
  std::vector<std::string> out;
  for (const Case* c : cases) out.push_back(c->name());
  return out;
}

class TimedCasesTest : public ::testing::Test {
 protected:
  // A first look's order: the canary family, then the family (registry order).
  std::vector<Case> registry{named("ceiling", "device_copy", "n:1"), named("reduction", "reduce1", "n:25"),
                             named("reduction", "reduce1", "n:28"), named("reduction", "cub", "n:25"),
                             named("reduction", "cub", "n:28"), named("matmul", "cublas", "m:1")};
  std::vector<const Case*> cases() const {
    std::vector<const Case*> out;
    for (const Case& c : registry) out.push_back(&c);
    return out;
  }
};

TEST_F(TimedCasesTest, SetsUpTheFirstLooksCasesBeforeEachTimedOneInTheirTurn) {
  const auto plan = timed_cases(cases(), "^(reduction|ceiling)/", "^(reduction/cub/n:25|reduction/reduce1/n:28)(/|$)");
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].timed->name(), "reduction/reduce1/n:28");
  EXPECT_EQ(names(plan[0].set_up_before),
            (std::vector<std::string>{"ceiling/device_copy/n:1", "reduction/reduce1/n:25"}));
  EXPECT_EQ(plan[1].timed->name(), "reduction/cub/n:25");
  EXPECT_TRUE(plan[1].set_up_before.empty());  // reduce1 n:28 ran just before it, timed
}

TEST_F(TimedCasesTest, LeavesOutWhatTheSelectionLeavesOutAndWhatComesAfterTheLastTimedCase) {
  // matmul is not selected; reduction/cub/n:28 comes after the last timed case: neither is set up.
  const auto plan = timed_cases(cases(), "^(reduction|ceiling)/", "^reduction/cub/n:25(/|$)");
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(names(plan[0].set_up_before), (std::vector<std::string>{"ceiling/device_copy/n:1", "reduction/reduce1/n:25",
                                                                     "reduction/reduce1/n:28"}));
}

TEST_F(TimedCasesTest, TimesNothingTheSelectionLeavesOut) {
  // A timed case must be selected too: the time filter alone does not add matmul.
  EXPECT_TRUE(timed_cases(cases(), "^reduction/", "^matmul/").empty());
  // Everything selected and timed: the plan is the selection, nothing set up in between.
  const auto all = timed_cases(cases(), "^reduction/", ".");
  ASSERT_EQ(all.size(), 4u);
  for (const TimedCase& t : all) EXPECT_TRUE(t.set_up_before.empty());
}

TEST_F(TimedCasesTest, FollowsTheOrderGiven) {
  // --reverse-order reverses the cases first: the history is the reversed one.
  std::vector<const Case*> reversed = cases();
  std::reverse(reversed.begin(), reversed.end());
  const auto plan = timed_cases(reversed, "^reduction/", "^reduction/reduce1/n:25(/|$)");
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(names(plan[0].set_up_before),
            (std::vector<std::string>{"reduction/cub/n:28", "reduction/cub/n:25", "reduction/reduce1/n:28"}));
}

TEST_F(TimedCasesTest, RefusesAPatternThatIsNotARegularExpressionNamingTheFlag) {
  try {
    timed_cases(cases(), "^reduction/", "^(reduction");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--time-filter='^(reduction' is not a regular expression"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(timed_cases(cases(), "[", "."), std::invalid_argument);
}

}  // namespace
}  // namespace gpuperf
