// Medians, bootstrap intervals and rank tests on samples whose truth is known.
#include <gtest/gtest.h>

#include <algorithm>

#include "gate/statistics.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::noisy_samples;

TEST(Median, OddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(SeedFromName, DependsOnTheNameOnly) {
  EXPECT_EQ(seed_from_name("reduction/a/n:1"), seed_from_name("reduction/a/n:1"));
  EXPECT_NE(seed_from_name("reduction/a/n:1"), seed_from_name("reduction/a/n:2"));
}

TEST(BootstrapRatio, ContainsTheTrueRatio) {
  // Twenty independent cases, each 30 samples a side with 1% noise and a true ratio of 1.07: a 99% interval
  // misses the truth about once in 100, so all twenty covering it is expected.
  for (std::uint64_t trial = 0; trial < 20; ++trial) {
    const auto base = noisy_samples(100.0, 0.01, 30, 2 * trial + 1);
    const auto now = noisy_samples(107.0, 0.01, 30, 2 * trial + 2);
    const Interval ci = bootstrap_ratio_of_medians(base, now, trial);
    EXPECT_LT(ci.low, 1.07) << "trial " << trial;
    EXPECT_GT(ci.high, 1.07) << "trial " << trial;
    EXPECT_LT(ci.high - ci.low, 0.03) << "an interval this wide says nothing; trial " << trial;
  }
}

TEST(BootstrapRatio, IsReproducibleForOneSeed) {
  const auto base = noisy_samples(10.0, 0.02, 30, 1);
  const auto now = noisy_samples(10.0, 0.02, 30, 2);
  const Interval a = bootstrap_ratio_of_medians(base, now, 42);
  const Interval b = bootstrap_ratio_of_medians(base, now, 42);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
}

TEST(BootstrapRatio, IdenticalConstantSamplesGiveExactlyOne) {
  const std::vector<double> same(10, 5.0);
  const Interval ci = bootstrap_ratio_of_medians(same, same, 1);
  EXPECT_DOUBLE_EQ(ci.low, 1.0);
  EXPECT_DOUBLE_EQ(ci.high, 1.0);
}

TEST(BootstrapMedian, ContainsTheTrueMedian) {
  const auto values = noisy_samples(50.0, 0.02, 40, 9);
  const Interval ci = bootstrap_median(values, 3);
  EXPECT_LT(ci.low, 50.0);
  EXPECT_GT(ci.high, 50.0);
}

TEST(MannWhitney, ShiftedSamplesAreSignificantInTheRightDirection) {
  const auto base = noisy_samples(100.0, 0.005, 30, 11);
  const auto slower = noisy_samples(103.0, 0.005, 30, 12);
  const RankTest test = mann_whitney_u(base, slower);
  EXPECT_LT(test.p_greater, 1e-9);
  EXPECT_GT(test.p_less, 0.99);
  const RankTest reverse = mann_whitney_u(slower, base);
  EXPECT_LT(reverse.p_less, 1e-9);
}

TEST(MannWhitney, SamplesOfOneDistributionAreSignificantAtTheNominalRate) {
  // Under the null hypothesis p is uniform: about 5 of 100 fall below 0.05, none should fall below alpha.
  int below_five_percent = 0;
  double smallest = 1.0;
  for (std::uint64_t trial = 0; trial < 100; ++trial) {
    const RankTest test = mann_whitney_u(noisy_samples(100.0, 0.01, 30, 1000 + 2 * trial),
                                         noisy_samples(100.0, 0.01, 30, 1001 + 2 * trial));
    below_five_percent += test.p_greater < 0.05 ? 1 : 0;
    smallest = std::min({smallest, test.p_greater, test.p_less});
  }
  EXPECT_LE(below_five_percent, 12);
  EXPECT_GT(smallest, 0.001) << "a false SLOW at alpha 0.001 in 100 identical cases";
}

TEST(MannWhitney, CompletelySeparatedThirtyAndThirtyMatchesTheNormalApproximation) {
  std::vector<double> low;
  std::vector<double> high;
  for (int i = 0; i < 30; ++i) {
    low.push_back(i);
    high.push_back(100 + i);
  }
  // U = 900, mean 450, sd sqrt(30 * 30 * 61 / 12): z = (450 - 0.5) / 67.64 = 6.645.
  EXPECT_NEAR(std::log10(mann_whitney_u(low, high).p_greater), std::log10(1.5e-11), 0.1);
}

TEST(MannWhitney, AllTiedGivesNoEvidence) {
  const std::vector<double> same(8, 1.0);
  const RankTest test = mann_whitney_u(same, same);
  EXPECT_EQ(test.p_greater, 1.0);
  EXPECT_EQ(test.p_less, 1.0);
}

TEST(SignTest, ExactBinomialTails) {
  EXPECT_DOUBLE_EQ(sign_test(5, 0).p_greater, 1.0 / 32);
  EXPECT_DOUBLE_EQ(sign_test(5, 0).p_less, 1.0);
  EXPECT_NEAR(sign_test(4, 1).p_greater, 6.0 / 32, 1e-12);
  EXPECT_EQ(sign_test(0, 0).p_greater, 1.0);
}

}  // namespace
}  // namespace gpuperf::gate
