#include "formats/json_input.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <sstream>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/atomic_file.h"
#include "formats/input_error.h"

namespace gpuperf::formats {
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

struct FileDescriptor {
  int fd;
  ~FileDescriptor() { ::close(fd); }
};

// Follows the parser through the document and refuses an object that repeats a key, naming its path
// ("benchmarks['reduction/x'].median"): nlohmann's parser would keep the last value without a word.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::string& source) : source_(source) {}

  template <typename Json>
  bool on(nlohmann::json::parse_event_t event, const Json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        frames_.push_back(Frame{event == Event::object_start, segment(), {}, 0, {}});
        break;
      case Event::key: {
        Frame& frame = frames_.back();
        frame.key = parsed.template get<std::string>();
        if (!frame.keys.insert(frame.key).second) {
          throw InputError(source_ + ": key " + path() + " appears twice in one object - which value counts is "
                           "not defined; remove one (was the file edited by hand or merged?)");
        }
        break;
      }
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        next_element();
        break;
      case Event::value:
        next_element();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool object;
    std::string segment;  // how the parent names this container: ".key", "['odd key']" or "[3]"
    std::string key;      // an object's current key
    std::size_t index;    // an array's current element
    std::set<std::string> keys;
  };

  static std::string key_segment(const std::string& key, bool first) {
    constexpr std::size_t kShownKeyLength = 100;  // a message quotes the start of an overlong key
    const std::string shown = key.size() > kShownKeyLength ? key.substr(0, kShownKeyLength) + "..." : key;
    const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) { return is_identifier_char(c); });
    return plain ? (first ? "" : ".") + shown : "['" + shown + "']";
  }

  // How the container or key now being read is named in its parent.
  std::string segment() const {
    if (frames_.empty()) return "";
    const Frame& parent = frames_.back();
    return parent.object ? key_segment(parent.key, frames_.size() == 1) : "[" + std::to_string(parent.index) + "]";
  }

  std::string path() const {
    std::string text;
    for (const Frame& frame : frames_) text += frame.segment;
    return text + segment();
  }

  void next_element() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }

  const std::string& source_;
  std::vector<Frame> frames_;
};

template <typename Json>
Json parse_document(const std::string& text, const std::string& source) {
  if (is_blank(text)) {
    throw InputError(source +
                     ": the file is empty - the program that should have written it failed or was "
                     "killed; run it again");
  }
  try {
    DuplicateKeyCheck check(source);
    return Json::parse(quote_non_finite_tokens(text),
                       [&check](int /*depth*/, nlohmann::json::parse_event_t event, Json& parsed) {
                         return check.on(event, parsed);
                       });
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

}  // namespace

std::string read_text_file(const std::string& path, const std::string& hint) {
  const auto fail = [&](const std::string& what) { throw InputError(what + " - " + hint); };
  // Refused by its kind before it is opened: opening a device can already do something.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    fail("'" + path + "' is " + describe_file_type(st.st_mode) + ", expected a regular file");
  }
  // Non-blocking: a named pipe swapped in after the stat opens at once (and is refused below), where a
  // blocking open would wait for a writer that may never come.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail("cannot open '" + path + "': " + std::strerror(errno));
  const FileDescriptor closer{fd};
  if (::fstat(fd, &st) != 0) fail("cannot read '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail("'" + path + "' is " + describe_file_type(st.st_mode) + ", expected a regular file");
  const auto too_large = [&] {
    fail("'" + path + "' is larger than " + std::to_string(kMaxInputFileBytes >> 20) +
         " MiB, the most an input of the gate may be - is it the right file?");
  };
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxInputFileBytes) too_large();
  // Reserved once and filled in large reads: streaming through an ostringstream copied a 20 MB results file
  // twice more, a third of the time perf_gate took to read a suite's results.
  std::string content;
  content.reserve(static_cast<std::size_t>(st.st_size));
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::string chunk(kChunk, '\0');
  while (true) {
    const ssize_t n = ::read(fd, chunk.data(), kChunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("cannot read '" + path + "': " + std::strerror(errno));
    if (n == 0) break;
    content.append(chunk.data(), static_cast<std::size_t>(n));
    if (content.size() > kMaxInputFileBytes) too_large();  // it grew while being read
  }
  return content;
}

bool input_file_exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

nlohmann::json parse_json_document(const std::string& text, const std::string& source) {
  return parse_document<nlohmann::json>(text, source);
}

nlohmann::ordered_json parse_ordered_json_document(const std::string& text, const std::string& source) {
  return parse_document<nlohmann::ordered_json>(text, source);
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

}  // namespace gpuperf::formats
