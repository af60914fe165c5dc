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

}  // namespace

void write_markdown_report(const Comparison& comparison, std::ostream& out) {
  out << "### Perf gate (" << comparison.mode << ") on " << cell(comparison.gpu_name) << " (`"
      << cell(comparison.gpu_slug) << "`): " << outcome_text(comparison) << "\n\n";
  out << counts_text(count_verdicts(comparison)) << "; compared with " << cell(comparison.against)
      << "; change = median now / median before - 1, with its 99% interval; alpha " << comparison.alpha << ".\n\n";
  out << "| Verdict | Benchmark | Baseline | Now | Change [99% CI] | Tolerance | GB/s now | TFLOP/s now | Note |\n";
  out << "|---|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    const bool has_tolerance = row.tolerance_pct > 0.0 || row.judged();
    out << "| " << verdict_name(row.verdict) << " | `" << cell(row.name) << "` | "
        << (row.baseline_median > 0.0 ? format_value(row.baseline_median, row.unit) : "") << " | "
        << (row.current_median > 0.0 ? format_value(row.current_median, row.unit) : "") << " | " << format_change(row)
        << " | " << (has_tolerance ? format_pct(row.tolerance_pct) : "") << " | " << throughput(achieved_gb_per_s(row))
        << " | " << throughput(achieved_tflop_per_s(row)) << " | " << cell(action_hint(row, comparison.mode)) << " |\n";
  }
}

}  // namespace gpuperf::gate
