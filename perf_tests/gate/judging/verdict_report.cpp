#include "gate/judging/verdict_report.h"

#include <regex>
#include <set>

#include "formats/escape.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/sample_units.h"
#include "gate/judging/outcome.h"
#include "gate/judging/verdict.h"

namespace gpuperf::gate {
namespace {

constexpr const char* kReportHint = "give the --json report of perf_gate compare (perf-results/<family>.verdict.json)";

std::set<std::string> verdict_names() {
  std::set<std::string> names;
  for (int v = 0; v < kVerdictCount; ++v) names.insert(verdict_name(static_cast<Verdict>(v)));
  return names;
}

// "baseline recorded 2026-11-23T23:24:59Z at commit b8b76be" (judging/stored_mode.cpp): the date.
std::string recorded_date(const std::string& against) {
  static const std::regex form(R"(^baseline recorded (\S+) at commit .*)");
  std::smatch match;
  return std::regex_match(against, match, form) ? match[1].str() : "";
}

// The row's code.comparison: "same", "changed" or "unknown"; "" where code is null or absent.
std::string code_comparison_of(const formats::ObjectReader& row) {
  const std::optional<formats::ObjectReader> code = row.optional_object("code");
  if (!code) return "";
  const std::string comparison = code->string("comparison");
  if (comparison != "same" && comparison != "changed" && comparison != "unknown") {
    code->fail("comparison", "is '" + formats::escape_console(comparison) + "', expected same, changed or unknown");
  }
  return comparison;
}

}  // namespace

VerdictReport read_verdict_report(const std::string& text, const std::string& source) {
  const nlohmann::json json = formats::parse_json_document(text, source);
  const formats::ObjectReader top(json, source, "", kReportHint);
  top.schema_version(kReportSchemaVersion);
  VerdictReport report;
  report.mode = top.string("mode");
  if (report.mode != "compare" && report.mode != "ab") {
    top.fail("mode", "is '" + formats::escape_console(report.mode) + "', expected 'compare' or 'ab'");
  }
  const formats::ObjectReader gpu = top.object("gpu");
  report.gpu_slug = gpu.non_empty_string("slug");
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, report.gpu_slug); !error.empty()) {
    gpu.fail("slug", error);
  }
  report.gpu_name = gpu.optional_string("name").value_or("");
  if (const std::string error = formats::name_error(formats::NameKind::kGpu, report.gpu_name);
      !report.gpu_name.empty() && !error.empty()) {
    gpu.fail("name", error);
  }
  if (const std::optional<std::string> against = top.optional_string("against")) {
    report.baseline_recorded = recorded_date(*against);
  }
  report.harness_version = top.optional_string("harness_version").value_or("");
  // Printed by the pull-request comment: only the gate's own form, a word and lower-case words after it.
  report.outcome = top.optional_string("outcome").value_or("");
  static const std::regex outcome_form(R"((PASS|FAIL|INVALID|NOT JUDGED)(: [a-z0-9 ,()-]+)?)");
  if (!report.outcome.empty() && !std::regex_match(report.outcome, outcome_form)) {
    top.fail("outcome", "is '" + formats::escape_console(report.outcome) +
                            "', expected an outcome of perf_gate (PASS, FAIL: ..., INVALID: ..., NOT JUDGED: ...)");
  }
  static const std::set<std::string> known = verdict_names();
  const nlohmann::json& benchmarks = top.array("benchmarks");
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const formats::ObjectReader row = top.element("benchmarks", i, benchmarks[i]);
    VerdictRow read;
    read.name = row.non_empty_string("name");
    if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, read.name); !error.empty()) {
      row.fail("name", error);
    }
    read.verdict = row.string("verdict");
    if (known.count(read.verdict) == 0) {
      row.fail("verdict", "is '" + formats::escape_console(read.verdict) + "', expected a verdict of perf_gate");
    }
    read.unit = row.optional_string("unit").value_or("");
    if (!read.unit.empty() && read.unit != formats::kUnitMicroseconds && read.unit != formats::kUnitCycles) {
      row.fail("unit", "is '" + formats::escape_console(read.unit) + "', expected us or cycles");
    }
    read.current_median = row.optional_positive("current_median");
    read.baseline_median = row.optional_positive("baseline_median");
    read.change_pct = row.optional_number("change_pct");
    read.ci_low_pct = row.optional_number("ci_low_pct");
    read.ci_high_pct = row.optional_number("ci_high_pct");
    read.tolerance_pct = row.optional_non_negative("tolerance_pct");
    read.code_comparison = code_comparison_of(row);
    read.reason = row.optional_string("reason").value_or("");
    read.note = row.optional_string("note").value_or("");
    read.action = row.optional_string("action").value_or("");
    report.rows.push_back(std::move(read));
  }
  return report;
}

}  // namespace gpuperf::gate
