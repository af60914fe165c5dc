#pragma once
// Reading the fields of a parsed JSON input: the one reader every input of the harness and the gate goes
// through, so that every message has one form,
//   <source>: <path> <what is wrong>, expected <what> - <what to do>
// e.g. "b.json: benchmarks['a/b'].tolerance_pct is NaN, expected a finite number >= 0 ... - fix the file
// by hand, or re-record it: ...". Every problem is a formats::InputError (input_error.h).

#include <cstddef>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "formats/sample_units.h"

namespace gpuperf::formats {

// How a time or cycle count is read: the unit a file writes it in, and what one of those is in the unit it
// is judged in (formats/sample_units.h): {"ns", 1e-3, "us"} reads Google Benchmark's nanoseconds.
struct SampleUnit {
  const char* written = kUnitMicroseconds;  // "ns", "us", "ms", "s", "cycles"
  double scale = 1.0;                       // one `written` in `unit` [unit / written]
  const char* unit = kUnitMicroseconds;     // kUnitMicroseconds or kUnitCycles
};
// The unit a baseline or a history writes its medians in, "us" or "cycles", read as it is.
SampleUnit sample_unit_as_written(const std::string& unit);

// "" when `written` (in u.written) is a sample the gate can judge: after conversion to u.unit within
// [kSmallestSample, kLargestSample]. Else what is wrong, for "<field> is <why>, <sample_expectation(u)>":
// "NaN", "zero", "negative", "infinite", "1e+303 s, which is inf us", "5e-324 ns, which is 0 us",
// "1e-12 us, below 1e-09 us". Every reader of a time checks with it (directly, or through
// ObjectReader::sample).
std::string why_not_sample(double written, const SampleUnit& u);
// "expected a positive time of 1e-09 to 1e+15 us" (of cycles: "a positive count of ... cycles").
std::string sample_expectation(const SampleUnit& u);

// Reads the fields of one JSON object. `source` names the file, `path` the object in it ("" for the top
// level, "benchmarks['a/b']", "cases[3] ('a/b/n:1')"), `hint` what to do about a problem. InputError when
// `object` is not an object. A field that is null reads as absent. The reader refers to `object`: keep
// the document alive while it is used.
class ObjectReader {
 public:
  ObjectReader(const nlohmann::json& object, std::string source, std::string path, std::string hint);

  // The same object, saying `hint` instead (a field whose problem has another remedy).
  ObjectReader with_hint(std::string hint) const;
  // The object under `key`, required / optional; `member` is the value of one of the object's own entries
  // (a map keyed by names): its path is "<path>['<name>']".
  ObjectReader object(const char* key) const;
  std::optional<ObjectReader> optional_object(const char* key) const;
  ObjectReader member(const std::string& name, const nlohmann::json& value) const;
  // The `index`-th element of the array under `key`, which must be an object: "<path>.<key>[<index>]".
  ObjectReader element(const char* key, std::size_t index, const nlohmann::json& value) const;

  // The field's value; nullptr when absent or null. require: InputError "is missing" instead of nullptr.
  const nlohmann::json* find(const char* key) const;
  const nlohmann::json& require(const char* key) const;

  std::string string(const char* key) const;            // required, any string
  std::string non_empty_string(const char* key) const;  // required, not ""
  std::optional<std::string> optional_string(const char* key) const;
  // A number, or one of the non-finite strings of json_input.h ("NaN", "Infinity"), as a double.
  double number(const char* key) const;
  std::optional<double> optional_number(const char* key) const;
  double positive(const char* key) const;  // positive and finite
  // A time or cycle count in u.written, returned in u.unit: InputError where why_not_sample says why not.
  double sample(const char* key, const SampleUnit& u) const;
  // Such an array, required and not checked for being empty: each element in u.unit.
  std::vector<double> samples(const char* key, const SampleUnit& u) const;
  std::optional<double> optional_positive(const char* key) const;
  std::optional<double> optional_non_negative(const char* key) const;  // finite and >= 0
  // A JSON integer (1.0 is not one) in [minimum, maximum].
  long long integer(const char* key, long long minimum = std::numeric_limits<long long>::min(),
                    long long maximum = std::numeric_limits<long long>::max()) const;
  // The document's "schema_version", which must be the one `reads`: InputError "schema_version is N, this
  // perf_gate reads M" otherwise. (One wording for every format the gate reads.)
  void schema_version(long long reads) const;
  std::optional<long long> optional_integer(const char* key,
                                            long long minimum = std::numeric_limits<long long>::min(),
                                            long long maximum = std::numeric_limits<long long>::max()) const;
  // true, false, or a number (not zero: true), as Google Benchmark writes a flag counter; false when absent.
  bool optional_flag(const char* key) const;
  const nlohmann::json& array(const char* key) const;  // required
  const nlohmann::json* optional_array(const char* key) const;
  // Optional arrays (empty when absent) of non-empty strings and of positive, finite numbers.
  std::vector<std::string> strings(const char* key) const;
  std::vector<double> positive_numbers(const char* key) const;

  // The same checks of a value found elsewhere (an array's element, a map's entry); `where` is its path.
  std::string string_at(const nlohmann::json& value, const std::string& where) const;
  double number_at(const nlohmann::json& value, const std::string& where) const;
  double positive_at(const nlohmann::json& value, const std::string& where) const;
  double sample_at(const nlohmann::json& value, const std::string& where, const SampleUnit& u) const;
  long long integer_at(const nlohmann::json& value, const std::string& where,
                       long long minimum = std::numeric_limits<long long>::min(),
                       long long maximum = std::numeric_limits<long long>::max()) const;

  // The path of a field of this object: "benchmarks['a/b'].median", "gpu" at the top level.
  std::string field(const std::string& key) const;
  // InputError "<source>: <where> <what> - <hint>"; fail names a field, fail_here the object itself.
  [[noreturn]] void fail_at(const std::string& where, const std::string& what) const;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  [[noreturn]] void fail_here(const std::string& what) const;

  const nlohmann::json& raw() const { return object_; }
  const std::string& source() const { return source_; }
  const std::string& path() const { return path_; }
  const std::string& hint() const { return hint_; }

 private:
  const nlohmann::json& object_;
  std::string source_;
  std::string path_;
  std::string hint_;
};

// "['a/b']": how a path names the entry of a map keyed by names (benchmarks, families, GPU slugs).
std::string quoted_key(const std::string& name);

}  // namespace gpuperf::formats
