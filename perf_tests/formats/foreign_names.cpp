#include "formats/foreign_names.h"

#include <cstdint>
#include <optional>

#include "formats/escape.h"
#include "formats/names.h"

namespace gpuperf::formats {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// Which characters a part keeps as they are (foreign_names.h, "Escaping").
enum class PartKind {
  kWithSeparators,  // a Google Benchmark part, an nvbench benchmark's name: ',' and ':' kept
  kAxisWord,        // an nvbench axis name or value: ',' and ':' separate them, so they are escaped
};

bool is_letter_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool is_kept(char c, PartKind kind) {
  if (is_letter_or_digit(c) || c == '.' || c == '-' || c == '_') return true;
  return kind == PartKind::kWithSeparators && (c == ',' || c == ':');
}

// Whether text[at] starts "_x" and two lower-case hex digits: an escape, read as one byte.
bool starts_escape(std::string_view text, std::size_t at) {
  return at + 3 < text.size() && text[at] == '_' && text[at + 1] == 'x' && is_lower_hex(text[at + 2]) &&
         is_lower_hex(text[at + 3]);
}

int hex_value(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

std::string escape_part(std::string_view text, PartKind kind) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // A kept '_' that the decoder would read as an escape is escaped itself: the map stays one-to-one.
    if (is_kept(c, kind) && !starts_escape(text, i)) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += "_x";
      out += kHexDigits[byte >> 4];
      out += kHexDigits[byte & 0x0f];
    }
  }
  return out;
}

// The inverse of escape_part for a part escape_part wrote; the callers check that it did (by mapping the
// result again), so that a second spelling of one name is refused rather than read.
std::string unescape_part(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (starts_escape(text, i)) {
      out += static_cast<char>(hex_value(text[i + 2]) * 16 + hex_value(text[i + 3]));
      i += 3;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> pieces;
  std::size_t from = 0;
  while (true) {
    const std::size_t at = text.find(separator, from);
    pieces.push_back(text.substr(from, at == std::string_view::npos ? std::string_view::npos : at - from));
    if (at == std::string_view::npos) return pieces;
    from = at + 1;
  }
}

// A foreign name in a message: escaped for a console, and only its start when it is long (names.h does
// the same: a 10,000-character name helps no reader).
std::string quoted(std::string_view text) {
  constexpr std::size_t kQuotedCharacters = 60;
  if (text.size() <= kQuotedCharacters) return "'" + escape_console(text) + "'";
  return "'" + escape_console(text.substr(0, kQuotedCharacters)) + "...'";
}

MappedName failure(std::string error, std::string remedy) { return {"", std::move(error), std::move(remedy)}; }

constexpr const char* kFamilyRemedy = "name the suite with a family name (docs/suites.md)";

// The checks every mapping ends with: the family, then the length, then the rule itself (which the
// escaping guarantees; checked all the same, as every name is where it enters).
MappedName finish(std::string_view family, std::string name, std::string_view tool, std::string_view foreign) {
  if (const std::string error = name_error(NameKind::kFamily, family); !error.empty()) {
    return failure(error, kFamilyRemedy);
  }
  if (name.size() > kMaxBenchmarkNameLength) {
    return failure(std::string(tool) + " name " + quoted(foreign) + " is " + std::to_string(name.size()) +
                       " characters long once mapped onto a benchmark name (at most " +
                       std::to_string(kMaxBenchmarkNameLength) + ", docs/suites.md)",
                   "shorten its name in the suite: every report and baseline names it");
  }
  if (const std::string error = name_error(NameKind::kBenchmark, name); !error.empty()) {
    return failure(std::string(tool) + " name " + quoted(foreign) + " maps onto a " + error,
                   "report this name to the harness's maintainers: the mapping should accept any name");
  }
  return {std::move(name), "", ""};
}

constexpr std::string_view kGbenchSettingKeys[] = {"iterations:", "repeats:", "min_time:", "min_warmup_time:"};
constexpr std::string_view kGbenchSettingFlags[] = {"manual_time", "real_time", "process_time"};
constexpr std::string_view kThreadsKey = "threads:";

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::string not_written_by(std::string_view name, const char* mapping) {
  return "benchmark name " + quoted(name) + " is not one the " + mapping +
         " mapping writes (docs/suites.md): it cannot be traced back to a benchmark of the suite";
}

std::optional<long long> small_exponent(std::string_view digits) {
  if (digits.empty() || digits.size() > 2) return std::nullopt;
  long long exponent = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    exponent = exponent * 10 + (c - '0');
  }
  if (exponent > 62) return std::nullopt;  // 2^62 is the largest power of two an int64 axis holds
  return exponent;
}

}  // namespace

bool is_gbench_run_setting(std::string_view component, bool threads_too) {
  for (std::string_view key : kGbenchSettingKeys) {
    if (starts_with(component, key)) return true;
  }
  for (std::string_view flag : kGbenchSettingFlags) {
    if (component == flag) return true;
  }
  return threads_too && starts_with(component, kThreadsKey);
}

std::string gbench_run_name_without_settings(std::string_view run_name, bool keep_threads) {
  std::string_view name = run_name;
  std::string_view threads;
  for (std::size_t slash = name.rfind('/'); slash != std::string_view::npos && slash > 0; slash = name.rfind('/')) {
    const std::string_view component = name.substr(slash + 1);
    if (!is_gbench_run_setting(component, true)) break;
    if (keep_threads && threads.empty() && starts_with(component, kThreadsKey)) threads = component;
    name = name.substr(0, slash);
  }
  std::string out(name);
  if (!threads.empty()) out.append("/").append(threads);
  return out;
}

