#include "formats/json_fields.h"

#include <charconv>
#include <cmath>
#include <utility>

#include "formats/input_error.h"
#include "formats/json_input.h"

namespace gpuperf::formats {

using nlohmann::json;

namespace {

// "an integer >= 1", "an integer from 0 to 100000000": what a range check expects.
std::string integer_range(long long minimum, long long maximum) {
  constexpr long long kLowest = std::numeric_limits<long long>::min();
  constexpr long long kHighest = std::numeric_limits<long long>::max();
  if (minimum == kLowest && maximum == kHighest) return "an integer";
  if (maximum == kHighest) return "an integer >= " + std::to_string(minimum);
  if (minimum == kLowest) return "an integer <= " + std::to_string(maximum);
  return "an integer from " + std::to_string(minimum) + " to " + std::to_string(maximum);
}

// A number as a message shows it, in the fewest digits that read back as it: "1e+303", "inf", "5e-324", "46.3".
std::string shown_sample_value(double value) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr);
}

}  // namespace

SampleUnit sample_unit_as_written(const std::string& unit) {
  if (unit == kUnitCycles) return {kUnitCycles, 1.0, kUnitCycles};
  return {kUnitMicroseconds, 1.0, kUnitMicroseconds};
}

std::string why_not_sample(double written, const SampleUnit& u) {
  // What is wrong as written comes first: "NaN", "zero" and "negative" need no unit to be understood.
  if (std::string why = why_not_positive_finite(written); !why.empty()) return why;
  const double value = written * u.scale;
  if (value >= kSmallestSample && value <= kLargestSample) return "";
  const std::string as_written = shown_sample_value(written) + " " + u.written;
  if (value == 0.0 || std::isinf(value)) return as_written + ", which is " + shown_sample_value(value) + " " + u.unit;
  const bool below = value < kSmallestSample;
  const std::string converted = u.scale == 1.0 ? as_written : as_written + ", " + shown_sample_value(value) + " " + u.unit;
  return converted + (below ? ", below " : ", above ") + shown_sample_value(below ? kSmallestSample : kLargestSample) +
         " " + u.unit;
}

std::string sample_expectation(const SampleUnit& u) {
  const bool cycles = std::string(u.unit) == kUnitCycles;
  return std::string("expected a positive ") + (cycles ? "count" : "time") + " of " + shown_sample_value(kSmallestSample) +
         " to " + shown_sample_value(kLargestSample) + " " + u.unit;
}

std::string quoted_key(const std::string& name) { return "['" + name + "']"; }

ObjectReader::ObjectReader(const json& object, std::string source, std::string path, std::string hint)
    : object_(object), source_(std::move(source)), path_(std::move(path)), hint_(std::move(hint)) {
  if (!object_.is_object()) fail_here("is " + describe_json_type(object_) + ", expected an object");
}

ObjectReader ObjectReader::with_hint(std::string hint) const { return ObjectReader(object_, source_, path_, std::move(hint)); }

ObjectReader ObjectReader::object(const char* key) const { return ObjectReader(require(key), source_, field(key), hint_); }

std::optional<ObjectReader> ObjectReader::optional_object(const char* key) const {
  if (find(key) == nullptr) return std::nullopt;
  return object(key);
}

ObjectReader ObjectReader::member(const std::string& name, const json& value) const {
  return ObjectReader(value, source_, path_ + quoted_key(name), hint_);
}

ObjectReader ObjectReader::element(const char* key, std::size_t index, const json& value) const {
  return ObjectReader(value, source_, field(key) + "[" + std::to_string(index) + "]", hint_);
}

const json* ObjectReader::find(const char* key) const {
  const auto it = object_.find(key);
  return it == object_.end() || it->is_null() ? nullptr : &*it;
}

const json& ObjectReader::require(const char* key) const {
  const json* value = find(key);
  if (value == nullptr) fail(key, "is missing");
  return *value;
}

std::string ObjectReader::string(const char* key) const { return string_at(require(key), field(key)); }

std::string ObjectReader::non_empty_string(const char* key) const {
  std::string value = string(key);
  if (value.empty()) fail(key, "is empty");
  return value;
}

std::optional<std::string> ObjectReader::optional_string(const char* key) const {
  if (find(key) == nullptr) return std::nullopt;
  return string(key);
}

double ObjectReader::number(const char* key) const { return number_at(require(key), field(key)); }

std::optional<double> ObjectReader::optional_number(const char* key) const {
  if (find(key) == nullptr) return std::nullopt;
  return number(key);
}

double ObjectReader::positive(const char* key) const { return positive_at(require(key), field(key)); }

std::optional<double> ObjectReader::optional_positive(const char* key) const {
  if (find(key) == nullptr) return std::nullopt;
  return positive(key);
}

double ObjectReader::sample(const char* key, const SampleUnit& u) const { return sample_at(require(key), field(key), u); }

