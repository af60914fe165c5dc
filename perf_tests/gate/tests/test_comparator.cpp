// compare_with_baseline on the fixtures and on constructed results: NEW, MISSING, --strict, throttling,
// errors, GPU mismatch, selection and pooling of several files.
#include <gtest/gtest.h>

#include "gate/comparator.h"
#include "gate/exit_codes.h"
#include "gate/input_error.h"
#include "gate/outcome.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::baseline_entry;
using testing::baseline_for;
using testing::kH200;
using testing::noisy_samples;
using testing::results_for;
using testing::testdata;
using testing::time_samples;

constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
constexpr const char* kReduce1 = "reduction/reduce1_interleaved_divergent/n:1048576";
constexpr const char* kChase = "smem_latency/pointer_chase/stride:1";
constexpr const char* kRemoved = "reduction/reduce0_removed_variant/n:1024";

const BenchmarkComparison& row_of(const Comparison& c, const std::string& name) {
  for (const BenchmarkComparison& row : c.benchmarks) {
    if (row.name == name) return row;
  }
  throw std::runtime_error("no row " + name);
}

Comparison compare_fixture(const std::string& results_file, const CompareOptions& options = {}) {
  return compare_with_baseline(load_baseline(testdata("baseline_h200.json")), {load_results(testdata(results_file))},
                               options);
}

TEST(CompareFixtures, UnchangedRunIsSameExceptTheRemovedBenchmark) {
  const Comparison c = compare_fixture("results_run1.json");
  EXPECT_EQ(row_of(c, kReduce9).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kReduce1).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kChase).verdict, Verdict::kSame);
  EXPECT_EQ(row_of(c, kChase).unit, "cycles");
  EXPECT_EQ(row_of(c, kRemoved).verdict, Verdict::kMissing);
  EXPECT_EQ(exit_code(c), kExitPass) << "MISSING fails only with --strict";
  EXPECT_EQ(c.gpu_slug, "nvidia-h200");
  EXPECT_EQ(c.benchmarks.front().verdict, Verdict::kMissing) << "most severe first";
}

TEST(CompareFixtures, StrictMakesMissingARegression) {
  CompareOptions strict;
  strict.strict = true;
  EXPECT_EQ(exit_code(compare_fixture("results_run1.json", strict)), kExitRegression);
}

TEST(CompareFixtures, SlowFixtureIsARegressionWithTheHandTolerance) {
  const Comparison c = compare_fixture("results_slow.json");
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.verdict, Verdict::kSlow);
  EXPECT_DOUBLE_EQ(row.tolerance_pct, 2.0);
  EXPECT_EQ(row.tolerance_source, "benchmark");
  EXPECT_EQ(row.bytes, 134217728.0);
  EXPECT_EQ(exit_code(c), kExitRegression);
  EXPECT_EQ(c.benchmarks.front().name, kReduce9);
}

TEST(CompareFixtures, FastFixturePasses) {
  const Comparison c = compare_fixture("results_fast.json");
  EXPECT_EQ(row_of(c, kReduce9).verdict, Verdict::kFast);
  EXPECT_EQ(exit_code(c), kExitPass);
}

TEST(CompareFixtures, ThrottledSamplesAreDiscardedAndTheBenchmarkIsNotJudged) {
  const Comparison c = compare_fixture("results_throttled.json");
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.verdict, Verdict::kNotJudged);
  EXPECT_NE(row.reason.find("27 of 30 samples throttled (25 power capped, 2 with another process on the GPU)"),
            std::string::npos)
      << row.reason;
  EXPECT_EQ(row.current_samples, 3);
  EXPECT_EQ(exit_code(c), kExitNotJudged);
}

TEST(CompareFixtures, ErrorBenchmarkIsInvalidInputNeverAPass) {
  const Comparison c = compare_fixture("results_error.json");
  const BenchmarkComparison& row = row_of(c, kReduce9);
  EXPECT_EQ(row.verdict, Verdict::kError);
  EXPECT_NE(row.reason.find("mismatch at index 17"), std::string::npos);
  EXPECT_EQ(exit_code(c), kExitInvalidInput);
  EXPECT_EQ(c.benchmarks.front().verdict, Verdict::kError);
}

