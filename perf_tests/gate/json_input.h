#pragma once
// Reading JSON input files: the file, the document, and numbers that may be non-finite.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gpuperf::gate {

// The whole content of a file. InputError (naming the file and `hint`, what to do) when it cannot be read.
std::string read_text_file(const std::string& path, const std::string& hint);

// Parses `text`; `source` names it in messages (usually the file path). Google Benchmark writes a
// non-finite number as a bare NaN or Infinity, which JSON forbids: such tokens are read as the strings
// "NaN", "Infinity" and "-Infinity", so that the field checks can say which value was not finite instead
// of the whole file being rejected as corrupt. InputError for empty, truncated or otherwise invalid JSON.
nlohmann::json parse_json_document(const std::string& text, const std::string& source);

// A JSON number, or one of the non-finite strings above, as a double; nullopt for any other value.
std::optional<double> number_value(const nlohmann::json& value);

// "a string", "an array", "null", ...: for messages that say what was found instead.
std::string describe_json_type(const nlohmann::json& value);

// "NaN", "infinite", "zero", "negative": why a number is not a positive finite value ("" if it is one).
std::string why_not_positive_finite(double value);

}  // namespace gpuperf::gate
