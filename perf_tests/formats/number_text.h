#pragma once
// Numbers written into words, for any layer that puts one into a line a person reads: the reports
// (gate/reports/numbers.h), the fleet table, the Nsight Compute diff, and the notes the history analysis
// attaches to what it finds.

#include <cstdio>
#include <string>

#include "formats/sample_units.h"

namespace gpuperf::formats {

// format_number("%+.1f", 3.14) is "+3.1". `format` takes exactly one double.
inline std::string format_number(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// A benchmark's value with its unit: "41.20 us", "1234 cycles" (whole cycles).
inline std::string format_value(double value, const std::string& unit) {
  return format_number(unit == kUnitCycles ? "%.0f" : "%.2f", value) + " " + unit;
}

// A percentage to one decimal: "3.0%".
inline std::string format_pct(double pct) { return format_number("%.1f", pct) + "%"; }

}  // namespace gpuperf::formats
