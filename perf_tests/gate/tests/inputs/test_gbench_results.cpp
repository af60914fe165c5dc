// Reading a team's Google Benchmark suite (gate/inputs/gbench_results.h) on the fixtures a real run wrote
// (testdata/gbench/, Google Benchmark 1.7.1): names mapped, samples and units, aggregates left out, the GPU
// the caller gives; the suite's counters are not the harness's; and every kind of bad input refused with
// the words its message must hold.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "formats/foreign_names.h"
#include "gate/inputs/gbench_results.h"
#include "gate/judging/verdict.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::expect_words;
using testing::testdata;

formats::GpuIdentity h100() {
  formats::GpuIdentity gpu;
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.uuid = "GPU-8f4a1c2e-0000-0000-0000-000000000001";
  gpu.driver = "580.159.04";
  return gpu;
}

std::string parse_error(const std::string& text, const std::string& family = "saxpy_suite",
                        const std::optional<formats::GpuIdentity>& gpu = std::nullopt) {
  return testing::input_error_of([&] { parse_gbench_results(text, "team.json", family, gpu); });
}

// A file of one iteration row with `fields` added to it.
std::string one_row(const std::string& run_name, const std::string& fields = "") {
  return R"({"context": {"host_name": "h"}, "benchmarks": [{"name": ")" + run_name + R"(", "run_name": ")" + run_name +
         R"(", "run_type": "iteration", "real_time": 1500.0, "cpu_time": 10.0, "time_unit": "ns")" + fields + "}]}";
}

TEST(GbenchInput, ReadsTheSuitesRunsWithRepetitionsAndLeavesOutAggregates) {
  const ResultsFile r = load_gbench_results(testdata("gbench/repetitions.json"), "saxpy_suite", h100());
  ASSERT_EQ(r.benchmarks.size(), 6u) << "5 rows each and 4 aggregates of 5 benchmarks, one failing benchmark";

  const BenchmarkSamples& saxpy = r.benchmarks.at("saxpy_suite/BM_saxpy/1024");
  EXPECT_EQ(saxpy.unit, "us");
  ASSERT_EQ(saxpy.samples.size(), 5u) << "the mean, median, stddev and cv rows are no samples";
  for (const double sample : saxpy.samples) EXPECT_NEAR(sample, 12.24, 1e-9) << "manual time, ns to us";
  EXPECT_TRUE(saxpy.samples_are_summaries);
  EXPECT_NEAR(r.benchmarks.at("saxpy_suite/BM_saxpy/4096").samples.at(0), 42.96, 1e-9);

  const BenchmarkSamples& copy = r.benchmarks.at("saxpy_suite/BM_copy_x3cfloat_x3e/4096");
  EXPECT_EQ(copy.samples.size(), 5u) << "real time, in us in the file";
  for (const double sample : copy.samples) EXPECT_GT(sample, 0.0);

  const BenchmarkSamples& gemm = r.benchmarks.at("saxpy_suite/BM_gemm/m:64/n:32");
  EXPECT_NEAR(median(gemm.samples), 32.0, 1e-9);
  EXPECT_EQ(gemm.throttled, 0) << "the suite's counter 'throttled' is not the harness's";
  EXPECT_EQ(gemm.samples.size(), 5u);

  EXPECT_EQ(r.benchmarks.at("saxpy_suite/BM_spin/threads:2").samples.size(), 5u);
  const BenchmarkSamples& fails = r.benchmarks.at("saxpy_suite/BM_fails");
  EXPECT_TRUE(fails.error);
  EXPECT_EQ(fails.error_message, "result mismatch at index 3");

  EXPECT_EQ(r.gpu.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.gpu.slug, "nvidia-h100-80gb-hbm3") << "made from the name by the slug rule";
  EXPECT_EQ(r.gpu.uuid, "GPU-8f4a1c2e-0000-0000-0000-000000000001");
  EXPECT_EQ(r.gpu.driver, "580.159.04");
  EXPECT_TRUE(r.fingerprints.empty());
}

TEST(GbenchInput, WithoutRepetitionsEachRunIsOneProcessMedian) {
  const ResultsFile r = load_gbench_results(testdata("gbench/single.json"), "saxpy_suite", h100());
  const BenchmarkSamples& saxpy = r.benchmarks.at("saxpy_suite/BM_saxpy/1024");
  ASSERT_EQ(saxpy.samples.size(), 1u);
  EXPECT_EQ(saxpy.repetitions, 1);
  // One row is the mean of the run's iterations: a process's value, though fewer than kMinSamples rows.
  const std::optional<double> one = process_median(r, "saxpy_suite/BM_saxpy/1024", kMinSamples);
  ASSERT_TRUE(one.has_value());
  EXPECT_NEAR(*one, 12.24, 1e-9);
  BenchmarkSamples own = saxpy;
  own.samples_are_summaries = false;
  ResultsFile ours = r;
  ours.benchmarks["saxpy_suite/BM_saxpy/1024"] = own;
  EXPECT_EQ(process_median(ours, "saxpy_suite/BM_saxpy/1024", kMinSamples), std::nullopt)
      << "one timed run of our perf binary is still too few";
}

