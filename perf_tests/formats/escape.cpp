#include "formats/escape.h"

namespace gpuperf::formats {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

void append_hex_escape(unsigned char byte, std::string& out) {
  out += "\\x";
  out += kHexDigits[byte >> 4];
  out += kHexDigits[byte & 0x0f];
}

bool is_printable_ascii(unsigned char byte) { return byte >= 0x20 && byte <= 0x7e; }

// Whether a '<' followed by text[next] can open HTML or an autolink in Markdown (CommonMark: a tag or
// scheme starts with a letter, a closing tag with '/', a comment or declaration with '!', a processing
// instruction with '?'). "reduce9<256>" or "p < 0.01" cannot, and keep their '<'.
bool starts_markup(std::string_view text, std::size_t next) {
  if (next >= text.size()) return false;
  const char c = text[next];
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '/' || c == '!' || c == '?';
}

}  // namespace

std::string escape_console(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (is_printable_ascii(byte) && c != '\\') {
      out += c;
    } else {
      append_hex_escape(byte, out);
    }
  }
  if (out.compare(0, 2, "::") == 0) out.replace(0, 1, "\\x3a");
  return out;
}

std::string escape_workflow_message(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default:
        if (is_printable_ascii(byte) && c != '\\') {
          out += c;
        } else {
          append_hex_escape(byte, out);
        }
    }
  }
  return out;
}

std::string escape_workflow_property(std::string_view text) {
  const std::string message = escape_workflow_message(text);
  std::string out;
  out.reserve(message.size());
  for (const char c : message) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out += c;
    }
  }
  return out;
}

std::string escape_markdown_text(std::string_view text) {
  const std::string printable = escape_console(text);
  std::string out;
  out.reserve(printable.size());
  for (std::size_t i = 0; i < printable.size(); ++i) {
    const char c = printable[i];
    switch (c) {
      case '|': out += "\\|"; break;
      case '`': out += "\\`"; break;
      case '<': out += starts_markup(printable, i + 1) ? "&lt;" : "<"; break;
      case '&': out += "&amp;"; break;
      case '@': out += "@&#8203;"; break;
      case '(': out += i > 0 && printable[i - 1] == ']' ? "\\(" : "("; break;
      default: out += c;
    }
  }
  return out;
}

std::string markdown_code_span(std::string_view text) {
  if (text.empty()) return "``";
  const std::string printable = escape_console(text);
  std::string content;
  content.reserve(printable.size());
  std::size_t longest_run = 0;
  std::size_t run = 0;
  for (const char c : printable) {
    run = c == '`' ? run + 1 : 0;
    if (run > longest_run) longest_run = run;
    if (c == '|') {
      content += "\\|";
    } else {
      content += c;
    }
  }
  const std::string fence(longest_run + 1, '`');
  const auto needs_padding = [](char c) { return c == '`' || c == ' '; };
  const bool pad = needs_padding(content.front()) || needs_padding(content.back());
  const std::string padding = pad ? " " : "";
  return fence + padding + content + padding + fence;
}

std::string escape_mermaid_string(std::string_view text) {
  const std::string printable = escape_console(text);
  std::string out;
  out.reserve(printable.size());
  for (const char c : printable) {
    switch (c) {
      case '"': out += '\''; break;
      case '#': out += "#35;"; break;
      case '<': out += "#lt;"; break;
      case '>': out += "#gt;"; break;
      case '&': out += "#amp;"; break;
      case '`': out += "#96;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace gpuperf::formats
