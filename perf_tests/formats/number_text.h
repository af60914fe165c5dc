#pragma once
// One number written through a printf format, for any layer that puts a number into words: the reports
// (gate/reports/numbers.h), and the notes the judging and the history analysis attach to what they decide.

#include <cstdio>
#include <string>

namespace gpuperf::formats {

// format_number("%+.1f", 3.14) is "+3.1". `format` takes exactly one double.
inline std::string format_number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace gpuperf::formats
