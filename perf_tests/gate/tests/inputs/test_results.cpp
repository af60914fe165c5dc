// Reading Google Benchmark JSON: the fixtures, and every kind of bad input with the words its message
// must contain (file, what is wrong, what to do).
#include <gtest/gtest.h>

#include <initializer_list>

#include "formats/input_error.h"
#include "formats/measuring_method.h"
#include "gate/inputs/results.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::testdata;
using testing::expect_words;

// The message of the InputError that loading `file` throws ("" if none).
std::string load_error(const std::string& file) {
  return testing::input_error_of([&] { load_results(testdata(file)); });
}

TEST(ResultsInput, ReadsContextSamplesCountersAndConvertsUnits) {
  const ResultsFile r = load_results(testdata("results_run1.json"));
  EXPECT_EQ(r.gpu.name, "NVIDIA H200");
  EXPECT_EQ(r.gpu.slug, "nvidia-h200");
  EXPECT_EQ(r.gpu.compute_capability, "9.0");
  EXPECT_EQ(r.gpu.sm_count, 132);
  EXPECT_EQ(r.gpu.git_commit, "abc123");
  ASSERT_EQ(r.benchmarks.size(), 3u) << "keyed by run_name, aggregates ignored";

  const BenchmarkSamples& reduce9 = r.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432");
  EXPECT_EQ(reduce9.unit, "us");
  EXPECT_EQ(reduce9.samples.size(), 30u);
  EXPECT_EQ(reduce9.repetitions, 30);
  EXPECT_EQ(reduce9.bytes, 134217728.0);
  EXPECT_NEAR(median(reduce9.samples), 42.1, 0.5);

  const BenchmarkSamples& reduce1 = r.benchmarks.at("reduction/reduce1_interleaved_divergent/n:1048576");
  EXPECT_NEAR(median(reduce1.samples), 9.1, 0.1) << "nanoseconds converted to microseconds";

  const BenchmarkSamples& chase = r.benchmarks.at("smem_latency/pointer_chase/stride:1");
  EXPECT_EQ(chase.unit, "cycles");
  EXPECT_NEAR(median(chase.samples), 31.0, 0.5) << "the cycles counter is the sample, not real_time";
}

TEST(ResultsInput, RegistrationSuffixesOfRunNameAreStripped) {
  EXPECT_EQ(benchmark_name_from_run_name("reduction/reduce9/n:1024/iterations:1/manual_time"),
            "reduction/reduce9/n:1024");
  EXPECT_EQ(benchmark_name_from_run_name("a/b/n:1/min_time:0.500/repeats:30/manual_time/threads:2"), "a/b/n:1");
  EXPECT_EQ(benchmark_name_from_run_name("reduction/reduce9/n:1024"), "reduction/reduce9/n:1024");
  EXPECT_EQ(benchmark_name_from_run_name("occupancy/sweep/block:256/waves:4"), "occupancy/sweep/block:256/waves:4");
  EXPECT_EQ(benchmark_name_from_run_name("manual_time"), "manual_time") << "the first component always stays";
}

TEST(ResultsInput, ThrottledSamplesAreCountedNotKept) {
  const ResultsFile r = load_results(testdata("results_throttled.json"));
  const BenchmarkSamples& b = r.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432");
  EXPECT_EQ(b.throttled, 27);
  EXPECT_EQ(b.samples.size(), 3u);
}

TEST(ResultsInput, ErrorOccurredIsKeptWithItsMessage) {
  const ResultsFile r = load_results(testdata("results_error.json"));
  const BenchmarkSamples& b = r.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432");
  EXPECT_TRUE(b.error);
  EXPECT_EQ(b.error_message, "mismatch at index 17: expected 3.5, got 0");
}

TEST(ResultsInput, MissingFile) {
  expect_words(load_error("no_such_results.json"),
               {"cannot open", "no_such_results.json", "No such file", "check the path"});
}

TEST(ResultsInput, TruncatedJson) {
  expect_words(load_error("bad_truncated.json"),
               {"bad_truncated.json", "not valid JSON", "truncated", "write it again"});
}

TEST(ResultsInput, CorruptJson) {
  expect_words(load_error("bad_not_json.json"), {"bad_not_json.json", "not valid JSON", "corrupt"});
}

TEST(ResultsInput, NumberTooLargeForADouble) {
  // Found by the fuzzer: valid JSON, but the parser cannot hold the number and threw past the gate.
  try {
    parse_results(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 1e999}]})", "huge.json");
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    expect_words(e.what(), {"huge.json", "too large", "corrupt", "write it again"});
  }
}

