// Reading and writing baselines: the fixture, every kind of bad baseline, and the round trip.
#include <gtest/gtest.h>

#include <initializer_list>

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
  EXPECT_EQ(b.recorded.runs, 2);
  EXPECT_DOUBLE_EQ(b.default_tolerance_pct, 3.0);
  EXPECT_DOUBLE_EQ(b.family_tolerance_pct.at("smem_latency"), 1.0);
  ASSERT_EQ(b.benchmarks.size(), 4u);
  const BaselineEntry& e = b.benchmarks.at("reduction/reduce9_shfl_down_last_warp/n:33554432");
  EXPECT_EQ(e.unit, "us");
  EXPECT_EQ(e.samples.size(), 60u);
  EXPECT_EQ(e.tolerance_pct, 2.0);
  EXPECT_FALSE(b.benchmarks.at("smem_latency/pointer_chase/stride:1").tolerance_pct.has_value());
}

TEST(BaselineInput, MissingFile) {
  expect_words(load_error("no_such_baseline.json"), {"cannot open", "no_such_baseline.json", "update_baseline.sh"});
}

TEST(BaselineInput, UnknownSchemaVersionSaysWhichAreSupported) {
  expect_words(load_error("bad_baseline_schema2.json"),
               {"bad_baseline_schema2.json", "schema_version 2 is not supported", "schema_version 1"});
}

TEST(BaselineInput, MissingSchemaVersion) {
  expect_words(load_error("bad_baseline_no_schema.json"), {"schema_version is missing"});
}

TEST(BaselineInput, ZeroMedian) {
  expect_words(load_error("bad_baseline_zero_median.json"),
               {"benchmarks['reduction/reduce9_shfl_down_last_warp/n:33554432'].median", "is zero", "positive"});
}

TEST(BaselineInput, EmptySamples) {
  expect_words(load_error("bad_baseline_empty_samples.json"), {".samples is empty"});
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
    parse_baseline(R"({"schema_version": 1, "gpu": {"slug": "g"}, "defaults": {"tolerance_pct": 3},
                       "benchmarks": {"a/b": {"unit": "us", "median": 1, "samples": [1, -2]}}})",
                   "neg.json");
    FAIL();
  } catch (const InputError& e) {
    expect_words(e.what(), {"samples[1] is negative"});
  }
}

TEST(BaselineInput, WrittenTextReadsBackTheSame) {
  const Baseline b = load_baseline(testdata("baseline_h200.json"));
  const std::string text = baseline_to_text(b);
  const Baseline again = parse_baseline(text, "round-trip");
  EXPECT_EQ(again.gpu.slug, b.gpu.slug);
  EXPECT_EQ(again.family_tolerance_pct, b.family_tolerance_pct);
  ASSERT_EQ(again.benchmarks.size(), b.benchmarks.size());
  for (const auto& [name, entry] : b.benchmarks) {
    EXPECT_EQ(again.benchmarks.at(name).samples, entry.samples) << name;
    EXPECT_EQ(again.benchmarks.at(name).tolerance_pct, entry.tolerance_pct) << name;
  }
  EXPECT_NE(text.find("\"samples\": [4.99,5.0,5.01,5.0,5.02]"), std::string::npos) << "samples on one line";
}

}  // namespace
}  // namespace gpuperf::gate
