#pragma once
// Reading JSON input files: the file, the document, and numbers that may be non-finite.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gpuperf::formats {

// The largest input file the gate reads [bytes]: generous (a suite's results file is about 20 MB), and it
// keeps a wrong path (a disk image, /dev/zero) from reading until memory runs out.
inline constexpr std::size_t kMaxInputFileBytes = std::size_t{512} << 20;

// The whole content of a regular file of at most kMaxInputFileBytes. InputError (naming the file and
// `hint`, what to do) when it cannot be read, is larger, or is not a regular file: a folder, a device or a
// named pipe is refused without reading it (a pipe without a writer would wait forever).
std::string read_text_file(const std::string& path, const std::string& hint);

// Whether anything (of any kind: read_text_file says what is wrong with it) is at `path`.
bool input_file_exists(const std::string& path);

// Parses `text`; `source` names it in messages (usually the file path). Google Benchmark writes a
// non-finite number as a bare NaN or Infinity, which JSON forbids: such tokens are read as the strings
// "NaN", "Infinity" and "-Infinity", so that the field checks can say which value was not finite instead
// of the whole file being rejected as corrupt. InputError for empty, truncated or otherwise invalid JSON,
// and for an object that repeats a key (naming its path): which of the two values counts is not
// defined by JSON, and a hand edit that adds a second "tolerance_pct" must not silently win or lose.
nlohmann::json parse_json_document(const std::string& text, const std::string& source);
// The same, keeping each object's keys in the file's order (for a file that is rewritten).
nlohmann::ordered_json parse_ordered_json_document(const std::string& text, const std::string& source);

// A JSON number, or one of the non-finite strings above, as a double; nullopt for any other value.
std::optional<double> number_value(const nlohmann::json& value);

// "a string", "an array", "null", ...: for messages that say what was found instead.
std::string describe_json_type(const nlohmann::json& value);

// "NaN", "infinite", "zero", "negative": why a number is not a positive finite value ("" if it is one).
std::string why_not_positive_finite(double value);

}  // namespace gpuperf::formats
