#include "formats/names.h"

#include <cstdio>

#include "formats/escape.h"

namespace gpuperf::formats {
namespace {

bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_family_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }
bool is_part_char(char c) { return is_family_char(c) || c == '.' || c == ',' || c == ':' || c == '-'; }
bool is_gpu_char(char c) { return is_letter(c) || is_digit(c) || c == ' ' || c == '_' || c == '.' || c == '-'; }
bool is_slug_char(char c) { return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '.' || c == '-'; }
bool is_slug_end(char c) { return (c >= 'a' && c <= 'z') || is_digit(c); }

const char* kind_words(NameKind kind) {
  switch (kind) {
    case NameKind::kBenchmark: return "benchmark name";
    case NameKind::kFamily: return "family name";
    case NameKind::kNamePart: return "variant or shape";
    case NameKind::kGpu: return "GPU name";
    case NameKind::kGpuSlug: return "GPU slug";
  }
  return "name";
}

// "a control character (\x0a) at 6", "'<' at 4": the first character outside the set and its offset.
std::string bad_char_text(std::string_view text, std::size_t at) {
  const auto byte = static_cast<unsigned char>(text[at]);
  std::string what;
  if (byte < 0x20 || byte == 0x7f) {
    what = "a control character (" + escape_console(text.substr(at, 1)) + ")";
  } else if (byte >= 0x80) {
    what = "a non-ASCII byte (" + escape_console(text.substr(at, 1)) + ")";
  } else {
    what = "'" + escape_console(text.substr(at, 1)) + "'";
  }
  return what + " at " + std::to_string(at);
}

// Why `text` is not a name of this kind, in a few words; "" when it is one.
std::string why_not(NameKind kind, std::string_view text) {
  if (text.empty()) return "is empty";
  const std::size_t max_length = name_max_length(kind);
  if (text.size() > max_length) {
    return "is " + std::to_string(text.size()) + " characters long (at most " + std::to_string(max_length) + ")";
  }
  switch (kind) {
    case NameKind::kFamily:
      if (!is_letter(text[0])) return "does not start with a letter";
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (!is_family_char(text[i])) return "has " + bad_char_text(text, i);
      }
      return "";
    case NameKind::kNamePart:
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (!is_part_char(text[i])) return "has " + bad_char_text(text, i);
      }
      return "";
    case NameKind::kGpu:
      if (!is_letter(text.front()) && !is_digit(text.front())) return "does not start with a letter or digit";
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (!is_gpu_char(text[i])) return "has " + bad_char_text(text, i);
      }
      if (!is_letter(text.back()) && !is_digit(text.back())) return "does not end with a letter or digit";
      return "";
    case NameKind::kGpuSlug:
      if (!is_slug_end(text.front())) return "does not start with a lower-case letter or digit";
      for (std::size_t i = 0; i < text.size(); ++i) {
        if (!is_slug_char(text[i])) return "has " + bad_char_text(text, i);
      }
      if (!is_slug_end(text.back())) return "does not end with a lower-case letter or digit";
      return "";
    case NameKind::kBenchmark: {
      const std::size_t slash = text.find('/');
      if (slash == std::string_view::npos) return "has no '/' after its family";
      const std::string family_why = why_not(NameKind::kFamily, text.substr(0, slash));
      if (!family_why.empty()) return "has a family that " + family_why;
      for (std::size_t i = slash + 1; i < text.size(); ++i) {
        if (text[i] == '/') {
          if (text[i - 1] == '/' || i + 1 == text.size()) return "has an empty part at " + std::to_string(i);
        } else if (!is_part_char(text[i])) {
          return "has " + bad_char_text(text, i);
        }
      }
      if (text.back() == '/') return "ends with '/'";
      return "";
    }
  }
  return "";
}

// name_pattern() with its bounds, or without them (`bounded` false): the character sets of is_family_char,
// is_part_char, is_gpu_char, is_slug_char and is_slug_end as bracket expressions ('-' last: a literal).
std::string names_regex_of(NameKind kind, bool bounded) {
  // "{0,n}" where a regex can say the length, "*" where it cannot.
  const auto up_to = [bounded](std::size_t n) { return bounded ? "{0," + std::to_string(n) + "}" : std::string("*"); };
  const std::string family = "[A-Za-z][A-Za-z0-9_]" + up_to(kMaxFamilyNameLength - 1);
  const std::string part = "[A-Za-z0-9_.,:-]+";
  switch (kind) {
    case NameKind::kBenchmark: return family + "(/" + part + ")+";
    case NameKind::kFamily: return family;
    case NameKind::kNamePart: return part;
    case NameKind::kGpu: return "[A-Za-z0-9]([A-Za-z0-9 _.-]" + up_to(kMaxGpuNameLength - 2) + "[A-Za-z0-9])?";
    case NameKind::kGpuSlug: return "[a-z0-9]([a-z0-9_.-]" + up_to(kMaxGpuNameLength - 2) + "[a-z0-9])?";
  }
  return "";
}

}  // namespace

std::size_t name_max_length(NameKind kind) {
  switch (kind) {
    case NameKind::kBenchmark:
    case NameKind::kNamePart: return kMaxBenchmarkNameLength;
    case NameKind::kFamily: return kMaxFamilyNameLength;
    case NameKind::kGpu:
    case NameKind::kGpuSlug: return kMaxGpuNameLength;
  }
  return kMaxBenchmarkNameLength;
}

std::string name_pattern(NameKind kind) { return names_regex_of(kind, true); }

std::string name_pattern_without_bounds(NameKind kind) { return names_regex_of(kind, false); }

std::string name_rule(NameKind kind) {
  switch (kind) {
    case NameKind::kBenchmark:
      return "a benchmark name is family/part[/part...] (family/variant/shape), at most " +
             std::to_string(kMaxBenchmarkNameLength) + " characters; " + name_rule(NameKind::kFamily) + "; " +
             name_rule(NameKind::kNamePart);
    case NameKind::kFamily:
      return "a family is a letter, then letters, digits and '_', at most " + std::to_string(kMaxFamilyNameLength) +
             " characters";
    case NameKind::kNamePart:
      return "a variant or shape is letters, digits and _ . , : -";
    case NameKind::kGpu:
      return "a GPU name is letters, digits, spaces and _ . - starting and ending with a letter or digit, at most " +
             std::to_string(kMaxGpuNameLength) + " characters";
    case NameKind::kGpuSlug:
      return "a GPU slug (it names baselines/<slug>.json) is lower-case letters, digits and _ . - starting and "
             "ending with a letter or digit, at most " +
             std::to_string(kMaxGpuNameLength) + " characters";
  }
  return "";
}

std::string gpu_slug(std::string_view gpu_name) {
  std::string slug;
  for (const char c : gpu_name) {
    if (is_letter(c) || is_digit(c)) {
      slug += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

std::string name_error(NameKind kind, std::string_view text) {
  const std::string why = why_not(kind, text);
  if (why.empty()) return "";
  // A message quotes the start of an over-long name only: a 30,000-character name is an attack or a bug,
  // and a message a person cannot read helps with neither.
  constexpr std::size_t kQuotedCharacters = 60;
  const std::string quoted = text.size() > kQuotedCharacters
                                 ? escape_console(text.substr(0, kQuotedCharacters)) + "..."
                                 : escape_console(text);
  return std::string(kind_words(kind)) + " '" + quoted + "' " + why + "; " + name_rule(kind) +
         " (baselines/README.md, Names)";
}

}  // namespace gpuperf::formats