MappedName gbench_to_our_name(std::string_view family, std::string_view run_name) {
  const std::string identity = gbench_run_name_without_settings(run_name, true);
  if (identity.empty()) return failure("is empty", "check what wrote the file: Google Benchmark names every run");
  std::string name(family);
  for (std::string_view component : split(identity, '/')) {
    if (component.empty()) {
      return failure("Google Benchmark run name " + quoted(run_name) + " has an empty '/'-separated part",
                     "name the benchmark without an empty part (a '/' at its end or two in a row)");
    }
    name.append("/").append(escape_part(component, PartKind::kWithSeparators));
  }
  return finish(family, std::move(name), "Google Benchmark run", run_name);
}

GbenchName gbench_from_our_name(std::string_view name) {
  GbenchName out;
  if (std::string error = name_error(NameKind::kBenchmark, name); !error.empty()) {
    out.error = std::move(error);
    return out;
  }
  const std::size_t slash = name.find('/');
  out.family = std::string(name.substr(0, slash));
  for (std::string_view part : split(name.substr(slash + 1), '/')) {
    if (!out.run_name.empty()) out.run_name += '/';
    out.run_name += unescape_part(part);
  }
  if (gbench_to_our_name(out.family, out.run_name).name != name) {
    out = GbenchName{};
    out.error = not_written_by(name, "Google Benchmark");
  }
  return out;
}

MappedName nvbench_to_our_name(std::string_view family, const NvbenchState& state) {
  if (state.benchmark.empty()) return failure("has an empty benchmark name", "name the nvbench benchmark");
  std::string name = std::string(family) + "/" + escape_part(state.benchmark, PartKind::kWithSeparators);
  for (std::size_t i = 0; i < state.axis_values.size(); ++i) {
    const NvbenchAxisValue& axis = state.axis_values[i];
    if (axis.name.empty()) {
      return failure("nvbench benchmark " + quoted(state.benchmark) + " has an axis without a name",
                     "name every axis of the benchmark");
    }
    name += i == 0 ? '/' : ',';
    name += escape_part(axis.name, PartKind::kAxisWord) + ":" + escape_part(axis.value, PartKind::kAxisWord);
  }
  // The message quotes the state as nvbench shows it: "copy_sweep BlockSize=64 T=I32".
  std::string shown = state.benchmark;
  for (const NvbenchAxisValue& axis : state.axis_values) shown += " " + axis.name + "=" + axis.value;
  return finish(family, std::move(name), "nvbench state", shown);
}

NvbenchName nvbench_from_our_name(std::string_view name) {
  NvbenchName out;
  if (std::string error = name_error(NameKind::kBenchmark, name); !error.empty()) {
    out.error = std::move(error);
    return out;
  }
  const std::vector<std::string_view> parts = split(name, '/');
  bool ok = parts.size() == 2 || parts.size() == 3;
  if (ok) {
    out.family = std::string(parts[0]);
    out.state.benchmark = unescape_part(parts[1]);
    if (parts.size() == 3) {
      for (std::string_view item : split(parts[2], ',')) {
        const std::size_t colon = item.find(':');
        if (colon == std::string_view::npos) {
          ok = false;
          break;
        }
        out.state.axis_values.push_back({unescape_part(item.substr(0, colon)), unescape_part(item.substr(colon + 1))});
      }
    }
  }
  if (!ok || nvbench_to_our_name(out.family, out.state).name != name) {
    out = NvbenchName{};
    out.error = not_written_by(name, "nvbench");
  }
  return out;
}

NvbenchAxisValues nvbench_axis_values_from_state_name(std::string_view state_name) {
  NvbenchAxisValues out;
  const auto fail = [&](std::string_view word, const std::string& what) {
    out.values.clear();
    out.error = "nvbench state name " + quoted(state_name) + ": " + quoted(word) + " " + what;
    return out;
  };
  for (std::string_view word : split(state_name, ' ')) {
    if (word.empty()) continue;
    const std::size_t equals = word.find('=');
    if (equals == std::string_view::npos || equals == 0) return fail(word, "is not Axis=value");
    std::string_view axis = word.substr(0, equals);
    std::string_view value = word.substr(equals + 1);
    if (axis == "Device") continue;  // the GPU: not part of the name (foreign_names.h)
    constexpr std::string_view kPow2Suffix = "[pow2]";
    std::optional<long long> exponent;
    if (axis.size() > kPow2Suffix.size() && axis.substr(axis.size() - kPow2Suffix.size()) == kPow2Suffix) {
      axis = axis.substr(0, axis.size() - kPow2Suffix.size());  // "Elements[pow2]=20", the --axis form
      exponent = small_exponent(value);
      if (!exponent) return fail(word, "is a power-of-two axis whose exponent is not a whole number from 0 to 62");
    } else if (starts_with(value, "2^")) {  // "BlockSize=2^6", as nvbench shows a power-of-two axis
      exponent = small_exponent(value.substr(2));
      if (!exponent) return fail(word, "is a power of two whose exponent is not a whole number from 0 to 62");
    }
    out.values.push_back({std::string(axis), exponent ? std::to_string(std::int64_t{1} << *exponent) : std::string(value)});
  }
  return out;
}

}  // namespace gpuperf::formats
