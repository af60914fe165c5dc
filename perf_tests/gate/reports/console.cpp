#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

#include "formats/escape.h"
#include "formats/exit_codes.h"
#include "gate/judging/outcome.h"
#include "gate/reports/code_lines.h"
#include "gate/reports/numbers.h"
#include "gate/reports/reports.h"
#include "gate/reports/row_words.h"
#include "gate/reports/wording.h"

namespace gpuperf::gate {
namespace {

// Width of the verdict column: the longest verdict name, NOT_JUDGED.
constexpr int kVerdictWidth = 10;

// A verdict or notice tag in the verdict column.
std::string padded(std::string label) {
  label.resize(std::max<std::size_t>(label.size(), kVerdictWidth), ' ');
  return label;
}

std::string measured_part(const BenchmarkComparison& row) {
  const bool has_baseline = row.baseline_median > 0.0;
  const bool has_current = row.current_median > 0.0;
  if (has_baseline && has_current) {
    return format_value(row.baseline_median, row.unit) + " -> " + format_value(row.current_median, row.unit);
  }
  if (has_baseline) return "baseline " + format_value(row.baseline_median, row.unit);
  if (has_current) return "now " + format_value(row.current_median, row.unit);
  return "";
}

std::string evidence_part(const BenchmarkComparison& row, const std::string& mode) {
  if (!row.judged()) return "";
  const double p = row.ratio >= 1.0 ? row.p_slower : row.p_faster;
  return format_change(row) + " (tolerance " + format_pct(row.tolerance_pct) + ", p=" + format_p(p) + "; " +
         format_noise(row, mode) + ")";
}

}  // namespace

// Every line goes out through formats::escape_console: names and messages read from results and
// baselines can never print a control character or start a workflow command in the Actions log.
void write_console_report(const Comparison& comparison, std::ostream& out) {
  using formats::escape_console;
  const std::string indent(kVerdictWidth + 1, ' ');
  std::vector<std::string> warnings;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    for (const std::string& warning : code_warnings(row)) warnings.push_back(warning);
    if (row.verdict == Verdict::kSame || row.verdict == Verdict::kUnchanged) continue;
    std::string line = padded(verdict_name(row.verdict)) + " " + row.name;
    const std::string machine = machine_note(row).empty() ? "" : "(" + machine_note(row) + ")";
    for (const std::string& part : {measured_part(row), evidence_part(row, comparison.mode), machine, notes_text(row.notes)}) {
      if (!part.empty()) line += "  " + part;
    }
    if (row.injected_slowdown_pct > 0.0) line += "  [fault injection " + format_pct(row.injected_slowdown_pct) + "]";
    line += "  -> " + action_hint(row, comparison.mode);
    out << escape_console(line) << "\n";
    if (const std::string code = code_line(row, comparison.mode); !code.empty()) {
      out << indent << escape_console(code) << "\n";
    }
  }
  for (const std::string& warning : warnings) out << padded("WARNING") << " " << escape_console(warning) << "\n";
  for (const std::string& line : {code_summary(comparison), same_code_summary(comparison)}) {
    if (!line.empty()) out << indent << escape_console(line) << "\n";
  }
  // Above the summary, where a reader of a long log looks: they concern every verdict.
  const std::pair<const char*, std::optional<RunNotice>> notices[] = {{"WARNING", method_change_notice(comparison)},
                                                                       {"WARNING", platform_warning(comparison)},
                                                                       {"WARNING", canary_warning(comparison)},
                                                                       {"HINT", moved_with_platform(comparison)}};
  for (const auto& [tag, notice] : notices) {
    if (!notice) continue;
    out << escape_console(padded(tag) + " " + notice->summary + "  -> " + notice->action) << "\n";
  }
  out << escape_console("perf_gate " + comparison.mode + ": " + outcome_text(comparison) + " - " +
                        comparison.gpu_name + " (" + comparison.gpu_slug + ") vs " + against_text(comparison) + ": " +
                        counts_text(count_verdicts(comparison)) + " (exit " + std::to_string(exit_code(comparison)) +
                        "); " + format_error_control(comparison.budget))
      << "\n";
}

std::string remeasure_list(const Comparison& comparison) {
  std::string list;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (row.verdict == Verdict::kAmbiguous) list += row.name + "\n";
  }
  return list;
}

std::string unchanged_line(std::size_t unchanged, int fingerprinted, const std::string& why_not_skipped) {
  std::string line = std::to_string(unchanged) + " of " + std::to_string(fingerprinted) +
                     " fingerprinted benchmarks unchanged (the baseline's code, GPU model, driver and CUDA runtime): "
                     "not re-timed";
  if (!why_not_skipped.empty()) line += "; " + why_not_skipped;
  return line;
}

}  // namespace gpuperf::gate
