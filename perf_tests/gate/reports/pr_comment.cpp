#include "gate/reports/pr_comment.h"

#include <cmath>
#include <regex>
#include <set>

#include "formats/escape.h"
#include "gate/judging/outcome.h"
#include "gate/judging/verdict.h"
#include "gate/reports/annotations.h"

namespace gpuperf::gate {
namespace {

// The GPU as the comment names it: its name, or its slug where the report names none.
std::string pr_comment_gpu_cell(const VerdictReport& report) {
  return formats::escape_markdown_text(report.gpu_name.empty() ? report.gpu_slug : report.gpu_name);
}

// The families of the report's benchmarks (a name's part before its first '/'), sorted, unique.
std::string pr_comment_families_cell(const VerdictReport& report) {
  std::set<std::string> families;
  for (const VerdictRow& row : report.rows) families.insert(row.name.substr(0, row.name.find('/')));
  std::string cell;
  for (const std::string& family : families) cell += (cell.empty() ? "" : ", ") + formats::escape_markdown_text(family);
  return cell;
}

// "1 SLOW, 2 SAME": the count of each verdict among the rows, in the gate's order (judging/verdict.h, as
// the report's counts), the verdicts none has left out.
std::string pr_comment_counts_cell(const VerdictReport& report) {
  std::string cell;
  for (int v = 0; v < kVerdictCount; ++v) {
    const std::string name = verdict_name(static_cast<Verdict>(v));
    int count = 0;
    for (const VerdictRow& row : report.rows) count += row.verdict == name ? 1 : 0;
    if (count > 0) cell += (cell.empty() ? "" : ", ") + std::to_string(count) + " " + name;
  }
  return cell;
}

// The change and its interval; a verdict without a change (MISSING, NEW, ERROR, NOT_JUDGED, UNCHANGED)
// says why instead.
std::string pr_comment_change_cell(const VerdictRow& row, const std::string& mode) {
  if (row.change_pct && std::isfinite(*row.change_pct)) {
    std::string cell = annotation_pct(row.change_pct, true);
    if (row.ci_low_pct && row.ci_high_pct && std::isfinite(*row.ci_low_pct) && std::isfinite(*row.ci_high_pct)) {
      cell += " [" + annotation_pct(row.ci_low_pct, true) + ", " + annotation_pct(row.ci_high_pct, true) + "]";
    }
    return cell;
  }
  const bool ab = mode == "ab";
  if (row.verdict == "MISSING") return ab ? "only in A" : "baseline only";
  if (row.verdict == "NEW") return ab ? "only in B" : "not in the baseline";
  if (row.verdict == "ERROR") return "error in the benchmark";
  if (row.verdict == "NOT_JUDGED") return "not judged";
  if (row.verdict == "UNCHANGED") return "not re-timed";
  return "";
}

// The tolerance, only beside a change: a row without one was not judged against it.
std::string pr_comment_tolerance_cell(const VerdictRow& row) {
  const bool changed = row.change_pct && std::isfinite(*row.change_pct);
  return changed && row.tolerance_pct ? annotation_pct(row.tolerance_pct, false) : "";
}

}  // namespace

std::string run_url_error(const std::string& url) {
  static const std::regex form(R"(https://[A-Za-z0-9./_-]+)");
  if (url.size() <= kMaxRunUrlLength && std::regex_match(url, form)) return "";
  return "run URL '" + formats::escape_console(url.substr(0, 200)) + (url.size() > 200 ? "...'" : "'") +
         " is not an https address of a run (https://, then letters, digits and . / _ -; at most " +
         std::to_string(kMaxRunUrlLength) + " characters): give the run's html_url";
}

std::string pr_comment_markdown(const std::vector<PrCommentInput>& reports, const std::string& run_url) {
  std::string md = "<!-- gpuperf-verdicts -->\n### GPU perf verdicts\n\n";
  if (reports.empty()) {
    return md + "No gate report in this run: nothing was judged. See [the run](" + run_url + ").\n";
  }
  md += "| GPU | family | mode | outcome | counts |\n|---|---|---|---|---|\n";
  bool refused = false;
  for (const PrCommentInput& input : reports) {
    if (!input.report) {
      refused = true;
      md += "| (report refused) | " + formats::markdown_code_span(input.file_name) +
            " |  | INVALID: not a verdict report perf_gate wrote |  |\n";
      continue;
    }
    const VerdictReport& report = *input.report;
    md += "| " + pr_comment_gpu_cell(report) + " | " + pr_comment_families_cell(report) + " | " +
          formats::escape_markdown_text(report.mode) + " | " +
          (report.outcome.empty() ? std::string("(unknown outcome)") : formats::escape_markdown_text(report.outcome)) +
          " | " + pr_comment_counts_cell(report) + " |\n";
  }
  if (refused) {
    md += "\nA refused report is one perf_gate cannot read as a verdict report it wrote (a name outside the rule, "
          "an unknown verdict or outcome, another schema_version, not JSON): none of its benchmarks is listed; "
          "the log of the job that posted this comment says why.\n";
  }
  md += "\n";
  std::string rows;
  for (const PrCommentInput& input : reports) {
    if (!input.report) continue;
    const VerdictReport& report = *input.report;
    for (const VerdictRow& row : report.rows) {
      if (row.verdict == "SAME") continue;
      rows += "| " + formats::escape_markdown_text(row.verdict) + " | " + formats::markdown_code_span(row.name) + " | " +
              pr_comment_gpu_cell(report) + " | " + pr_comment_change_cell(row, report.mode) + " | " +
              pr_comment_tolerance_cell(row) + " |\n";
    }
  }
  if (rows.empty()) {
    md += refused ? "Every benchmark of the reports read: SAME.\n" : "Every benchmark: SAME.\n";
  } else {
    md += "| verdict | benchmark | GPU | change [interval] | tolerance |\n|---|---|---|---:|---:|\n" + rows;
  }
  return md + "\nFull reports: [the run](" + run_url + ") (job summaries and the perf-results artifacts).\n";
}

}  // namespace gpuperf::gate
