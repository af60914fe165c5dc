// Reading and writing baselines: the fixture, every kind of bad baseline, and the round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>

#include "gate/baseline.h"
#include "gate/input_error.h"
#include "gate_test_support.h"

namespace gpuperf::gate {
namespace {

using testing::testdata;

std::string load_error(const std::string& file) {
  try {
    load_baseline(testdata(file));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

void expect_words(const std::string& message, std::initializer_list<const char*> words) {
  ASSERT_FALSE(message.empty()) << "expected an InputError";
  for (const char* word : words) EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' in: " << message;
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
    } catch (const InputError& e) {
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
  } catch (const InputError& e) {
    expect_words(e.what(), {"cut.json", "truncated"});
  }
  try {
    parse_baseline(R"({"schema_version": 2, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 3},
                       "benchmarks": {"a/b": {"unit": "us", "median": 1, "process_medians": [1, -2]}}})",
                   "neg.json");
    FAIL();
  } catch (const InputError& e) {
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
  } catch (const InputError& e) {
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

}  // namespace
}  // namespace gpuperf::gate
