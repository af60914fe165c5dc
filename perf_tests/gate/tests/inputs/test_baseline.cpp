// Reading and writing baselines: the fixture, every kind of bad baseline, and the round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "formats/measuring_method.h"
#include "gate/inputs/baseline.h"
#include "gate/tests/support/gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::testdata;
using testing::expect_words;

std::string load_error(const std::string& file) {
  return testing::input_error_of([&] { load_baseline(testdata(file)); });
}

TEST(BaselineInput, ReadsTheFixture) {
  const Baseline b = load_baseline(testdata("baseline_h200.json"));
  EXPECT_EQ(b.gpu.slug, "nvidia-h200");
  EXPECT_EQ(b.gpu.sm_count, 132);
  EXPECT_EQ(b.recorded.commit, "abc123");
  EXPECT_EQ(b.recorded.runs, 10);
  EXPECT_DOUBLE_EQ(b.default_tolerance_pct, 3.0);
  EXPECT_DOUBLE_EQ(b.family_tolerance_pct.at("smem_latency"), 1.0);
  ASSERT_EQ(b.benchmarks.size(), 4u);
  const BaselineEntry& e = b.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432");
  EXPECT_EQ(e.unit, "us");
  EXPECT_EQ(e.process_medians.size(), 10u);
  EXPECT_NEAR(e.median, geometric_mean(e.process_medians), 1e-4) << "the file's median: their geometric mean";
  EXPECT_EQ(e.tolerance_pct, 2.0);
  EXPECT_FALSE(b.benchmarks.at("smem_latency/pointer_chase/stride:1").tolerance_pct.has_value());
}

TEST(BaselineInput, SchemaOneIsReadAndItsPooledSamplesSplitIntoProcesses) {
  const Baseline b = load_baseline(testdata("baseline_h200_schema1.json"));
  const nlohmann::json file = nlohmann::json::parse(testing::read_fixture_text("baseline_h200_schema1.json"));
  EXPECT_EQ(b.recorded.runs, 2);
  EXPECT_EQ(b.recorded.samples_per_run, 30);
  for (const char* name : {"reduction/reduce9_shfl_down_last_warp/n:33554432", "smem_latency/pointer_chase/stride:1"}) {
    const auto samples = file["benchmarks"][name]["samples"].get<std::vector<double>>();
    ASSERT_EQ(samples.size(), 60u);
    const BaselineEntry& e = b.benchmarks.at(name);
    ASSERT_EQ(e.process_medians.size(), 2u) << name << ": recorded.runs processes of samples_per_run";
    EXPECT_DOUBLE_EQ(e.process_medians[0], median({samples.begin(), samples.begin() + 30})) << name;
    EXPECT_DOUBLE_EQ(e.process_medians[1], median({samples.begin() + 30, samples.end()})) << name;
    EXPECT_DOUBLE_EQ(e.median, geometric_mean(e.process_medians))
        << "the pooled samples' median gives way to the centre of the processes, which every ratio is taken against";
  }
  const BaselineEntry& removed = b.benchmarks.at("reduction/reduce0_removed_variant/n:1024");
  EXPECT_EQ(removed.process_medians, std::vector<double>{5.0}) << "5 samples are no 2 x 30: one process";
}

TEST(BaselineInput, SchemaOneWithoutItsCountsIsOneProcess) {
  const std::string text = R"({"schema_version": 1, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 3},
                               "benchmarks": {"a/b": {"unit": "us", "median": 2, "samples": [1, 2, 3, 4],
                                                      "spread_pct": 0.5}}})";
  EXPECT_EQ(parse_baseline(text, "old.json").benchmarks.at("a/b").process_medians, std::vector<double>{2.5});
  const std::string two = R"({"schema_version": 1, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 3},
                              "recorded": {"runs": 2, "samples_per_run": 2},
                              "benchmarks": {"a/b": {"unit": "us", "median": 2, "samples": [1, 2, 3, 4]}}})";
  EXPECT_EQ(parse_baseline(two, "old.json").benchmarks.at("a/b").process_medians, (std::vector<double>{1.5, 3.5}));
  expect_words([] {
    try {
      parse_baseline(R"({"schema_version": 1, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 3},
                         "benchmarks": {"a/b": {"unit": "us", "median": 1, "samples": []}}})",
                     "old.json");
    } catch (const formats::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  }(),
               {"old.json", ".samples is empty"});
}

