#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "formats/escape.h"
#include "formats/version.h"
#include "gate/judging/outcome.h"
#include "gate/reports/code_lines.h"
#include "gate/reports/numbers.h"
#include "gate/reports/reports.h"
#include "gate/reports/row_words.h"
#include "gate/reports/wording.h"

namespace gpuperf::gate {
namespace {

std::string throughput(double value) {
  if (!(value > 0.0)) return "";
  return format_number("%.1f", value);
}

std::string note_and_action(const BenchmarkComparison& row, const std::string& mode) {
  std::string text;
  for (const std::string& part : {machine_note(row), notes_text(row.notes), code_line(row, mode), action_hint(row, mode)}) {
    if (!part.empty()) text += (text.empty() ? "" : "; ") + part;
  }
  return text;
}

// `text` with its first letter in upper case and every command (a word starting "scripts/") in a code
// span, so that the period after it is not taken for part of it.
std::string sentence(const std::string& text) {
  constexpr std::string_view kCommandPrefix = "scripts/";
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    if (text.compare(i, kCommandPrefix.size(), kCommandPrefix) == 0) {
      const std::size_t end = std::min(text.find_first_of(" ),;", i), text.size());
      out += "`" + text.substr(i, end - i) + "`";
      i = end;
    } else {
      out += text[i++];
    }
  }
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

// A sentence of the report from text that may hold names or messages read from files: escaped first.
std::string escaped_sentence(const std::string& text) { return sentence(formats::escape_markdown_text(text)); }

}  // namespace

// Text read from results and baselines (names, messages, versions) goes out through formats/escape.h:
// names as code spans, everything else as escaped Markdown text, so a poisoned file cannot close a code
// span, write HTML, a link, an image or a mention into a job summary.
void write_markdown_report(const Comparison& comparison, std::ostream& out) {
  using formats::escape_markdown_text;
  using formats::markdown_code_span;
  out << "### Perf gate (" << comparison.mode << ") on " << escape_markdown_text(comparison.gpu_name) << " ("
      << markdown_code_span(comparison.gpu_slug) << "): " << outcome_text(comparison) << "\n\n";
  out << counts_text(count_verdicts(comparison)) << "; compared with " << escape_markdown_text(against_text(comparison))
      << ".\n\n";
  const std::pair<const char*, std::optional<RunNotice>> notices[] = {{"Warning", method_change_notice(comparison)},
                                                                       {"Warning", platform_warning(comparison)},
                                                                       {"Warning", canary_warning(comparison)},
                                                                       {"Hint", moved_with_platform(comparison)}};
  for (const auto& [tag, notice] : notices) {
    if (notice) {
      out << "**" << tag << ":** " << escape_markdown_text(notice->summary) << ". " << escaped_sentence(notice->action)
          << ".\n\n";
    }
  }
  // A canary that did not move, or is missing, gets one quiet line here (the console stays silent).
  if (comparison.canary && !comparison.canary->moved()) out << escaped_sentence(canary_summary(*comparison.canary)) << ".\n\n";
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    for (const std::string& warning : code_warnings(row)) {
      out << "**Warning:** " << escape_markdown_text(warning) << ".\n\n";
    }
  }
  for (const std::string& line : {code_summary(comparison), same_code_summary(comparison)}) {
    if (!line.empty()) out << escaped_sentence(line) << ".\n\n";
  }
  out << "Change = typical process now / before - 1 (process medians), with its interval; "
      << format_error_control(comparison.budget) << ".\n\n";
  out << "| Verdict | Benchmark | Baseline | Now | Change [interval] | Tolerance | Noise assumed | GB/s now | "
         "TFLOP/s now | Note |\n";
  out << "|---|---|---:|---:|---:|---:|---|---:|---:|---|\n";
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    const bool has_tolerance = row.tolerance_pct > 0.0 || row.judged();
    out << "| " << verdict_name(row.verdict) << " | " << markdown_code_span(row.name) << " | "
        << (row.baseline_median > 0.0 ? format_value(row.baseline_median, row.unit) : "") << " | "
        << (row.current_median > 0.0 ? format_value(row.current_median, row.unit) : "") << " | " << format_change(row)
        << " | " << (has_tolerance ? format_pct(row.tolerance_pct) : "") << " | "
        << escape_markdown_text(format_noise(row, comparison.mode)) << " | " << throughput(achieved_gb_per_s(row))
        << " | " << throughput(achieved_tflop_per_s(row)) << " | "
        << escape_markdown_text(note_and_action(row, comparison.mode)) << " |\n";
  }
  // Which release judged: a report kept in a pull request or an artifact can be traced to its gate.
  out << "\n" << formats::kHarnessVersionLine << "\n";
}

}  // namespace gpuperf::gate
