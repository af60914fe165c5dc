#include <cstdio>
#include <optional>
#include <utility>

#include "gate/exit_codes.h"
#include "gate/format.h"
#include "gate/outcome.h"
#include "gate/reports.h"

namespace gpuperf::gate {
namespace {

// Width of the verdict column: the longest verdict name, NOT_JUDGED.
constexpr int kVerdictWidth = 10;

std::string padded_verdict(Verdict verdict) {
  std::string name = verdict_name(verdict);
  name.resize(kVerdictWidth, ' ');
  return name;
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

void write_console_report(const Comparison& comparison, std::ostream& out) {
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (row.verdict == Verdict::kSame) continue;
    std::string line = padded_verdict(row.verdict) + " " + row.name;
    const std::string machine = machine_note(row).empty() ? "" : "(" + machine_note(row) + ")";
    for (const std::string& part : {measured_part(row), evidence_part(row, comparison.mode), machine, row.note}) {
      if (!part.empty()) line += "  " + part;
    }
    if (row.injected_slowdown_pct > 0.0) line += "  [fault injection " + format_pct(row.injected_slowdown_pct) + "]";
    line += "  -> " + action_hint(row, comparison.mode);
    out << line << "\n";
  }
  // Above the summary, where a reader of a long log looks: they concern every verdict.
  const std::pair<const char*, std::optional<RunNotice>> notices[] = {{"WARNING", platform_warning(comparison)},
                                                                       {"WARNING", canary_warning(comparison)},
                                                                       {"HINT", moved_with_platform(comparison)}};
  for (const auto& [tag, notice] : notices) {
    if (!notice) continue;
    std::string label = tag;
    label.resize(kVerdictWidth, ' ');
    out << label << " " << notice->summary << "  -> " << notice->action << "\n";
  }
  out << "perf_gate " << comparison.mode << ": " << outcome_text(comparison) << " - " << comparison.gpu_name << " ("
      << comparison.gpu_slug << ") vs " << comparison.against << ": " << counts_text(count_verdicts(comparison))
      << " (exit " << exit_code(comparison) << "); " << format_error_control(comparison.budget) << "\n";
}

std::string remeasure_list(const Comparison& comparison) {
  std::string list;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (row.verdict == Verdict::kAmbiguous) list += row.name + "\n";
  }
  return list;
}

}  // namespace gpuperf::gate