TEST(GbenchInput, TheNamesLeadBackToTheSuitesBenchmarks) {
  const ResultsFile r = load_gbench_results(testdata("gbench/repetitions.json"), "saxpy_suite", std::nullopt);
  for (const auto& [name, samples] : r.benchmarks) {
    const formats::GbenchName back = formats::gbench_from_our_name(name);
    EXPECT_EQ(back.error, "") << name;
    EXPECT_EQ(back.family, "saxpy_suite");
    EXPECT_EQ(back.run_name.rfind("BM_", 0), 0u) << back.run_name;
  }
  EXPECT_EQ(formats::gbench_from_our_name("saxpy_suite/BM_copy_x3cfloat_x3e/4096").run_name, "BM_copy<float>/4096");
}

TEST(GbenchInput, WithoutAGpuTheFileNamesNone) {
  const ResultsFile r = load_gbench_results(testdata("gbench/single.json"), "saxpy_suite", std::nullopt);
  EXPECT_EQ(r.gpu.name, "");
  EXPECT_EQ(r.gpu.slug, "") << "the caller that ran it says which GPU";
  // A context key of the harness's in another suite's file is that suite's business, not a GPU's name.
  const ResultsFile odd = parse_gbench_results(
      R"({"context": {"gpu_name": "x\n::error::y"}, "benchmarks": [{"run_name": "BM_a", "run_type": "iteration", "real_time": 2.0, "time_unit": "us"}]})",
      "team.json", "s", std::nullopt);
  EXPECT_EQ(odd.gpu.name, "");
}

TEST(GbenchInput, TheHarnessCountersAreNotRead) {
  const ResultsFile r =
      parse_gbench_results(one_row("BM_a/1", R"(, "cycles": 7.0, "throttled": 1, "bytes": 4096, "sm_clock_mhz": 900)"),
                           "team.json", "s", std::nullopt);
  const BenchmarkSamples& a = r.benchmarks.at("s/BM_a/1");
  EXPECT_EQ(a.unit, "us") << "a counter 'cycles' is not a cycle count of the harness";
  EXPECT_EQ(a.samples, std::vector<double>{1.5});
  EXPECT_EQ(a.throttled, 0);
  EXPECT_EQ(a.bytes, 0.0);
  EXPECT_TRUE(r.sm_clock_mhz.empty());
}

// Google Benchmark 1.8 writes its flags as the literal true (SkipWithMessage: skipped and skip_message;
// SkipWithError: error_occurred and error_message) and a user counter as a number in the same object.
TEST(GbenchInput, ItsSkipAndErrorFlagsAreTheLiteralTrueAndCountersOfTheirNamesAreNeither) {
  const ResultsFile r =
      load_gbench_results(testdata("gbench/skips_and_flag_counters.json"), "saxpy_suite", std::nullopt);
  const BenchmarkSamples& skipped = r.benchmarks.at("saxpy_suite/BM_needs_two_gpus/1024");
  EXPECT_TRUE(skipped.skipped);
  EXPECT_FALSE(skipped.error) << "a skip is no error";
  EXPECT_EQ(skipped.skip_message, "needs two GPUs");
  EXPECT_TRUE(skipped.samples.empty());
  const BenchmarkSamples& failed = r.benchmarks.at("saxpy_suite/BM_fails");
  EXPECT_TRUE(failed.error);
  EXPECT_FALSE(failed.skipped);
  EXPECT_EQ(failed.error_message, "result mismatch at index 3");
  const BenchmarkSamples& counted = r.benchmarks.at("saxpy_suite/BM_counts/4096");
  EXPECT_FALSE(counted.error) << "a counter named error_occurred (1.0) is the suite's own";
  EXPECT_FALSE(counted.skipped) << "a counter named skipped (3.0) is the suite's own";
  EXPECT_EQ(counted.samples, std::vector<double>{1.5});

  EXPECT_FALSE(parse_gbench_results(one_row("BM_a/1", R"(, "skipped": 0, "error_occurred": 0.5)"), "team.json", "s",
                                    std::nullopt)
                   .benchmarks.at("s/BM_a/1")
                   .skipped);
  expect_words(parse_error(one_row("BM_a/1", R"(, "skipped": "yes")")), {"team.json", "skipped", "expected true or false"});
}