TEST(ResultsInput, EmptyFile) { expect_words(load_error("bad_empty_file.json"), {"bad_empty_file.json", "empty"}); }

TEST(ResultsInput, EmptyBenchmarksArray) {
  expect_words(load_error("bad_empty_benchmarks.json"), {"bad_empty_benchmarks.json", "empty", "no samples at all"});
}

TEST(ResultsInput, OnlyAggregates) {
  expect_words(load_error("bad_only_aggregates.json"), {"only aggregate", "--benchmark_report_aggregates_only"});
}

TEST(ResultsInput, NanTimeAsGoogleBenchmarkWritesIt) {
  expect_words(load_error("bad_nan_time.json"),
               {"bad_nan_time.json", "benchmarks[0]", "reduction/reduce9_shfl_down_last_warp", "real_time is NaN"});
}

TEST(ResultsInput, ZeroTime) { expect_words(load_error("bad_zero_time.json"), {"real_time is zero", "positive"}); }

TEST(ResultsInput, NegativeTime) { expect_words(load_error("bad_negative_time.json"), {"real_time is negative"}); }

// Finite as written, but no number of microseconds once converted: judged "+inf%" AMBIGUOUS, and recorded
// as a null or zero median, before the check was made after the conversion.
TEST(ResultsInput, TimesThatOverflowOrUnderflowInMicrosecondsAreRefused) {
  expect_words(load_error("bad_time_overflow.json"),
               {"bad_time_overflow.json", "benchmarks[0]", "real_time is 1e+303 s, which is inf us",
                "expected a positive time of 1e-09 to 1e+15 us", "check the timing code"});
  expect_words(load_error("bad_time_underflow.json"),
               {"bad_time_underflow.json", "real_time is 5e-324 ns, which is 0 us"});
  const auto cycles_error = [](const char* cycles) {
    return testing::input_error_of([&] {
      parse_results(std::string(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 1,
                                    "time_unit": "us", "cycles": )") + cycles + "}]}",
                    "inline.json");
    });
  };
  expect_words(cycles_error("1e300"), {"inline.json", "cycles is 1e+300 cycles, above 1e+15 cycles"});
  EXPECT_EQ(cycles_error("40"), "");
}

TEST(ResultsInput, TimeOfWrongType) { expect_words(load_error("bad_time_string.json"), {"real_time is a string"}); }

TEST(ResultsInput, MissingRunName) { expect_words(load_error("bad_missing_run_name.json"), {"benchmarks[0].run_name is missing", "Google Benchmark >= 1.5"}); }

TEST(ResultsInput, UnknownTimeUnit) { expect_words(load_error("bad_time_unit.json"), {"fortnights", "ns, us, ms, s"}); }

TEST(ResultsInput, InlineCases) {
  const auto error_of = [](const std::string& text) {
    try {
      parse_results(text, "inline.json");
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  expect_words(error_of("[1, 2]"), {"inline.json", "top level is an array"});
  expect_words(error_of(R"({"context": {}})"), {"no 'benchmarks' array"});
  expect_words(error_of(R"({"benchmarks": {"a": 1}})"), {"'benchmarks' is an object"});
  expect_words(error_of(R"({"benchmarks": [3]})"), {"benchmarks[0]", "is a number"});
  expect_words(error_of(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "time_unit": "us"}]})"),
               {"('a/b')", "real_time is missing"});
  expect_words(error_of(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": Infinity,
                            "time_unit": "us"}]})"),
               {"real_time is infinite"});
  expect_words(error_of(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 1,
                            "time_unit": "us", "throttled": "yes"}]})"),
               {"throttled is a string"});
  expect_words(error_of(R"({"context": [], "benchmarks": []})"), {"'context' is an array"});
}

TEST(ResultsInput, NonFiniteTokensInsideStringsAreLeftAlone) {
  const ResultsFile r = parse_results(
      R"({"context": {"git_commit": "NaN-Infinity"}, "benchmarks": [{"run_name": "a/NaN", "run_type": "iteration",
          "error_occurred": true, "error_message": "got NaN \" Infinity"}]})",
      "inline.json");
  EXPECT_EQ(r.gpu.git_commit, "NaN-Infinity");
  EXPECT_EQ(r.benchmarks.at("a/NaN").error_message, "got NaN \" Infinity");
}

TEST(ResultsInput, SkippedBenchmarkIsRecorded) {
  const ResultsFile r = parse_results(
      R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "skipped": true, "skip_message": "no GPU"}]})",
      "inline.json");
  EXPECT_TRUE(r.benchmarks.at("a/b").skipped);
  EXPECT_EQ(r.benchmarks.at("a/b").skip_message, "no GPU");
}

