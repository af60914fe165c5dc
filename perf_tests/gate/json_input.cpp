#include "gate/json_input.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>

#include "gate/input_error.h"

namespace gpuperf::gate {
namespace {

// The spellings Google Benchmark's JSON writer uses for non-finite doubles.
constexpr std::array<std::string_view, 4> kNonFiniteTokens = {"-Infinity", "Infinity", "-NaN", "NaN"};

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// Quotes the bare non-finite tokens outside strings; everything else is copied unchanged, so byte offsets
// in parse errors stay close to the original.
std::string quote_non_finite_tokens(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    const bool at_token_start = i == 0 || !is_identifier_char(text[i - 1]);
    if (at_token_start && (c == '-' || c == 'N' || c == 'I')) {
      for (std::string_view token : kNonFiniteTokens) {
        const std::size_t end = i + token.size();
        if (text.compare(i, token.size(), token) == 0 && (end == text.size() || !is_identifier_char(text[end]))) {
          out += '"';
          out += token == "-NaN" ? std::string_view("NaN") : token;
          out += '"';
          i = end - 1;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

bool is_blank(const std::string& text) {
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& hint) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError("cannot open '" + path + "': " + std::strerror(errno) + " - " + hint);
  }
  // Reserved once and filled in large reads: streaming through an ostringstream copied a 20 MB results file
  // twice more, a third of the time perf_gate took to read a suite's results.
  std::string content;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size > 0) content.reserve(static_cast<std::size_t>(size));
  in.clear();  // a pipe cannot seek: read it from where it is
  in.seekg(0, std::ios::beg);
  in.clear();
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::string chunk(kChunk, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(kChunk)) || in.gcount() > 0) {
    content.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) {
    throw InputError("cannot read '" + path + "': " + std::strerror(errno) + " - " + hint);
  }
  return content;
}

nlohmann::json parse_json_document(const std::string& text, const std::string& source) {
  if (is_blank(text)) {
    throw InputError(source +
                     ": the file is empty - the program that should have written it failed or was "
                     "killed; run it again");
  }
  try {
    return nlohmann::json::parse(quote_non_finite_tokens(text));
  } catch (const nlohmann::json::parse_error& e) {
    const bool at_end = e.byte >= text.size();
    std::ostringstream message;
    message << source << ": not valid JSON" << (at_end ? " (truncated: it ends too early)" : "") << " near byte "
            << e.byte << " of " << text.size() << " - "
            << (at_end ? "the program that wrote it probably crashed or the disk filled; write it again"
                       : "the file is corrupt or not a JSON file; write it again")
            << " (parser: " << e.what() << ")";
    throw InputError(message.str());
  } catch (const nlohmann::json::out_of_range& e) {
    // Well-formed JSON can still hold a number no double can represent (1e999); a writer never produces one.
    throw InputError(source + ": a number in it is too large to represent - the file is corrupt; write it again" +
                     " (parser: " + e.what() + ")");
  }
}

std::optional<double> number_value(const nlohmann::json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const auto& s = value.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return std::nullopt;
}

std::string describe_json_type(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::binary:
      return "binary data";
    case nlohmann::json::value_t::discarded:
      return "nothing";
    default:
      return "a number";
  }
}

std::string why_not_positive_finite(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return "infinite";
  if (value == 0.0) return "zero";
  if (value < 0.0) return "negative";
  return "";
}

}  // namespace gpuperf::gate
