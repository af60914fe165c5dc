// Unit tests of the family's host-only pieces: the least-squares fit and the per-warp clock arithmetic.
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "smem_latency/block_clocks.h"
#include "smem_latency/least_squares.h"

namespace gpuperf::smem_latency {
namespace {

// The seed's GTX 780 Ti fit (eq. 2), used as known coefficients.
constexpr double kSeedC1 = 1.047;
constexpr double kSeedC2 = 337.698;

std::vector<double> grid_products() {
  std::vector<double> x;
  for (int i : {1, 2, 4, 8, 16, 32})
    for (int w : {1, 2, 4, 8, 16, 32})
      for (int c : {1, 2, 4, 8, 16, 32}) x.push_back(static_cast<double>(i) * w * c);
  return x;
}

TEST(FitLine, RecoversAnExactLineWithRSquaredOne) {
  const std::vector<double> x = grid_products();
  std::vector<double> y;
  for (double v : x) y.push_back(kSeedC1 * v + kSeedC2);
  const LinearFit fit = fit_line(x, y);
  EXPECT_NEAR(fit.slope, kSeedC1, 1e-12);
  EXPECT_NEAR(fit.intercept, kSeedC2, 1e-9);
  EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);
}

TEST(FitLine, MatchesAHandWorkedExample) {
  // mean x = 1.5, mean y = 2.5, Sxy = 4, Sxx = 5: slope 0.8, intercept 1.3;
  // residuals -0.3, 0.9, -0.9, 0.3: SS_res = 1.8, SS_tot = 5, R^2 = 0.64.
  const LinearFit fit = fit_line({0, 1, 2, 3}, {1, 3, 2, 4});
  EXPECT_NEAR(fit.slope, 0.8, 1e-12);
  EXPECT_NEAR(fit.intercept, 1.3, 1e-12);
  EXPECT_NEAR(fit.r_squared, 0.64, 1e-12);
}

TEST(FitLine, RecoversCoefficientsFromNoisyData) {
  std::mt19937_64 engine(20240601);
  std::normal_distribution<double> noise(0.0, 3.0);  // [cycles], well above the clock's jitter
  const std::vector<double> x = grid_products();
  std::vector<double> y;
  for (double v : x) y.push_back(kSeedC1 * v + kSeedC2 + noise(engine));
  const LinearFit fit = fit_line(x, y);
  // 216 points with x up to 32768: the slope's standard error is ~3 / sqrt(Sxx) ~ 4e-5.
  EXPECT_NEAR(fit.slope, kSeedC1, 1e-3);
  EXPECT_NEAR(fit.intercept, kSeedC2, 2.0);
  EXPECT_GT(fit.r_squared, 0.999);
  EXPECT_LT(fit.r_squared, 1.0);
}

TEST(FitLine, NoiseWithoutSignalGivesLowRSquared) {
  std::mt19937_64 engine(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<double> x;
  std::vector<double> y;
  for (int k = 0; k < 1000; ++k) {
    x.push_back(k);
    y.push_back(noise(engine));
  }
  const LinearFit fit = fit_line(x, y);
  EXPECT_LT(fit.r_squared, 0.05);
  EXPECT_GE(fit.r_squared, 0.0);  // least squares with an intercept never does worse than the mean
}

TEST(FitLine, ConstantYIsAnExactFlatLine) {
  const LinearFit fit = fit_line({1, 2, 3}, {5, 5, 5});
  EXPECT_DOUBLE_EQ(fit.slope, 0.0);
  EXPECT_DOUBLE_EQ(fit.intercept, 5.0);
  EXPECT_DOUBLE_EQ(fit.r_squared, 1.0);
}

TEST(FitLine, RejectsInputsWithoutAUniqueLine) {
  EXPECT_THROW(fit_line({1, 2}, {1}), std::invalid_argument);
  EXPECT_THROW(fit_line({1}, {1}), std::invalid_argument);
  EXPECT_THROW(fit_line({2, 2, 2}, {1, 2, 3}), std::invalid_argument);
  EXPECT_THROW(fit_line({1, 2}, {1, std::nan("")}), std::invalid_argument);
}

TEST(BlockIntervalCycles, SpansEarliestStartToLatestEndLessTheSmallestOverhead) {
  BlockClocks clocks;
  clocks.start = {1000, 990, 1005};
  clocks.end = {1100, 1150, 1120};
  clocks.overhead = {12, 10, 30};
  EXPECT_DOUBLE_EQ(bracket_overhead_cycles(clocks), 10.0);
  EXPECT_DOUBLE_EQ(block_interval_cycles(clocks), 1150.0 - 990.0 - 10.0);
}

TEST(BlockIntervalCycles, SurvivesTheClockWrapping) {
  BlockClocks clocks;
  clocks.start = {0xFFFFFFF0u, 0xFFFFFFE0u};  // the second warp started 16 cycles earlier
  clocks.end = {0x00000010u, 0x00000030u};    // both ended after the 32-bit counter wrapped
  clocks.overhead = {4, 4};
  EXPECT_DOUBLE_EQ(block_interval_cycles(clocks), (0x30 + 0x20) - 4.0);
}

TEST(BlockIntervalCycles, AnUnreadEndGivesANonPositiveFigure) {
  BlockClocks clocks;  // the kernel leaves end = start when its predicate fails
  clocks.start = {500};
  clocks.end = {500};
  clocks.overhead = {6};
  EXPECT_LE(block_interval_cycles(clocks), 0.0);
}

TEST(BlockIntervalCycles, RejectsRaggedInput) {
  BlockClocks clocks;
  EXPECT_THROW(block_interval_cycles(clocks), std::invalid_argument);
  clocks.start = {1, 2};
  clocks.end = {3};
  clocks.overhead = {0, 0};
  EXPECT_THROW(block_interval_cycles(clocks), std::invalid_argument);
}

}  // namespace
}  // namespace gpuperf::smem_latency