TEST(BaselineInput, GeometricMean) {
  EXPECT_DOUBLE_EQ(geometric_mean({1.0, 4.0}), 2.0);
  EXPECT_DOUBLE_EQ(geometric_mean({3.0}), 3.0);
  EXPECT_TRUE(std::isnan(geometric_mean({})));
}

TEST(BaselineInput, MissingFile) {
  expect_words(load_error("no_such_baseline.json"), {"cannot open", "no_such_baseline.json", "update_baseline.sh"});
}

TEST(BaselineInput, UnknownSchemaVersionSaysWhichAreSupported) {
  expect_words(load_error("bad_baseline_schema3.json"),
               {"bad_baseline_schema3.json", "schema_version 3 is not supported", "reads schema_version 1 to 2"});
}

TEST(BaselineInput, MissingSchemaVersion) {
  expect_words(load_error("bad_baseline_no_schema.json"), {"schema_version is missing"});
}

TEST(BaselineInput, ZeroMedian) {
  expect_words(load_error("bad_baseline_zero_median.json"),
               {"benchmarks['reduction/reduce9_shfl_down_last_warp/n:33554432'].median", "is zero", "positive"});
}

TEST(BaselineInput, EmptyProcessMedians) {
  expect_words(load_error("bad_baseline_empty_process_medians.json"),
               {"benchmarks['reduction/reduce9_shfl_down_last_warp/n:33554432'].process_medians is empty",
                "nothing to compare with"});
}

TEST(BaselineInput, NoDefaults) { expect_words(load_error("bad_baseline_no_defaults.json"), {"defaults is missing"}); }

TEST(BaselineInput, MedianOfWrongType) {
  expect_words(load_error("bad_baseline_median_string.json"), {".median is a string", "expected a number"});
}

TEST(BaselineInput, NoSlug) { expect_words(load_error("bad_baseline_no_slug.json"), {"gpu.slug is missing"}); }

TEST(BaselineInput, TruncatedAndNegativeSample) {
  const std::string good = testing::read_fixture_text("baseline_h200.json");
  try {
    parse_baseline(good.substr(0, good.size() / 3), "cut.json");
    FAIL();
  } catch (const formats::InputError& e) {
    expect_words(e.what(), {"cut.json", "truncated"});
  }
  try {
    parse_baseline(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 3},
                       "benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1, -2]}}})",
                   "neg.json");
    FAIL();
  } catch (const formats::InputError& e) {
    expect_words(e.what(), {"process_medians[1] is negative"});
  }
}

// A minimal valid baseline with more `defaults` and a `recorded` as given (JSON object members).
std::string baseline_text(const std::string& more_defaults, const std::string& recorded = "") {
  const std::string defaults = R"("tolerance_pct": 4)" + (more_defaults.empty() ? "" : ", " + more_defaults);
  return R"({"schema_version": 2, "gpu": {"slug": "g"}, "recorded": {)" + recorded + R"(},
             "defaults": {)" + defaults + R"(},
             "benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1]}}})";
}

