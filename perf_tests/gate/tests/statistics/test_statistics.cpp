// Medians, Student's t and the process-level inference, against values from published tables.
#include <gtest/gtest.h>

#include <cmath>

#include "gate/statistics/error_budget.h"
#include "gate/statistics/process_inference.h"
#include "gate/statistics/statistics.h"
#include "gate/statistics/student_t.h"

namespace gpuperf::gate {
namespace {

TEST(Median, OddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(StudentT, QuantilesMatchTables) {
  // Two-sided 95% and 99% critical values (any statistics textbook's t table).
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 10), 2.2281, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.995, 5), 4.0321, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.995, 30), 2.7500, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.025, 10), -2.2281, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.975, 1e7), 1.95996, 1e-4) << "large df: the normal";
  EXPECT_NEAR(student_t_quantile(0.5, 3), 0.0, 1e-12);
}

TEST(FisherF, TailsMatchTheClosedFormAndTables) {
  // F(2, d2): P(F > f) = (1 + 2 f / d2)^(-d2 / 2).
  EXPECT_NEAR(f_upper_tail(5.0, 2, 40), std::pow(1.0 + 2.0 * 5.0 / 40.0, -20.0), 1e-12);
  EXPECT_NEAR(f_upper_tail(3.0, 2, 7), std::pow(1.0 + 6.0 / 7.0, -3.5), 1e-12);
  // Upper 1% critical values of an F table: F(5, 10) = 5.64, F(10, 20) = 3.37.
  EXPECT_NEAR(f_upper_tail(5.636, 5, 10), 0.01, 2e-5);
  EXPECT_NEAR(f_upper_tail(3.368, 10, 20), 0.01, 2e-5);
  EXPECT_DOUBLE_EQ(f_upper_tail(0.0, 2, 10), 1.0);
  EXPECT_TRUE(std::isnan(f_upper_tail(1.0, 0.0, 10)));
}

TEST(StudentT, TailsKeepTheirPrecision) {
  EXPECT_NEAR(student_t_upper_tail(3.0, 4), 0.019970, 1e-6);
  EXPECT_NEAR(student_t_upper_tail(0.0, 7), 0.5, 1e-12);
  EXPECT_NEAR(student_t_cdf(-3.0, 4), 0.019970, 1e-6);
  const double tiny = student_t_upper_tail(40.0, 20);
  EXPECT_GT(tiny, 0.0);
  EXPECT_LT(tiny, 1e-19);
  // Round trip where the budget lives: a one-sided 3e-5 level.
  EXPECT_NEAR(student_t_upper_tail(student_t_quantile(1.0 - 3e-5, 11), 11), 3e-5, 1e-10);
}

TEST(ProcessInference, TwoGroupsPoolTheirSpread) {
  // log medians: before 0, +-s; now +d, +-s: pooled sd is s, df = 2 + 2.
  const double s = 0.01;
  const double d = 0.05;
  const std::vector<double> before = {std::exp(-s), 1.0, std::exp(s)};
  const std::vector<double> now = {std::exp(d - s), std::exp(d), std::exp(d + s)};
  const ProcessEvidence e = compare_process_medians(before, now, 0.99, 0.0);
  ASSERT_TRUE(e.judged);
  EXPECT_DOUBLE_EQ(e.df, 4.0);
  EXPECT_NEAR(e.sd_pct, 100.0 * s, 1e-9);
  EXPECT_NEAR(e.ratio, std::exp(d), 1e-12);
  const double half = student_t_quantile(0.995, 4) * s * std::sqrt(2.0 / 3.0);
  EXPECT_NEAR(e.ci_low, std::exp(d - half), 1e-12);
  EXPECT_NEAR(e.ci_high, std::exp(d + half), 1e-12);
  EXPECT_NEAR(e.p_slower, student_t_upper_tail(d / (s * std::sqrt(2.0 / 3.0)), 4), 1e-15);
  EXPECT_NEAR(e.p_slower + e.p_faster, 1.0, 1e-12);
}

TEST(ProcessInference, OneProcessEachSideCannotBeJudged) {
  EXPECT_FALSE(compare_process_medians({1.0}, {1.1}, 0.99, 0.0).judged);
  EXPECT_TRUE(compare_process_medians({1.0, 1.01}, {1.1}, 0.99, 0.0).judged) << "the baseline's spread serves";
  EXPECT_FALSE(compare_paired_ratios({1.1}, 0.99, 0.0).judged);
}

TEST(ProcessInference, IdenticalMediansClaimNoMoreThanTheResolution) {
  const ProcessEvidence e = compare_process_medians({44.0, 44.0, 44.0}, {44.0, 44.0}, 0.99, 0.01);
  ASSERT_TRUE(e.judged);
  EXPECT_DOUBLE_EQ(e.sd_pct, 1.0);
  EXPECT_LT(e.ci_low, 1.0);
  EXPECT_GT(e.ci_high, 1.0);
}

TEST(ProcessInference, PairedRatiosUsePairsMinusOne) {
  const std::vector<double> ratios = {1.020, 1.021, 1.019, 1.020};
  const ProcessEvidence e = compare_paired_ratios(ratios, 0.99, 0.0);
  ASSERT_TRUE(e.judged);
  EXPECT_DOUBLE_EQ(e.df, 3.0);
  EXPECT_GT(e.ci_low, 1.0);
  EXPECT_LT(e.p_slower, 0.01);
}

TEST(ErrorBudget, SplitsTheRunRateOverBenchmarksAndLooks) {
  const ErrorBudget budget{0.01, 100, 4};
  EXPECT_DOUBLE_EQ(budget.test_alpha(), 0.01 / 400);
  EXPECT_DOUBLE_EQ(budget.interval_confidence(), 1.0 - 0.01 / 4);
  EXPECT_DOUBLE_EQ(ErrorBudget{}.test_alpha(), kDefaultRunAlpha);
}

}  // namespace
}  // namespace gpuperf::gate
