#include "gate/reports/annotations.h"

#include <charconv>
#include <cmath>
#include <optional>

#include "formats/escape.h"

namespace gpuperf::gate {
namespace {

// "error", "warning", or "" for a verdict that gets no annotation.
const char* annotation_level(const std::string& verdict) {
  if (verdict == "SLOW" || verdict == "ERROR" || verdict == "MISSING") return "error";
  if (verdict == "NOT_JUDGED" || verdict == "AMBIGUOUS" || verdict == "PLATFORM") return "warning";
  return "";
}

}  // namespace

std::string annotation_pct(std::optional<double> pct, bool sign) {
  if (!pct || !std::isfinite(*pct)) return "n/a";
  // + 0.0: a change that rounds to -0 is written "0", not "-0".
  const double rounded = std::round(*pct * 10.0) / 10.0 + 0.0;
  char buffer[64];
  const std::to_chars_result written = std::to_chars(buffer, buffer + sizeof buffer, rounded);  // shortest
  const std::string digits(buffer, written.ptr);
  return (sign && rounded > 0.0 ? "+" : "") + digits + "%";
}

std::string annotation_lines(const VerdictReport& report, const std::string& report_name) {
  // A report that names no GPU (results without one) names its slug, the GPU it was judged as.
  const std::string& gpu = report.gpu_name.empty() ? report.gpu_slug : report.gpu_name;
  std::string lines;
  for (const VerdictRow& row : report.rows) {
    const std::string level = annotation_level(row.verdict);
    if (level.empty()) continue;
    std::string message = row.name + " on " + gpu + ": " + row.verdict + ", change " +
                          annotation_pct(row.change_pct, true) + " (tolerance " +
                          annotation_pct(row.tolerance_pct, false) + ")";
    if (!row.reason.empty()) message += ": " + row.reason;
    message += " [" + report_name + "]";
    lines += "::" + level + " title=" + formats::escape_workflow_property(row.verdict + " " + row.name) +
             "::" + formats::escape_workflow_message(message) + "\n";
  }
  return lines;
}

}  // namespace gpuperf::gate