std::string parse_error(const std::string& text) {
  try {
    parse_baseline(text, "b.json");
  } catch (const formats::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(BaselineInput, ReadsTheOptionalSameGpuFields) {
  const Baseline b =
      parse_baseline(baseline_text(R"("same_gpu_tolerance_pct": 2)", R"("gpu_uuids": ["GPU-a", "GPU-b"])"), "b.json");
  EXPECT_EQ(b.same_gpu_tolerance_pct, 2.0);
  EXPECT_EQ(b.recorded.gpu_uuids, (std::vector<std::string>{"GPU-a", "GPU-b"}));

  const Baseline fixture = load_baseline(testdata("baseline_h200.json"));
  EXPECT_FALSE(fixture.same_gpu_tolerance_pct.has_value()) << "a file without them still reads";
  EXPECT_TRUE(fixture.recorded.gpu_uuids.empty());
}

TEST(BaselineInput, HarnessVersionIsOptionalAndReadBackInItsPlace) {
  EXPECT_EQ(load_baseline(testdata("baseline_h200.json")).recorded.harness_version, "") << "old files lack it";
  const std::string recorded = R"("commit": "abc", "harness_version": "1.2.3", "runs": 10)";
  Baseline b = parse_baseline(baseline_text("", recorded), "b.json");
  EXPECT_EQ(b.recorded.harness_version, "1.2.3");
  const std::string text = baseline_to_text(b);
  EXPECT_NE(text.find("\"commit\": \"abc\",\n    \"harness_version\": \"1.2.3\",\n    \"runs\": 10,"),
            std::string::npos)
      << "after the commit it was recorded from: " << text.substr(0, 400);
  EXPECT_EQ(parse_baseline(text, "round-trip").recorded.harness_version, "1.2.3");
  b.recorded.harness_version.clear();
  EXPECT_EQ(baseline_to_text(b).find("harness_version"), std::string::npos) << "left out when unknown";

  expect_words(parse_error(baseline_text("", R"("harness_version": 1.2)")),
               {"b.json", "recorded.harness_version is a number", "expected a string"});
}

TEST(BaselineInput, TheMeasuringMethodIsReadWrittenBackAndUnrecordedWhenAbsent) {
  EXPECT_EQ(load_baseline(testdata("baseline_h200.json")).recorded.measuring_method,
            formats::kMeasuringMethodUnrecorded)
      << "a file recorded before the method was versioned";
  const Baseline b = parse_baseline(baseline_text("", R"("runs": 10, "measuring_method": 2)"), "b.json");
  EXPECT_EQ(b.recorded.measuring_method, 2);
  const std::string text = baseline_to_text(b);
  EXPECT_NE(text.find("\"measuring_method\": 2"), std::string::npos) << text.substr(0, 400);
  EXPECT_EQ(parse_baseline(text, "round-trip").recorded.measuring_method, 2);
  const Baseline old = parse_baseline(baseline_text("", R"("runs": 10)"), "b.json");
  EXPECT_EQ(baseline_to_text(old).find("measuring_method"), std::string::npos)
      << "absent stays absent: it reads as unrecorded";
  for (const char* bad : {"0", "\"2\"", "2.5"}) {
    expect_words(parse_error(baseline_text("", std::string(R"("measuring_method": )") + bad)),
                 {"b.json", "recorded.measuring_method"});
  }
}

TEST(BaselineInput, SameGpuToleranceMustBeAPositiveNumber) {
  expect_words(parse_error(baseline_text(R"("same_gpu_tolerance_pct": 0)")),
               {"b.json", "defaults.same_gpu_tolerance_pct is zero", "expected a positive, finite number"});
  expect_words(parse_error(baseline_text(R"("same_gpu_tolerance_pct": -1.5)")),
               {"defaults.same_gpu_tolerance_pct is negative", "positive"});
  expect_words(parse_error(baseline_text(R"("same_gpu_tolerance_pct": "2")")),
               {"defaults.same_gpu_tolerance_pct is a string", "expected a number"});
  expect_words(parse_error(baseline_text(R"("same_gpu_tolerance_pct": Infinity)")),
               {"defaults.same_gpu_tolerance_pct is infinite"});
}

TEST(BaselineInput, GpuUuidsMustBeNonEmptyStrings) {
  expect_words(parse_error(baseline_text("", R"("gpu_uuids": "GPU-a")")),
               {"recorded.gpu_uuids is a string", "expected an array of strings"});
  expect_words(parse_error(baseline_text("", R"("gpu_uuids": ["GPU-a", 7])")),
               {"recorded.gpu_uuids[1] is a number", "expected a string"});
  expect_words(parse_error(baseline_text("", R"("gpu_uuids": [""])")), {"recorded.gpu_uuids[0] is empty"});
}

TEST(BaselineInput, SameGpuFieldsRoundTripAndStayOutWhenUnset) {
  Baseline b = load_baseline(testdata("baseline_h200.json"));
  const std::string without = baseline_to_text(b);
  EXPECT_EQ(without.find("same_gpu_tolerance_pct"), std::string::npos) << "an old file rewrites without them";
  EXPECT_EQ(without.find("gpu_uuids"), std::string::npos);

  b.same_gpu_tolerance_pct = 2.0;
  b.recorded.gpu_uuids = {"GPU-0abc", "GPU-1234"};
  const std::string text = baseline_to_text(b);
  const Baseline again = parse_baseline(text, "round-trip");
  EXPECT_EQ(again.same_gpu_tolerance_pct, 2.0);
  EXPECT_EQ(again.recorded.gpu_uuids, b.recorded.gpu_uuids);
  EXPECT_EQ(baseline_to_text(again), text) << "a rewrite changes nothing";
  EXPECT_NE(text.find("  \"defaults\": {\n    \"tolerance_pct\": 3.0,\n    \"same_gpu_tolerance_pct\": 2.0\n  },"),
            std::string::npos)
      << "right after the default it replaces: " << text.substr(0, 600);
  EXPECT_LT(text.find("\"samples_per_run\""), text.find("\"gpu_uuids\"")) << "last in recorded";
  EXPECT_LT(text.find("\"gpu_uuids\""), text.find("\"defaults\""));
}

TEST(BaselineInput, WrittenTextReadsBackTheSame) {
  const Baseline b = load_baseline(testdata("baseline_h200.json"));
  const std::string text = baseline_to_text(b);
  const Baseline again = parse_baseline(text, "round-trip");
  EXPECT_EQ(again.gpu.slug, b.gpu.slug);
  EXPECT_EQ(again.family_tolerance_pct, b.family_tolerance_pct);
  ASSERT_EQ(again.benchmarks.size(), b.benchmarks.size());
  for (const auto& [name, entry] : b.benchmarks) {
    EXPECT_EQ(again.benchmarks.at(name).process_medians, entry.process_medians) << name;
    EXPECT_EQ(again.benchmarks.at(name).median, entry.median) << name;
    EXPECT_EQ(again.benchmarks.at(name).tolerance_pct, entry.tolerance_pct) << name;
  }
  EXPECT_NE(text.find("\"schema_version\": 2,"), std::string::npos);
  EXPECT_NE(text.find("\"process_medians\": [4.99,5.0,5.01,5.0,5.02,5.0,4.98,5.01,5.0,5.0]"), std::string::npos)
      << "process medians on one line";
}

// A baseline's tolerances were read without an upper bound: tolerance_pct 1e308 let a clear slowdown pass,
// where the CLI caps its options at 1000%. Every tolerance of the file is held to the same bound.
TEST(BaselineInput, TolerancesAreBoundedAsTheOptionsAre) {
  EXPECT_EQ(why_not_tolerance_pct(kMaxTolerancePct), "");
  EXPECT_EQ(why_not_tolerance_pct(0.0), "");
  EXPECT_EQ(why_not_tolerance_pct(1e308), "1e+308, above 1000");
  EXPECT_EQ(why_not_tolerance_pct(-1.0), "negative");
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1], "tolerance_pct": 1e308}}})"),
               {"b.json", "benchmarks['a/b'].tolerance_pct is 1e+308, above 1000", "at most 1000"});
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 1001},
                   "benchmarks": {}})"),
               {"defaults.tolerance_pct is 1001, above 1000"});
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "families": {"f": {"tolerance_pct": Infinity}}, "benchmarks": {}})"),
               {"families['f'].tolerance_pct is infinite"});
  expect_words(parse_error(baseline_text(R"("same_gpu_tolerance_pct": 5000)")),
               {"defaults.same_gpu_tolerance_pct is 5000, above 1000"});
  EXPECT_NO_THROW(parse_baseline(baseline_text(R"("same_gpu_tolerance_pct": 1000)"), "b.json"));
}