std::vector<double> ObjectReader::samples(const char* key, const SampleUnit& u) const {
  const json& list = require(key);
  if (!list.is_array()) fail(key, "is " + describe_json_type(list) + ", expected an array of numbers");
  std::vector<double> values;
  values.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    values.push_back(sample_at(list[i], field(key) + "[" + std::to_string(i) + "]", u));
  }
  return values;
}

std::optional<double> ObjectReader::optional_non_negative(const char* key) const {
  const std::optional<double> value = optional_number(key);
  if (value && !(std::isfinite(*value) && *value >= 0.0)) {
    fail(key, "is " + (std::isfinite(*value) ? std::string("negative") : why_not_positive_finite(*value)) +
                  ", expected a finite number >= 0");
  }
  return value;
}

long long ObjectReader::integer(const char* key, long long minimum, long long maximum) const {
  return integer_at(require(key), field(key), minimum, maximum);
}

void ObjectReader::schema_version(long long reads) const {
  const long long version = integer("schema_version");
  if (version != reads) fail("schema_version", "is " + std::to_string(version) + ", this perf_gate reads " + std::to_string(reads));
}

std::optional<long long> ObjectReader::optional_integer(const char* key, long long minimum, long long maximum) const {
  if (find(key) == nullptr) return std::nullopt;
  return integer(key, minimum, maximum);
}

bool ObjectReader::optional_flag(const char* key) const {
  const json* value = find(key);
  if (value == nullptr) return false;
  if (value->is_boolean()) return value->get<bool>();
  if (value->is_number()) return value->get<double>() != 0.0;
  fail(key, "is " + describe_json_type(*value) + ", expected true or false");
}

const json& ObjectReader::array(const char* key) const {
  const json& value = require(key);
  if (!value.is_array()) fail(key, "is " + describe_json_type(value) + ", expected an array");
  return value;
}

const json* ObjectReader::optional_array(const char* key) const {
  if (find(key) == nullptr) return nullptr;
  return &array(key);
}

std::vector<std::string> ObjectReader::strings(const char* key) const {
  const json* list = find(key);
  if (list == nullptr) return {};
  if (!list->is_array()) fail(key, "is " + describe_json_type(*list) + ", expected an array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string where = field(key) + "[" + std::to_string(i) + "]";
    out.push_back(string_at((*list)[i], where));
    if (out.back().empty()) fail_at(where, "is empty");
  }
  return out;
}

std::vector<double> ObjectReader::positive_numbers(const char* key) const {
  const json* list = find(key);
  if (list == nullptr) return {};
  if (!list->is_array()) fail(key, "is " + describe_json_type(*list) + ", expected an array of numbers");
  std::vector<double> values;
  values.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    values.push_back(positive_at((*list)[i], field(key) + "[" + std::to_string(i) + "]"));
  }
  return values;
}

std::string ObjectReader::string_at(const json& value, const std::string& where) const {
  if (!value.is_string()) fail_at(where, "is " + describe_json_type(value) + ", expected a string");
  return value.get<std::string>();
}

double ObjectReader::number_at(const json& value, const std::string& where) const {
  const std::optional<double> number = number_value(value);
  if (!number) fail_at(where, "is " + describe_json_type(value) + ", expected a number");
  return *number;
}

double ObjectReader::positive_at(const json& value, const std::string& where) const {
  const double number = number_at(value, where);
  const std::string why = why_not_positive_finite(number);
  if (!why.empty()) fail_at(where, "is " + why + ", expected a positive, finite number");
  return number;
}

double ObjectReader::sample_at(const json& value, const std::string& where, const SampleUnit& u) const {
  const double number = number_at(value, where);
  const std::string why = why_not_sample(number, u);
  if (!why.empty()) fail_at(where, "is " + why + ", " + sample_expectation(u));
  return number * u.scale;
}

long long ObjectReader::integer_at(const json& value, const std::string& where, long long minimum,
                                   long long maximum) const {
  const std::string expected = integer_range(minimum, maximum);
  if (!value.is_number_integer()) fail_at(where, "is " + describe_json_type(value) + ", expected " + expected);
  // An unsigned integer beyond long long's range reads as negative: compare it as what it is.
  if (value.is_number_unsigned() && value.get<unsigned long long>() > static_cast<unsigned long long>(maximum)) {
    fail_at(where, "is " + value.dump() + ", expected " + expected);
  }
  const auto number = value.get<long long>();
  if (number < minimum || number > maximum) fail_at(where, "is " + value.dump() + ", expected " + expected);
  return number;
}

std::string ObjectReader::field(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

void ObjectReader::fail_at(const std::string& where, const std::string& what) const {
  throw InputError(source_ + ": " + where + " " + what + " - " + hint_);
}

void ObjectReader::fail(const std::string& key, const std::string& what) const { fail_at(field(key), what); }

void ObjectReader::fail_here(const std::string& what) const { fail_at(path_.empty() ? "the top level" : path_, what); }

}  // namespace gpuperf::formats
