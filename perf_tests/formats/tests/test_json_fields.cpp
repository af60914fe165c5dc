// The one reader of JSON fields: each getter's values, and each refusal's whole message (file, the field's
// path, what is wrong, what was expected, what to do).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"

namespace gpuperf::formats {
namespace {

using nlohmann::json;

constexpr const char* kHint = "write it again";

// The document the tests read; non-finite numbers as Google Benchmark writes them.
const json& document() {
  static const json doc = parse_json_document(R"({
    "name": "H200", "empty": "", "none": null, "pi": 3.5, "zero": 0, "minus": -2, "nan": NaN, "inf": Infinity,
    "count": 7, "big": 18446744073709551615, "yes": true, "one": 1, "no": false,
    "gpu": {"slug": "nvidia-h200", "sm_count": 132},
    "benchmarks": {"a/b": {"median": 2.5}},
    "cases": [{"name": "x"}, 3],
    "uuids": ["GPU-a", "GPU-b"], "bad_uuids": ["GPU-a", ""], "medians": [1.5, 2], "bad_medians": [1, -1]})",
                                                 "doc.json");
  return doc;
}

ObjectReader top() { return ObjectReader(document(), "doc.json", "", kHint); }

// The message of the InputError that `read` throws; "accepted" when it throws none.
template <typename Read>
std::string error_of(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(JsonFields, ReadsEachKindOfField) {
  const ObjectReader r = top();
  EXPECT_EQ(r.string("name"), "H200");
  EXPECT_EQ(r.string("empty"), "");
  EXPECT_EQ(r.optional_string("none"), std::nullopt) << "null reads as absent";
  EXPECT_EQ(r.optional_string("absent"), std::nullopt);
  EXPECT_DOUBLE_EQ(r.number("pi"), 3.5);
  EXPECT_TRUE(std::isnan(r.number("nan"))) << "non-finite strings are numbers";
  EXPECT_DOUBLE_EQ(r.positive("pi"), 3.5);
  EXPECT_EQ(r.optional_positive("absent"), std::nullopt);
  EXPECT_EQ(r.optional_non_negative("zero"), 0.0);
  EXPECT_EQ(r.integer("count", 0, 10), 7);
  EXPECT_EQ(r.optional_integer("absent"), std::nullopt);
  EXPECT_TRUE(r.optional_flag("yes"));
  EXPECT_TRUE(r.optional_flag("one")) << "Google Benchmark writes flag counters as numbers";
  EXPECT_FALSE(r.optional_flag("no"));
  EXPECT_FALSE(r.optional_flag("absent"));
  EXPECT_EQ(r.object("gpu").integer("sm_count"), 132);
  EXPECT_FALSE(r.optional_object("absent").has_value());
  EXPECT_EQ(r.array("cases").size(), 2u);
  EXPECT_EQ(r.optional_array("absent"), nullptr);
  EXPECT_EQ(r.strings("uuids"), (std::vector<std::string>{"GPU-a", "GPU-b"}));
  EXPECT_TRUE(r.strings("absent").empty());
  EXPECT_EQ(r.positive_numbers("medians"), (std::vector<double>{1.5, 2.0}));
}

TEST(JsonFields, EveryRefusalNamesTheFileThePathAndWhatToDo) {
  const ObjectReader r = top();
  EXPECT_EQ(error_of([&] { r.string("absent"); }), "doc.json: absent is missing - write it again");
  EXPECT_EQ(error_of([&] { r.string("none"); }), "doc.json: none is missing - write it again");
  EXPECT_EQ(error_of([&] { r.string("pi"); }), "doc.json: pi is a number, expected a string - write it again");
  EXPECT_EQ(error_of([&] { r.non_empty_string("empty"); }), "doc.json: empty is empty - write it again");
  EXPECT_EQ(error_of([&] { r.number("name"); }), "doc.json: name is a string, expected a number - write it again");
  EXPECT_EQ(error_of([&] { r.positive("zero"); }),
            "doc.json: zero is zero, expected a positive, finite number - write it again");
  EXPECT_EQ(error_of([&] { r.positive("nan"); }),
            "doc.json: nan is NaN, expected a positive, finite number - write it again");
  EXPECT_EQ(error_of([&] { r.optional_positive("minus"); }),
            "doc.json: minus is negative, expected a positive, finite number - write it again");
  EXPECT_EQ(error_of([&] { r.optional_non_negative("minus"); }),
            "doc.json: minus is negative, expected a finite number >= 0 - write it again");
  EXPECT_EQ(error_of([&] { r.optional_non_negative("inf"); }),
            "doc.json: inf is infinite, expected a finite number >= 0 - write it again");
  EXPECT_EQ(error_of([&] { r.integer("pi"); }), "doc.json: pi is a number, expected an integer - write it again");
  EXPECT_EQ(error_of([&] { r.integer("count", 0, 5); }),
            "doc.json: count is 7, expected an integer from 0 to 5 - write it again");
  EXPECT_EQ(error_of([&] { r.integer("minus", 0); }), "doc.json: minus is -2, expected an integer >= 0 - write it again");
  EXPECT_EQ(error_of([&] { r.integer("big", 0, std::numeric_limits<int>::max()); }),
            "doc.json: big is 18446744073709551615, expected an integer from 0 to 2147483647 - write it again")
      << "an unsigned value beyond long long is not read as negative";
  EXPECT_EQ(error_of([&] { r.optional_flag("name"); }),
            "doc.json: name is a string, expected true or false - write it again");
  EXPECT_EQ(error_of([&] { r.object("name"); }), "doc.json: name is a string, expected an object - write it again");
  EXPECT_EQ(error_of([&] { r.array("gpu"); }), "doc.json: gpu is an object, expected an array - write it again");
  EXPECT_EQ(error_of([&] { r.strings("name"); }),
            "doc.json: name is a string, expected an array of strings - write it again");
  EXPECT_EQ(error_of([&] { r.strings("bad_uuids"); }), "doc.json: bad_uuids[1] is empty - write it again");
  EXPECT_EQ(error_of([&] { r.positive_numbers("bad_medians"); }),
            "doc.json: bad_medians[1] is negative, expected a positive, finite number - write it again");
  EXPECT_EQ(error_of([] { ObjectReader(json::array(), "doc.json", "", kHint); }),
            "doc.json: the top level is an array, expected an object - write it again");
}

TEST(JsonFields, NestedReadersExtendThePath) {
  const ObjectReader r = top();
  const ObjectReader gpu = r.object("gpu");
  EXPECT_EQ(error_of([&] { gpu.string("sm_count"); }),
            "doc.json: gpu.sm_count is a number, expected a string - write it again");
  const ObjectReader benchmarks = r.object("benchmarks");
  const ObjectReader entry = benchmarks.member("a/b", benchmarks.raw().at("a/b"));
  EXPECT_EQ(error_of([&] { entry.integer("median"); }),
            "doc.json: benchmarks['a/b'].median is a number, expected an integer - write it again");
  const json& cases = r.array("cases");
  EXPECT_EQ(r.element("cases", 0, cases[0]).string("name"), "x");
  EXPECT_EQ(error_of([&] { r.element("cases", 1, cases[1]); }),
            "doc.json: cases[1] is a number, expected an object - write it again");
  EXPECT_EQ(error_of([&] { gpu.with_hint("re-record it").fail_here("names no GPU"); }),
            "doc.json: gpu names no GPU - re-record it");
  EXPECT_EQ(error_of([&] { gpu.integer_at(json("x"), gpu.field("list") + "[2]", 1); }),
            "doc.json: gpu.list[2] is a string, expected an integer >= 1 - write it again");
}

TEST(JsonFields, SchemaVersionIsTheOneTheReaderReads) {
  // The reader refers to the document: each is read while it lives.
  const auto read_version = [](const char* text) {
    const json doc = parse_json_document(text, "v.json");
    return error_of([&] { ObjectReader(doc, "v.json", "", kHint).schema_version(1); });
  };
  EXPECT_EQ(read_version(R"({"schema_version": 1})"), "accepted");
  EXPECT_EQ(read_version(R"({"schema_version": 2})"), "v.json: schema_version is 2, this perf_gate reads 1 - write it again");
  EXPECT_EQ(read_version(R"({"schema_version": "1"})"),
            "v.json: schema_version is a string, expected an integer - write it again");
  EXPECT_EQ(read_version("{}"), "v.json: schema_version is missing - write it again");
}

TEST(JsonFields, TimesAreCheckedOnceInTheirUnit) {
  const SampleUnit seconds{"s", 1e6, kUnitMicroseconds};
  const SampleUnit nanoseconds{"ns", 1e-3, kUnitMicroseconds};
  const SampleUnit us = sample_unit_as_written(kUnitMicroseconds);
  const SampleUnit cycles = sample_unit_as_written(kUnitCycles);
  EXPECT_EQ(why_not_sample(2.5, seconds), "");
  EXPECT_EQ(why_not_sample(40.0, cycles), "");
  EXPECT_EQ(why_not_sample(kSmallestSample, us), "") << "the range's ends are in it";
  EXPECT_EQ(why_not_sample(kLargestSample, us), "");
  EXPECT_EQ(why_not_sample(1e303, seconds), "1e+303 s, which is inf us") << "finite as written, not once converted";
  EXPECT_EQ(why_not_sample(5e-324, nanoseconds), "5e-324 ns, which is 0 us");
  EXPECT_EQ(why_not_sample(5e-324, us), "5e-324 us, below 1e-09 us") << "a ratio to it would be infinite";
  EXPECT_EQ(why_not_sample(2e9, seconds), "2e+09 s, 2e+15 us, above 1e+15 us");
  EXPECT_EQ(why_not_sample(1e300, cycles), "1e+300 cycles, above 1e+15 cycles");
  EXPECT_EQ(why_not_sample(std::nan(""), seconds), "NaN");
  EXPECT_EQ(why_not_sample(0.0, seconds), "zero");
  EXPECT_EQ(why_not_sample(-1.0, seconds), "negative");
  EXPECT_EQ(sample_expectation(cycles), "expected a positive count of 1e-09 to 1e+15 cycles");

  const json doc = parse_json_document(R"({"time": 1e303, "ok": 2.5, "good": [1.5, 2], "medians": [1.5, 5e-324], "name": "x"})", "t.json");
  const ObjectReader r(doc, "t.json", "", kHint);
  EXPECT_DOUBLE_EQ(r.sample("ok", seconds), 2.5e6) << "returned in microseconds";
  const std::vector<double> good = r.samples("good", nanoseconds);
  ASSERT_EQ(good.size(), 2u);
  EXPECT_DOUBLE_EQ(good[0], 1.5e-3);
  EXPECT_DOUBLE_EQ(good[1], 2e-3);
  EXPECT_EQ(error_of([&] { r.sample("time", seconds); }),
            "t.json: time is 1e+303 s, which is inf us, expected a positive time of 1e-09 to 1e+15 us - write it again");
  EXPECT_EQ(error_of([&] { r.samples("medians", us); }),
            "t.json: medians[1] is 5e-324 us, below 1e-09 us, expected a positive time of 1e-09 to 1e+15 us - "
            "write it again");
  EXPECT_EQ(error_of([&] { r.samples("absent", us); }), "t.json: absent is missing - write it again");
  EXPECT_EQ(error_of([&] { r.samples("name", us); }), "t.json: name is a string, expected an array of numbers - write it again");
}

}  // namespace
}  // namespace gpuperf::formats