// A repeated key was read as nlohmann's parser does, the last one winning: a hand edit that added a second
// "tolerance_pct" silently decided the verdicts. Refused with the key's path.
TEST(BaselineInput, RepeatedKeysAreRefusedWithTheirPath) {
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1],
                                          "tolerance_pct": 2, "tolerance_pct": 50}}})"),
               {"b.json", "key benchmarks['a/b'].tolerance_pct appears twice"});
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1]},
                                  "a/b": {"unit": "us", "median": 9, "process_medians": [9]}}})"),
               {"key benchmarks['a/b'] appears twice"});
}

// A unit outside the known set was read, and every benchmark in it came out NOT_JUDGED ("unit mismatch",
// exit 77) instead of the file being refused.
TEST(BaselineInput, UnitsOutsideTheKnownSetAreRefused) {
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "benchmarks": {"a/b": {"unit": "parsecs", "median": 1, "process_medians": [1]}}})"),
               {"b.json", "benchmarks['a/b'].unit is \"parsecs\"", "\"us\" or \"cycles\""});
  EXPECT_NO_THROW(parse_baseline(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "benchmarks": {"a/b": {"unit": "cycles", "median": 1, "process_medians": [1]}}})",
                                 "b.json"));
}

// The rule: a median lies within [min, max] of its process medians (it is their geometric mean; the file
// keeps 7 significant digits of each, and rounding is monotone). A median of 1.00 over process medians of
// 42 us used to be printed as the baseline while the verdict was taken against the process medians.
TEST(BaselineInput, AMedianOutsideItsProcessMediansIsRefused) {
  const auto entry = [](const std::string& median, const std::string& process_medians) {
    return R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
               "benchmarks": {"a/b": {"unit": "us", "median": )" + median + R"(, "process_medians": )" +
           process_medians + "}}}";
  };
  expect_words(parse_error(entry("1.0", "[41.9, 42.3, 46.3]")),
               {"b.json", "benchmarks['a/b'].median is 1 us, outside its process_medians (41.9 to 46.3)"});
  expect_words(parse_error(entry("46.4", "[41.9, 42.3, 46.3]")), {"outside its process_medians"});
  EXPECT_NO_THROW(parse_baseline(entry("41.9", "[41.9, 42.3, 46.3]"), "b.json")) << "the ends are within";
  EXPECT_NO_THROW(parse_baseline(entry("46.30004", "[41.9, 42.3, 46.3]"), "b.json")) << "7-digit rounding";
  // Every committed baseline and baseline fixture satisfies it, as every recorded file does.
  for (const char* file : {"baseline_h200.json", "baseline_h200_canary.json", "baseline_h200_clocks.json",
                           "baseline_h200_fingerprints.json", "baseline_h200_schema1.json",
                           "fleet_baseline_h100.json", "fleet_baseline_h200.json"}) {
    EXPECT_NO_THROW(load_baseline(testdata(file))) << file;
  }
  for (const char* file : {"nvidia-h100-80gb-hbm3.json", "nvidia-h200.json"}) {
    EXPECT_NO_THROW(load_baseline(std::string(GATE_TESTDATA_DIR) + "/../../../baselines/" + file)) << file;
  }
}

// A misspelt optional key was read as absent: "same_gpu_tolerence_pct" moved the same-GPU tolerance from 2%
// to the 4% default and the run passed. Every object's keys are checked, naming the nearest known one.
// A baseline whose one benchmark has median 1.01 and `levels` as its machine_medians (a JSON value).
std::string baseline_with_machine_levels(const std::string& levels, const std::string& median = "1.01") {
  return R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
             "benchmarks": {"a/b": {"unit": "us", "median": )" + median +
         R"(, "process_medians": [1.0, 1.02], "machine_medians": )" + levels + "}}}";
}

TEST(BaselineInput, MachineMediansAreReadWrittenOnOneLineAndLeftOutWhenEmpty) {
  const Baseline b =
      parse_baseline(baseline_with_machine_levels(R"({"GPU-b": 1.02, "GPU-a": 1.0})"), "b.json");
  const BaselineEntry& e = b.benchmarks.at("a/b");
  ASSERT_EQ(e.machine_medians.size(), 2u);
  EXPECT_DOUBLE_EQ(e.machine_medians.at("GPU-a"), 1.0);
  EXPECT_DOUBLE_EQ(e.machine_medians.at("GPU-b"), 1.02);
  const std::string text = baseline_to_text(b);
  EXPECT_NE(text.find(R"("machine_medians": {"GPU-a":1.0,"GPU-b":1.02})"), std::string::npos) << text;
  EXPECT_EQ(parse_baseline(text, "again.json").benchmarks.at("a/b").machine_medians, e.machine_medians);
  Baseline one = b;
  one.benchmarks.at("a/b").machine_medians.clear();
  EXPECT_EQ(baseline_to_text(one).find("machine_medians"), std::string::npos) << "one GPU recorded: no key";
}

TEST(BaselineInput, MachineMediansAreValidated) {
  expect_words(parse_error(baseline_with_machine_levels(R"({"GPU-a": 1.01})")),
               {"benchmarks['a/b'].machine_medians", "holds 1 GPU", "two or more"});
  expect_words(parse_error(baseline_with_machine_levels(R"({"GPU-a": 1.0, "card-b": 1.02})")),
               {"machine_medians", "'card-b'", "does not start with GPU-"});
  expect_words(parse_error(baseline_with_machine_levels(R"({"GPU-a": 1.0, "GPU-b": -1})")),
               {"machine_medians.GPU-b is negative"});
  expect_words(parse_error(baseline_with_machine_levels(R"({"GPU-a": 1.0, "GPU-b": "1"})")),
               {"machine_medians.GPU-b is a string"});
  expect_words(parse_error(baseline_with_machine_levels(R"({"GPU-a": 1.011, "GPU-b": 1.03})")),
               {"median is 1.01 us", "outside its machine_medians (1.011 to 1.03)", "edited by hand"});
}

// The same with recorded.machine_groups `groups` (a JSON value): the GPUs recorded together.
std::string baseline_with_machine_groups(const std::string& groups) {
  std::string text = baseline_with_machine_levels(R"({"GPU-a": 1.0, "GPU-b": 1.02})");
  return text.insert(1, R"("recorded": {"gpu_uuids": ["GPU-a", "GPU-b"], "machine_groups": )" + groups + "}, ");
}

TEST(BaselineInput, MachineGroupsAreReadWrittenAndDerivedWhereAbsent) {
  const Baseline b = parse_baseline(baseline_with_machine_groups(R"([["GPU-a"], ["GPU-b"]])"), "b.json");
  EXPECT_EQ(b.recorded.machine_groups, (std::vector<std::vector<std::string>>{{"GPU-a"}, {"GPU-b"}}));
  EXPECT_EQ(parse_baseline(baseline_to_text(b), "again.json").recorded.machine_groups, b.recorded.machine_groups);
  // A file without the key (one host's recording before sessions were kept): one session of its GPUs.
  const Baseline old = parse_baseline(baseline_with_machine_levels(R"({"GPU-b": 1.02, "GPU-a": 1.0})"), "old.json");
  EXPECT_EQ(old.recorded.machine_groups, (std::vector<std::vector<std::string>>{{"GPU-a", "GPU-b"}}));
  Baseline one = b;
  one.benchmarks.at("a/b").machine_medians.clear();
  EXPECT_EQ(baseline_to_text(one).find("machine_groups"), std::string::npos) << "no machine levels: no key";
}

TEST(BaselineInput, MachineGroupsAreValidated) {
  expect_words(parse_error(baseline_with_machine_groups(R"([["GPU-a"]])")),
               {"recorded.machine_groups", "holds no GPU-b", "machine_medians", "one recording session"});
  expect_words(parse_error(baseline_with_machine_groups(R"([["GPU-a", "GPU-b"], ["GPU-b"]])")),
               {"machine_groups[1][0]", "repeats GPU-b", "machine_groups[0]"});
  expect_words(parse_error(baseline_with_machine_groups(R"([["GPU-a", "GPU-b"], []])")),
               {"machine_groups[1]", "non-empty list"});
  expect_words(parse_error(baseline_with_machine_groups(R"([["GPU-a", "card-b"]])")),
               {"machine_groups[0][1]", "does not start with GPU-"});
}

TEST(BaselineInput, UnknownKeysAreRefusedNamingTheNearestKnownOne) {
  expect_words(load_error("bad_baseline_misspelt_key.json"),
               {"bad_baseline_misspelt_key.json", "defaults.same_gpu_tolerence_pct is not a field the gate knows here",
                "did you mean `same_gpu_tolerance_pct`?", "baselines/README.md"});
  const auto with = [](const std::string& top, const std::string& entry) {
    return R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4}, )" + top +
           R"("benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1])" + entry + "}}}";
  };
  EXPECT_NO_THROW(parse_baseline(with("", ""), "b.json"));
  expect_words(parse_error(with("", R"(, "tolerence_pct": 2)")),
               {"b.json", "benchmarks['a/b'].tolerence_pct is not a field", "did you mean `tolerance_pct`?"});
  expect_words(parse_error(with(R"("families": {"a": {"tolerance": 2}}, )", "")),
               {"families['a'].tolerance is not a field", "(it knows tolerance_pct)"});
  expect_words(parse_error(with(R"("gpu_slug": "g", )", "")), {"b.json: gpu_slug is not a field"});
  expect_words(parse_error(with(R"("recorded": {"date": "d", "run": 3}, )", "")),
               {"recorded.run is not a field", "did you mean `runs`?"});
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g", "smcount": 1}, "defaults": {"tolerance_pct": 4},
                               "benchmarks": {}})"),
               {"gpu.smcount is not a field", "did you mean `sm_count`?"});
  // Schema 1's pooled samples are not schema 2's; a key that is no text for a console is shown escaped.
  expect_words(parse_error(with("", R"(, "samples": [1])")), {"benchmarks['a/b'].samples is not a field"});
  expect_words(parse_error(with("", ", \"\\u001b[31m\": 1")), {"\\x1b[31m is not a field"});
  // A family override named near, but not as, a family of the file's benchmarks is a misspelling.
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                               "families": {"smem_latncy": {"tolerance_pct": 10}},
                               "benchmarks": {"smem_latency/p/s:1": {"unit": "cycles", "median": 40, "process_medians": [40]}}})"),
               {"families['smem_latncy'] names no family of the file's benchmarks", "did you mean `smem_latency`?"});
  // Every committed baseline and baseline fixture holds only known keys (see also the test above).
  for (const char* file : {"baseline_h200.json", "baseline_h200_schema1.json", "baseline_h200_fingerprints.json"}) {
    EXPECT_TRUE(load_baseline(testdata(file)).warnings.empty()) << file;
  }
}