TEST(ResultsInput, EachFileGivesOneProcessMedian) {
  constexpr const char* kReduce9 = "reduction/reduce9_shfl_down_last_warp/n:33554432";
  const ResultsFile run1 = load_results(testdata("results_run1.json"));
  const ResultsFile run2 = load_results(testdata("results_run2.json"));
  const ResultsFile throttled = load_results(testdata("results_throttled.json"));
  const double median1 = median(run1.benchmarks.at(kReduce9).samples);
  EXPECT_EQ(process_median(run1, kReduce9, 5), median1);
  EXPECT_EQ(process_median(run1, kReduce9, 30), median1) << "30 valid samples are enough for 30";
  EXPECT_FALSE(process_median(run1, kReduce9, 31).has_value());
  EXPECT_FALSE(process_median(run1, "no/such/benchmark", 1).has_value());
  EXPECT_FALSE(process_median(throttled, kReduce9, 5).has_value()) << "3 valid samples";
  EXPECT_EQ(process_median(throttled, kReduce9, 3), median(throttled.benchmarks.at(kReduce9).samples));
  EXPECT_EQ(process_medians({run2, throttled, run1}, kReduce9, 5),
            (std::vector<double>{median(run2.benchmarks.at(kReduce9).samples), median1}))
      << "file order, the throttled process left out";
  EXPECT_TRUE(process_medians({}, kReduce9, 5).empty());
}

void expect_same_results(const ResultsFile& a, const ResultsFile& b) {
  EXPECT_EQ(a.gpu.slug, b.gpu.slug);
  EXPECT_EQ(a.gpu.uuid, b.gpu.uuid);
  ASSERT_EQ(a.benchmarks.size(), b.benchmarks.size());
  for (const auto& [name, x] : a.benchmarks) {
    const BenchmarkSamples& y = b.benchmarks.at(name);
    EXPECT_EQ(x.samples, y.samples) << name;
    EXPECT_EQ(x.unit, y.unit) << name;
    EXPECT_EQ(x.repetitions, y.repetitions) << name;
    EXPECT_EQ(x.throttled, y.throttled) << name;
    EXPECT_EQ(x.power_capped, y.power_capped) << name;
    EXPECT_EQ(x.shared_gpu, y.shared_gpu) << name;
    EXPECT_EQ(x.bytes, y.bytes) << name;
    EXPECT_EQ(x.flops, y.flops) << name;
    EXPECT_EQ(x.error, y.error) << name;
    EXPECT_EQ(x.error_message, y.error_message) << name;
  }
}

TEST(ResultsInput, ValidJsonAndTextWithANonFiniteTokenReadAlike) {
  // Valid JSON takes the fast reader; a bare NaN (in a field the gate ignores) sends the text through the
  // reader of Google Benchmark's non-finite tokens. Both must read the same samples.
  for (const char* fixture : {"results_run1.json", "results_throttled.json", "results_error.json"}) {
    const std::string text = testing::read_fixture_text(fixture);
    const std::size_t cpu_time = text.find("\"cpu_time\": ");
    ASSERT_NE(cpu_time, std::string::npos);
    const std::size_t value = cpu_time + std::string("\"cpu_time\": ").size();
    const std::string with_nan = text.substr(0, value) + "NaN" + text.substr(text.find(',', value));
    expect_same_results(parse_results(text, fixture), parse_results(with_nan, fixture));
  }
}

TEST(ResultsInput, NestedIgnoredFieldsAreSkipped) {
  const ResultsFile r = parse_results(
      R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 2,
          "counters": {"x": [1, {"y": [2, 3]}], "z": null}, "time_unit": "us", "label": "k"},
          {"run_name": "a/b", "run_type": "iteration", "real_time": 4, "time_unit": "us"}],
          "context": {"gpu_slug": "h"}})",
      "inline.json");
  EXPECT_EQ(r.benchmarks.at("a/b").samples, (std::vector<double>{2.0, 4.0}));
  EXPECT_EQ(r.gpu.slug, "h");
}

