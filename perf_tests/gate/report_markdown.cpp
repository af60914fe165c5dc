#include <cstdio>

#include "gate/format.h"
#include "gate/outcome.h"
#include "gate/reports.h"

namespace gpuperf::gate {
namespace {

// A table cell: '|' would end the cell, a newline the row.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string throughput(double value) {
  if (!(value > 0.0)) return "";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string note_and_action(const BenchmarkComparison& row, const std::string& mode) {
  const std::string action = action_hint(row, mode);
  if (row.note.empty()) return action;
  return action.empty() ? row.note : row.note + "; " + action;
}

}  // namespace

void write_markdown_report(const Comparison& comparison, std::ostream& out) {
  out << "### Perf gate (" << comparison.mode << ") on " << cell(comparison.gpu_name) << " (`"
      << cell(comparison.gpu_slug) << "`): " << outcome_text(comparison) << "\n\n";
  out << counts_text(count_verdicts(comparison)) << "; compared with " << cell(comparison.against) << ".\n\n";
  out << "Change = typical process now / before - 1 (process medians), with its interval; "
      << format_error_control(comparison.budget) << ".\n\n";
  out << "| Verdict | Benchmark | Baseline | Now | Change [interval] | Tolerance | Noise assumed | GB/s now | "
         "TFLOP/s now | Note |\n";
  out << "|---|---|---:|---:|---:|---:|---|---:|---:|---|\n";
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    const bool has_tolerance = row.tolerance_pct > 0.0 || row.judged();
    out << "| " << verdict_name(row.verdict) << " | `" << cell(row.name) << "` | "
        << (row.baseline_median > 0.0 ? format_value(row.baseline_median, row.unit) : "") << " | "
        << (row.current_median > 0.0 ? format_value(row.current_median, row.unit) : "") << " | " << format_change(row)
        << " | " << (has_tolerance ? format_pct(row.tolerance_pct) : "") << " | "
        << cell(format_noise(row, comparison.mode)) << " | " << throughput(achieved_gb_per_s(row)) << " | "
        << throughput(achieved_tflop_per_s(row)) << " | " << cell(note_and_action(row, comparison.mode)) << " |\n";
  }
}

}  // namespace gpuperf::gate