// Valid, but unlikely meant: one warning per file, naming the first such tolerance and what it likely means.
TEST(BaselineInput, ImplausibleTolerancesAreWarnedOfOncePerFile) {
  const auto warnings_of = [](const std::string& defaults, const std::string& entry) {
    return parse_baseline(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {)" + defaults + R"(},
                               "benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1])" + entry + "}}}",
                          "b.json")
        .warnings;
  };
  EXPECT_TRUE(warnings_of(R"("tolerance_pct": 4, "same_gpu_tolerance_pct": 2)", "").empty());
  EXPECT_TRUE(warnings_of(R"("tolerance_pct": 0.1)", R"(, "tolerance_pct": 50)").empty()) << "the ends are plausible";
  std::vector<std::string> w = warnings_of(R"("tolerance_pct": 4, "same_gpu_tolerance_pct": 0.02)", "");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0], "b.json: defaults.same_gpu_tolerance_pct is 0.02 (percent), below 0.1%: if it is a fraction, write it "
                  "in percent (0.02 as a fraction is 2%) - check the file's tolerances (baselines/README.md)");
  w = warnings_of(R"("tolerance_pct": 0.04, "same_gpu_tolerance_pct": 0.02)", R"(, "tolerance_pct": 400)");
  ASSERT_EQ(w.size(), 1u) << "once per file";
  expect_words(w[0], {"defaults.tolerance_pct is 0.04", "2 more tolerances of the file outside 0.1% to 50%"});
  w = warnings_of(R"("tolerance_pct": 400)", "");
  ASSERT_EQ(w.size(), 1u);
  expect_words(w[0], {"above 50%: a benchmark may slow down by more than half and pass"});

  // load_baseline writes them once per file and process.
  const std::string path = ::testing::TempDir() + "/implausible_tolerance_baseline.json";
  {
    std::ofstream file(path);
    file << R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 0.03}, "benchmarks": {}})";
  }
  std::ostringstream first;
  std::ostringstream second;
  load_baseline(path, first);
  load_baseline(path, second);
  expect_words(first.str(), {"warning: ", "implausible_tolerance_baseline.json: defaults.tolerance_pct is 0.03"});
  EXPECT_EQ(second.str(), "");
  std::remove(path.c_str());
}

// Finite and positive as written, but a ratio to 5e-324 us is infinite: judged "+inf%" before.
TEST(BaselineInput, MediansOutsideTheRangeOfTimesAreRefused) {
  expect_words(load_error("bad_baseline_tiny_median.json"),
               {"bad_baseline_tiny_median.json", "median is 5e-324 us, below 1e-09 us",
                "expected a positive time of 1e-09 to 1e+15 us"});
  expect_words(parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "benchmarks": {"a/b": {"unit": "cycles", "median": 1, "process_medians": [1, 1e300]}}})"),
               {"benchmarks['a/b'].process_medians[1] is 1e+300 cycles, above 1e+15 cycles"});
}

TEST(BaselineInput, AnOverlongBenchmarkNameIsRefused) {
  const std::string name(30000, 'x');
  const std::string message = parse_error(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 4},
                   "benchmarks": {")" + name + R"(": {"unit": "us", "median": 1, "process_medians": [1]}}})");
  expect_words(message, {"b.json", "30000 characters long", "at most 160"});
  EXPECT_LT(message.size(), 600u);
}

}  // namespace
}  // namespace gpuperf::gate