// A repeated key used to be read as nlohmann's parser does, the last one winning without a word: a hand
// edit or a bad merge silently changed a sample. Refused with its path, in fields the gate reads or not.
TEST(ResultsInput, RepeatedKeysAreRefusedWithTheirPath) {
  const auto error = [](const std::string& text) {
    try {
      parse_results(text, "inline.json");
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  expect_words(error(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 1,
                     "real_time": 2, "time_unit": "us"}]})"),
               {"inline.json", "benchmarks[0].real_time", "appears twice"});
  expect_words(error(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 1,
                     "time_unit": "us"}], "context": {"gpu_slug": "g"}, "context": {"gpu_slug": "h"}})"),
               {"key context appears twice"});
  expect_words(error(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 1,
                     "time_unit": "us", "label": "k", "label": "l"}, 3]})"),
               {"benchmarks[0].label appears twice"});
  expect_words(error(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": 1,
                     "time_unit": "us", "counters": {"x y": 1, "x y": 2}}]})"),
               {"benchmarks[0].counters['x y'] appears twice"});
  // Also on the slow path (a bare NaN makes the text invalid JSON for the fast one).
  expect_words(error(R"({"benchmarks": [{"run_name": "a/b", "run_type": "iteration", "real_time": NaN,
                     "time_unit": "us", "time_unit": "ms"}]})"),
               {"benchmarks[0].time_unit appears twice"});
}

// A 30,000-character name crashed perf_gate --filter (std::regex overflowed the stack): names are bounded
// where they are read.
TEST(ResultsInput, AnOverlongBenchmarkNameIsRefused) {
  const std::string name(30000, 'a');
  try {
    parse_results(R"({"benchmarks": [{"run_name": ")" + name +
                      R"(", "run_type": "iteration", "real_time": 1, "time_unit": "us"}]})",
                  "inline.json");
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    expect_words(e.what(), {"inline.json", "benchmarks[0]", "30000 characters long", "at most 160"});
    EXPECT_LT(std::string(e.what()).size(), 600u) << "the message quotes the start of the name only";
  }
  try {
    parse_results(R"({"benchmarks": [], "fingerprints": {")" + name + R"(": {}}})", "inline.json");
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    expect_words(e.what(), {"inline.json", "fingerprints", "30000 characters long"});
  }
  const std::string longest = "f/" + std::string(kMaxBenchmarkNameLength - 2, 'a');
  EXPECT_NO_THROW(parse_results(R"({"benchmarks": [{"run_name": ")" + longest +
                                    R"(", "run_type": "iteration", "real_time": 1, "time_unit": "us"}]})",
                                "inline.json"));
}

// A results file of our perf binary with one benchmark, its context naming `method` ("" names none).
std::string results_of_method(const std::string& method) {
  const std::string field = method.empty() ? "" : R"(, "measuring_method": )" + method;
  return R"({"context": {"gpu_name": "NVIDIA H200", "gpu_slug": "nvidia-h200")" + field +
         R"(}, "benchmarks": [{"run_name": "f/v/n:1", "run_type": "iteration", "real_time": 1, "time_unit": "us"}]})";
}

TEST(ResultsInput, TheMeasuringMethodIsReadFromTheContext) {
  EXPECT_EQ(parse_results(results_of_method(R"("2")"), "run.json").measuring_method, 2) << "as the binary writes it";
  EXPECT_EQ(parse_results(results_of_method("3"), "run.json").measuring_method, 3) << "another writer's integer";
  EXPECT_EQ(parse_results(results_of_method(""), "run.json").measuring_method, formats::kMeasuringMethodUnrecorded)
      << "a file written before the method was versioned";
  for (const char* bad : {R"("two")", "0", "-2", "2.5", R"("")"}) {
    expect_words(testing::input_error_of([&] { parse_results(results_of_method(bad), "run.json"); }),
                 {"run.json", "context.measuring_method", "positive whole number", "re-run the perf binary"});
  }
}

TEST(ResultsInput, FilesOfDifferentMeasuringMethodsAreNotPooled) {
  const ResultsFile old_method = parse_results(results_of_method(""), "old.json");
  const ResultsFile new_method = parse_results(results_of_method(R"("2")"), "new.json");
  EXPECT_EQ(common_measuring_method({new_method, new_method}), 2);
  ResultsFile team_suite = new_method;  // a team suite's file: its method is its own, never compared
  team_suite.measuring_method = 0;
  EXPECT_EQ(common_measuring_method({team_suite, new_method}), 2);
  EXPECT_EQ(common_measuring_method({team_suite}), 0);
  expect_words(testing::input_error_of([&] { pool_results({old_method, team_suite, new_method}); }),
               {"results measured with methods 1 and 2", "'old.json' with 1", "'new.json' with 2",
                "run them again with one build"});
}

TEST(ResultsInput, FilesOfDifferentGpusAreNotPooled) {
  try {
    pool_results({load_results(testdata("results_run1.json")), load_results(testdata("results_other_gpu.json"))});
    FAIL() << "expected an InputError";
  } catch (const formats::InputError& e) {
    expect_words(e.what(), {"different GPUs", "results_other_gpu.json", "nvidia-h100-80gb-hbm3"});
  }
}

}  // namespace
}  // namespace gpuperf::gate