TEST(CompareFixtures, ResultsOfAnotherGpuAreRefused) {
  try {
    compare_fixture("results_other_gpu.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("GPU mismatch"), std::string::npos) << message;
    EXPECT_NE(message.find("nvidia-h100-80gb-hbm3"), std::string::npos) << message;
    EXPECT_NE(message.find("nvidia-h200"), std::string::npos) << message;
  }
}

TEST(CompareFixtures, ResultsWithoutGpuSlugAreRefused) {
  try {
    compare_fixture("results_no_gpu_slug.json");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gpu_slug"), std::string::npos) << e.what();
  }
}

TEST(CompareFixtures, SelectionAppliesToBothSides) {
  CompareOptions family;
  family.selection = Selection::family("smem_latency");
  const Comparison c = compare_fixture("results_run1.json", family);
  ASSERT_EQ(c.benchmarks.size(), 1u) << "the removed reduction benchmark is not MISSING for smem_latency";
  EXPECT_EQ(c.benchmarks.front().name, kChase);

  CompareOptions filter;
  filter.selection = Selection::filter("reduce[19]_");
  EXPECT_EQ(compare_fixture("results_run1.json", filter).benchmarks.size(), 2u);

  CompareOptions nothing;
  nothing.selection = Selection::family("no_such_family");
  const Comparison empty = compare_fixture("results_run1.json", nothing);
  EXPECT_TRUE(empty.benchmarks.empty());
  EXPECT_EQ(exit_code(empty), kExitNotJudged) << "nothing judged is never a pass";
}

TEST(CompareFixtures, InvalidFilterIsAnInputError) { EXPECT_THROW(Selection::filter("reduce(["), InputError); }

TEST(CompareFixtures, SecondFileIsPooled) {
  const Baseline baseline = load_baseline(testdata("baseline_h200.json"));
  const Comparison c = compare_with_baseline(
      baseline, {load_results(testdata("results_run1.json")), load_results(testdata("results_run2.json"))}, {});
  EXPECT_EQ(row_of(c, kReduce9).current_samples, 60);
}

TEST(Compare, NewBenchmarkPassesButNothingJudgedIsNotAPass) {
  Baseline baseline = baseline_for(kH200, 3.0);
  ResultsFile results = results_for(kH200);
  results.benchmarks["fusion/new_variant/n:1"] = time_samples(noisy_samples(10.0, 0.01, 30, 1));
  const Comparison only_new = compare_with_baseline(baseline, {results}, {});
  EXPECT_EQ(only_new.benchmarks.front().verdict, Verdict::kNew);
  EXPECT_EQ(exit_code(only_new), kExitNotJudged);

  baseline.benchmarks["fusion/old/n:1"] = baseline_entry(noisy_samples(10.0, 0.01, 30, 2));
  results.benchmarks["fusion/old/n:1"] = time_samples(noisy_samples(10.0, 0.01, 30, 3));
  const Comparison c = compare_with_baseline(baseline, {results}, {});
  EXPECT_EQ(row_of(c, "fusion/new_variant/n:1").verdict, Verdict::kNew);
  EXPECT_EQ(exit_code(c), kExitPass);
}

TEST(Compare, UnitMismatchIsNotJudged) {
  Baseline baseline = baseline_for(kH200, 3.0);
  baseline.benchmarks["smem_latency/a/s:1"] = baseline_entry(noisy_samples(10.0, 0.01, 30, 1));
  ResultsFile results = results_for(kH200);
  BenchmarkSamples cycles = time_samples(noisy_samples(30.0, 0.01, 30, 2));
  cycles.unit = kUnitCycles;
  results.benchmarks["smem_latency/a/s:1"] = cycles;
  const Comparison c = compare_with_baseline(baseline, {results}, {});
  EXPECT_EQ(c.benchmarks.front().verdict, Verdict::kNotJudged);
  EXPECT_NE(c.benchmarks.front().reason.find("unit mismatch"), std::string::npos);
  EXPECT_EQ(exit_code(c), kExitNotJudged);
}

TEST(Compare, ErrorOutranksRegressionAndRegressionOutranksNotJudged) {
  Baseline baseline = baseline_for(kH200, 3.0);
  ResultsFile results = results_for(kH200);
  baseline.benchmarks["r/slow/n:1"] = baseline_entry(noisy_samples(10.0, 0.002, 30, 1));
  results.benchmarks["r/slow/n:1"] = time_samples(noisy_samples(12.0, 0.002, 30, 2));
  baseline.benchmarks["r/throttled/n:1"] = baseline_entry(noisy_samples(10.0, 0.002, 30, 3));
  BenchmarkSamples throttled = time_samples(noisy_samples(10.0, 0.002, 2, 4));
  throttled.throttled = 28;
  throttled.repetitions = 30;
  results.benchmarks["r/throttled/n:1"] = throttled;
  EXPECT_EQ(exit_code(compare_with_baseline(baseline, {results}, {})), kExitRegression);

  BenchmarkSamples failed;
  failed.error = true;
  failed.error_message = "CUDA error: an illegal memory access was encountered";
  results.benchmarks["r/failed/n:1"] = failed;
  const Comparison c = compare_with_baseline(baseline, {results}, {});
  EXPECT_EQ(row_of(c, "r/failed/n:1").verdict, Verdict::kError) << "an error is reported even when not in the baseline";
  EXPECT_EQ(exit_code(c), kExitInvalidInput);
}

// A baseline recorded on kThisGpu with the README's tolerances (4% default, 2% on the same GPU), and
// results 3% slower: SAME against 4%, SLOW against 2%.
constexpr const char* kThisGpu = "GPU-8f2c0a11";
constexpr const char* kAnotherGpu = "GPU-77d1b3e0";
constexpr const char* kName = "reduction/reduce9/n:1";

Baseline recorded_on_this_gpu() {
  Baseline baseline = baseline_for(kH200, 4.0);
  baseline.same_gpu_tolerance_pct = 2.0;
  baseline.recorded.gpu_uuids = {kAnotherGpu, kThisGpu};
  baseline.benchmarks[kName] = baseline_entry(noisy_samples(100.0, 0.002, 30, 1));
  return baseline;
}

ResultsFile three_percent_slower_on(const std::string& uuid, std::uint64_t seed = 2) {
  ResultsFile results = results_for(kH200, "results_" + uuid + ".json");
  results.gpu.uuid = uuid;
  results.benchmarks[kName] = time_samples(noisy_samples(103.0, 0.002, 30, seed));
  return results;
}

TEST(CompareSameGpu, ResultsFromARecordingGpuGetTheSameGpuDefault) {
  const Comparison c = compare_with_baseline(recorded_on_this_gpu(), {three_percent_slower_on(kThisGpu)}, {});
  const BenchmarkComparison& row = row_of(c, kName);
  EXPECT_DOUBLE_EQ(row.tolerance_pct, 2.0);
  EXPECT_EQ(row.tolerance_source, "default, same GPU as the baseline");
  EXPECT_EQ(row.verdict, Verdict::kSlow);
  EXPECT_TRUE(same_gpu_tolerance_applied(c));
  EXPECT_NE(c.against.find(" on this GPU (GPU-8f2c0a11), same-GPU default tolerance 2.0%"), std::string::npos)
      << c.against;
}

TEST(CompareSameGpu, AnotherGpuOfTheModelKeepsTheDefault) {
  Baseline baseline = recorded_on_this_gpu();
  baseline.recorded.gpu_uuids = {kAnotherGpu};
  const Comparison c = compare_with_baseline(baseline, {three_percent_slower_on(kThisGpu)}, {});
  EXPECT_DOUBLE_EQ(row_of(c, kName).tolerance_pct, 4.0);
  EXPECT_EQ(row_of(c, kName).tolerance_source, "default");
  EXPECT_EQ(row_of(c, kName).verdict, Verdict::kSame);
  EXPECT_FALSE(same_gpu_tolerance_applied(c));
  EXPECT_EQ(c.against.find("same-GPU"), std::string::npos) << c.against;

  baseline.recorded.gpu_uuids.clear();  // a baseline that does not know its GPUs
  EXPECT_EQ(row_of(compare_with_baseline(baseline, {three_percent_slower_on(kThisGpu)}, {}), kName).tolerance_source,
            "default");
}

TEST(CompareSameGpu, ResultsWithoutOrWithMixedUuidsAreNotTheSameGpu) {
  const Baseline baseline = recorded_on_this_gpu();
  const std::vector<std::vector<ResultsFile>> not_one_gpu = {
      {three_percent_slower_on("")},
      {three_percent_slower_on(kThisGpu), three_percent_slower_on(kAnotherGpu, 3)},  // both recorded it
      {three_percent_slower_on(kThisGpu), three_percent_slower_on("", 3)},
  };
  for (const std::vector<ResultsFile>& results : not_one_gpu) {
    const Comparison c = compare_with_baseline(baseline, results, {});
    EXPECT_DOUBLE_EQ(row_of(c, kName).tolerance_pct, 4.0) << results.size() << " file(s), first " << results[0].source;
    EXPECT_EQ(row_of(c, kName).verdict, Verdict::kSame);
    EXPECT_FALSE(same_gpu_tolerance_applied(c));
  }
  Baseline listing_nothing = baseline;
  listing_nothing.recorded.gpu_uuids = {""};  // only a baseline built in code can: the reader refuses it
  EXPECT_DOUBLE_EQ(
      row_of(compare_with_baseline(listing_nothing, {three_percent_slower_on("")}, {}), kName).tolerance_pct, 4.0)
      << "no uuid is no GPU, even where an empty one is listed";
  const Comparison pooled =
      compare_with_baseline(baseline, {three_percent_slower_on(kThisGpu), three_percent_slower_on(kThisGpu, 3)}, {});
  EXPECT_DOUBLE_EQ(row_of(pooled, kName).tolerance_pct, 2.0) << "two files of the one GPU are the same GPU";
}

TEST(CompareSameGpu, NotAnnouncedWhereNoBenchmarkUsedIt) {
  Baseline baseline = recorded_on_this_gpu();
  baseline.family_tolerance_pct["reduction"] = 5.0;
  const Comparison c = compare_with_baseline(baseline, {three_percent_slower_on(kThisGpu)}, {});
  EXPECT_EQ(row_of(c, kName).tolerance_source, "family reduction");
  EXPECT_FALSE(same_gpu_tolerance_applied(c));
  EXPECT_EQ(c.against.find("same-GPU"), std::string::npos) << c.against;
}

}  // namespace
}  // namespace gpuperf::gate