TEST(GbenchInput, TwoRunsThatMapOntoOneNameAreRefused) {
  const std::string text = R"({"benchmarks": [
    {"run_name": "BM_x/1/manual_time", "run_type": "iteration", "real_time": 2.0, "time_unit": "us"},
    {"run_name": "BM_x/1/manual_time", "run_type": "iteration", "real_time": 2.1, "time_unit": "us"},
    {"run_name": "BM_x/1/real_time", "run_type": "iteration", "real_time": 9.0, "time_unit": "us"}]})";
  expect_words(parse_error(text, "s"),
               {"team.json: benchmarks[2].run_name is 'BM_x/1/real_time'", "'BM_x/1/manual_time'",
                "both map onto the benchmark name 's/BM_x/1'", "give them different names"});
}

TEST(GbenchInput, HostileNamesAreEscapedReversiblyOrRefused) {
  const ResultsFile r =
      parse_gbench_results(one_row(R"(BM_a\n::error::x|<img src=1>`@all`)"), "team.json", "s", std::nullopt);
  ASSERT_EQ(r.benchmarks.size(), 1u);
  const std::string& name = r.benchmarks.begin()->first;
  EXPECT_EQ(name, "s/BM_a_x0a::error::x_x7c_x3cimg_x20src_x3d1_x3e_x60_x40all_x60");
  EXPECT_EQ(formats::gbench_from_our_name(name).run_name, "BM_a\n::error::x|<img src=1>`@all`");

  const std::string huge = parse_error(one_row("BM_" + std::string(10000, 'x')));
  expect_words(huge, {"team.json: benchmarks[0]:", "characters long once mapped onto a benchmark name (at most 160",
                      "shorten its name in the suite"});
  EXPECT_LT(huge.size(), 400u) << "the message quotes the name's start only";

  std::string control_characters;
  for (int i = 0; i < 60; ++i) control_characters += "\\u0001";  // JSON's escape: the string holds U+0001
  const std::string control = parse_error(one_row("BM_" + control_characters));
  EXPECT_EQ(control.find('\x01'), std::string::npos) << "escaped in the message";
  expect_words(control, {"\\x01", "once mapped"});
}

TEST(GbenchInput, TheSuitesNameMustBeAFamilyName) {
  expect_words(parse_error(one_row("BM_a"), "my-suite"),
               {"team.json", "family name 'my-suite' has '-' at 2", "name the suite with a family name (docs/suites.md)"});
  expect_words(parse_error(one_row("BM_a"), ""), {"family name '' is empty"});
}

TEST(GbenchInput, AGivenGpuIsHeldToTheNameRule) {
  formats::GpuIdentity bad = h100();
  bad.name = "NVIDIA\n::error::H100";
  expect_words(parse_error(one_row("BM_a"), "s", bad),
               {"team.json: the GPU it ran on: GPU name 'NVIDIA\\x0a::error::H100' has a control character"});
  formats::GpuIdentity slug = h100();
  slug.slug = "../etc";
  expect_words(parse_error(one_row("BM_a"), "s", slug), {"GPU slug '../etc'"});
}

TEST(GbenchInput, MalformedFilesAreRefusedSayingWhatToDo) {
  expect_words(parse_error("{"), {"team.json", "not valid JSON"});
  expect_words(parse_error("[]"), {"team.json: the top level is an array", "re-run the suite with --benchmark_out=FILE"});
  expect_words(parse_error(R"({"context": {}})"), {"has no 'benchmarks' array", "--benchmark_out_format=json"});
  expect_words(parse_error(R"({"benchmarks": []})"), {"empty", "the suite ran no benchmark; check its --benchmark_filter"});
  expect_words(parse_error(R"({"benchmarks": [{"run_name": "BM_a", "run_type": "aggregate", "real_time": 2.0}]})"),
               {"only aggregate rows", "run the suite without --benchmark_report_aggregates_only"});
  expect_words(parse_error(R"({"benchmarks": [{"run_type": "iteration"}]})"),
               {"team.json: benchmarks[0].run_name is missing", "Google Benchmark >= 1.5"});
  expect_words(parse_error(R"({"benchmarks": [{"run_name": "BM_a", "run_type": "iteration", "real_time": NaN, "time_unit": "ns"}]})"),
               {"team.json: benchmarks[0] ('saxpy_suite/BM_a').real_time is NaN", "check the suite's timing code"});
  expect_words(parse_error(R"({"benchmarks": [{"run_name": "BM_a", "run_type": "iteration", "real_time": 0, "time_unit": "ns"}]})"),
               {"real_time is zero"});
  expect_words(parse_error(R"({"benchmarks": [{"run_name": "BM_a", "run_type": "iteration", "real_time": 1, "time_unit": "weeks"}]})"),
               {"time_unit is 'weeks', not one of ns, us, ms, s"});
  expect_words(parse_error(R"({"benchmarks": [{"run_name": "BM_a", "run_type": "other"}]})"),
               {"run_type is 'other', neither iteration nor aggregate"});
  expect_words(testing::input_error_of([] { load_gbench_results(testdata("gbench/none.json"), "s", std::nullopt); }),
               {"cannot open", "did the suite write its --benchmark_out file?"});
}

}  // namespace
}  // namespace gpuperf::gate
