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

namespace gpuperf::formats {

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
