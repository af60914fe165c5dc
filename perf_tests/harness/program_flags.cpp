#include "harness/program_flags.h"

#include <sstream>

namespace gpuperf {

std::string wrapped(const std::string& text, int indent, int width) {
  const std::string margin(static_cast<std::size_t>(indent), ' ');
  std::istringstream words(text);
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && margin.size() + line.size() + 1 + word.size() > static_cast<std::size_t>(width)) {
      out += margin + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += margin + line + "\n";
  return out;
}

}  // namespace gpuperf
