// The comparator must judge a full suite quickly: 1000 benchmarks x 30 samples a side, under 1 s in
// Release on a workstation; asserted at 5 s because CI machines are slow and shared.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "gate/comparator.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

constexpr int kBenchmarks = 1000;
constexpr int kSamplesPerSide = 30;
constexpr double kMaxSeconds = 5.0;

TEST(Speed, ThousandBenchmarksOfThirtySamplesCompareQuickly) {
  Baseline baseline = testing::baseline_for(testing::kH200, 3.0);
  ResultsFile results = testing::results_for(testing::kH200);
  for (int i = 0; i < kBenchmarks; ++i) {
    const std::string name = "family" + std::to_string(i % 10) + "/variant" + std::to_string(i) + "/n:1024";
    const double ratio = 1.0 + 0.0001 * (i % 200);  // 0% to 2%: a mix of SAME and AMBIGUOUS
    baseline.benchmarks[name] = testing::baseline_entry(testing::noisy_samples(100.0, 0.01, kSamplesPerSide, 2 * i));
    results.benchmarks[name] =
        testing::time_samples(testing::noisy_samples(100.0 * ratio, 0.01, kSamplesPerSide, 2 * i + 1));
  }
  const auto start = std::chrono::steady_clock::now();
  const Comparison comparison = compare_with_baseline(baseline, {results}, CompareOptions{});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("compared %d benchmarks x %d samples a side in %.3f s\n", kBenchmarks, kSamplesPerSide, seconds);
  RecordProperty("compare_seconds", std::to_string(seconds));
  EXPECT_EQ(comparison.benchmarks.size(), static_cast<std::size_t>(kBenchmarks));
  EXPECT_LT(seconds, kMaxSeconds);
}

}  // namespace
}  // namespace gpuperf::gate
