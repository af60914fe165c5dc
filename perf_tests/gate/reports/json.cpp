#include <cmath>
#include <optional>
#include <nlohmann/json.hpp>

#include "formats/exit_codes.h"
#include "formats/version.h"
#include "gate/judging/code_check.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/reports/code_lines.h"
#include "gate/reports/code_words.h"
#include "gate/reports/numbers.h"
#include "gate/reports/report.h"
#include "gate/reports/reports.h"
#include "gate/reports/row_words.h"
#include "gate/reports/wording.h"

namespace gpuperf::gate {
namespace {

using ordered = nlohmann::ordered_json;

// JSON has no NaN or infinity: such a number is written as null.
ordered number(double value) { return std::isfinite(value) ? ordered(value) : ordered(nullptr); }

ordered change_pct(double ratio, bool judged) { return judged ? number((ratio - 1.0) * 100.0) : ordered(nullptr); }

ordered platform_entry(const PlatformChange& change) {
  const auto side = [](const std::string& value) { return value.empty() ? ordered(nullptr) : ordered(value); };
  if (change.kind == PlatformChange::Kind::kUnknown) {
    return ordered{{"field", change.field}, {"before", side(change.before)}, {"now", side(change.now)}};
  }
  const char* kind = change.kind == PlatformChange::Kind::kChanged ? "changed" : "mixed";
  return ordered{{"field", change.field},
                 {"kind", kind},
                 {"before", side(change.before)},
                 {"now", side(change.now)},
                 {"change_pct", change.change_pct ? number(*change.change_pct) : ordered(nullptr)}};
}

ordered notice_entry(const std::optional<RunNotice>& notice) {
  if (!notice) return nullptr;
  return ordered{{"summary", notice->summary}, {"action", notice->action}};
}

const char* shift_name(CanaryShift shift) {
  switch (shift) {
    case CanaryShift::kSlower:
      return "slower";
    case CanaryShift::kFaster:
      return "faster";
    case CanaryShift::kNone:
      break;
  }
  return "none";
}

// The memory canary (judging/memory_canary.h); null where there is none (A/B, or no ceiling benchmark compared).
ordered canary_entry(const std::optional<Canary>& canary, double interval_level) {
  if (!canary || !canary->measured()) return nullptr;
  ordered benchmarks = ordered::array();
  for (const CanaryBenchmark& b : canary->benchmarks) {
    benchmarks.push_back(ordered{{"name", b.name},
                                 {"change_pct", number(b.change_pct)},
                                 {"ci_low_pct", number(b.ci_low_pct)},
                                 {"ci_high_pct", number(b.ci_high_pct)}});
  }
  return ordered{{"family", kCanaryFamily},
                 {"moved", canary->moved()},
                 {"shift", shift_name(canary->shift)},
                 {"change_pct", number(canary->change_pct)},
                 {"threshold_pct", number(canary->threshold_pct)},
                 {"interval_level", interval_level},
                 {"benchmarks", std::move(benchmarks)},
                 {"left_out", canary_left_out_words(*canary)},
                 {"summary", canary_summary(*canary)},
                 {"action", canary_action(*canary)}};
}

const char* comparison_name(CodeComparison comparison) {
  switch (comparison) {
    case CodeComparison::kSame: return "same";
    case CodeComparison::kChanged: return "changed";
    case CodeComparison::kUnknown: return "unknown";
  }
  return "unknown";
}

// What changed in the benchmark's code (judging/code_check.h); null where neither side had a fingerprint.
ordered code_entry(const BenchmarkComparison& row) {
  if (!row.code) return nullptr;
  return ordered{{"comparison", comparison_name(row.code->comparison)},
                 {"changes", code_change_words(*row.code)},
                 {"warnings", code_warning_words(*row.code)},
                 {"unknown_reason", code_unknown_words(*row.code)}};
}

// Where the row was judged against the runner's own history (statistics/runner_history.h): that history's
// level against the baseline; null where it was judged against the baseline.
ordered runner_entry(const BenchmarkComparison& row) {
  if (!row.runner) return nullptr;
  return ordered{{"offset_pct", number(row.runner->offset_pct)},
                 {"offset_se_pct", number(row.runner->offset_se_pct)},
                 {"run_sd_pct", number(row.runner->run_sd_pct)},
                 {"runs", row.runner->runs}};
}

ordered comparison_document(const Comparison& comparison) {
  ordered doc;
  doc["schema_version"] = kReportSchemaVersion;
  doc["harness_version"] = formats::kHarnessVersion;  // the gpuperf that judged, beside the format's version
  doc["tool"] = "perf_gate";
  doc["mode"] = comparison.mode;
  doc["gpu"] = ordered{{"name", comparison.gpu_name}, {"slug", comparison.gpu_slug}};
  doc["against"] = against_text(comparison);
  doc["same_gpu"] = same_gpu_tolerance_applied(comparison);
  const ErrorBudget& budget = comparison.budget;
  doc["error_control"] = ordered{{"kind", "family-wise"},
                                 {"run_alpha", budget.run_alpha},
                                 {"benchmarks", budget.benchmarks},
                                 {"looks", budget.looks},
                                 {"test_alpha", budget.test_alpha()},
                                 {"interval_coverage", kIntervalConfidence},
                                 {"interval_level_per_look", budget.interval_confidence()}};
  doc["strict"] = comparison.strict;
  doc["fail_on_platform"] = comparison.fail_on_platform;  // PLATFORM fails (exit 1) instead of passing
  doc["outcome"] = outcome_text(comparison);
  doc["exit_code"] = exit_code(comparison);
  ordered counts = ordered::object();
  const VerdictCounts verdict_counts = count_verdicts(comparison);
  for (int v = 0; v < kVerdictCount; ++v) counts[verdict_name(static_cast<Verdict>(v))] = verdict_counts[v];
  doc["counts"] = counts;
  // Baseline -> results (A -> B): fields that differ ("changed", or "mixed" among a side's processes),
  // and fields not compared (a side does not say, null; or the driver versions come from different
  // sources). Informational: no verdict depends on them.
  ordered changes = ordered::array();
  ordered not_compared = ordered::array();
  for (const PlatformChange& change : comparison.platform) {
    (change.kind == PlatformChange::Kind::kUnknown ? not_compared : changes).push_back(platform_entry(change));
  }
  doc["platform_changes"] = std::move(changes);
  doc["platform_not_compared"] = std::move(not_compared);
  doc["platform_warning"] = notice_entry(platform_warning(comparison));
  doc["platform_hint"] = notice_entry(moved_with_platform(comparison));
  // The baseline's measuring method and the results' when they differ (formats/measuring_method.h); null
  // when they agree. Same-code rows beyond tolerance are then PLATFORM.
  const std::optional<RunNotice> method_notice = method_change_notice(comparison);
  doc["method_change"] = comparison.method_change
                             ? ordered{{"baseline", comparison.method_change->baseline},
                                       {"results", comparison.method_change->results},
                                       {"summary", method_notice->summary},
                                       {"action", method_notice->action}}
                             : ordered(nullptr);
  // Informational like the platform's: no verdict or exit code depends on it.
  doc["canary"] = canary_entry(comparison.canary, budget.interval_confidence());
  // The code side (judging/code_check.h), informational too; same_code_counts are the verdicts on identical
  // fingerprints, whose SLOW and FAST are the gate's observed false alarms.
  ordered same_code = ordered::object();
  const VerdictCounts same_code_verdicts = same_code_counts(comparison);
  for (int v = 0; v < kVerdictCount; ++v) same_code[verdict_name(static_cast<Verdict>(v))] = same_code_verdicts[v];
  doc["code"] = ordered{{"not_checked", comparison.code_not_checked == CodeNotChecked::kChecked
                                            ? ordered(nullptr)
                                            : ordered(code_not_checked_text(comparison))},
                        {"summary", code_summary(comparison)},
                        {"same_code_counts", same_code}};
  ordered rows = ordered::array();
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    const bool judged = row.judged();
    rows.push_back(ordered{
        {"name", row.name},
        {"verdict", verdict_name(row.verdict)},
        {"reason", reason_text(row.reason, comparison.mode)},
        {"unit", row.unit},
        {"baseline_median", row.baseline_median > 0.0 ? number(row.baseline_median) : ordered(nullptr)},
        {"current_median", row.current_median > 0.0 ? number(row.current_median) : ordered(nullptr)},
        {"ratio", judged ? number(row.ratio) : ordered(nullptr)},
        {"change_pct", change_pct(row.ratio, judged)},
        {"ci_low_pct", change_pct(row.ci_low, judged)},
        {"ci_high_pct", change_pct(row.ci_high, judged)},
        {"interval_level", budget.interval_confidence()},
        {"p_slower", judged ? number(row.p_slower) : ordered(nullptr)},
        {"p_faster", judged ? number(row.p_faster) : ordered(nullptr)},
        {"tolerance_pct", number(row.tolerance_pct)},
        {"tolerance_source", tolerance_source_words(row.tolerance_source)},
        {"processes_baseline", row.baseline_processes},
        {"processes_current", row.current_processes},
        {"process_sd_pct", judged ? number(row.process_sd_pct) : ordered(nullptr)},
        {"df", judged ? number(row.df) : ordered(nullptr)},
        {"note", notes_text(row.notes)},
        {"samples_baseline", row.baseline_samples},
        {"samples_current", row.current_samples},
        {"samples_throttled", row.throttled},
        {"repetitions", row.repetitions},
        {"pairs", row.pairs},
        {"bytes", number(row.bytes)},
        {"flops", number(row.flops)},
        {"gb_per_s", achieved_gb_per_s(row) > 0.0 ? number(achieved_gb_per_s(row)) : ordered(nullptr)},
        {"tflop_per_s", achieved_tflop_per_s(row) > 0.0 ? number(achieved_tflop_per_s(row)) : ordered(nullptr)},
        {"injected_slowdown_pct", number(row.injected_slowdown_pct)},
        {"machine_memory_change_pct",
         row.machine_memory_change_pct ? number(*row.machine_memory_change_pct) : ordered(nullptr)},
        {"code", code_entry(row)},
        {"runner", runner_entry(row)},
        {"action", action_hint(row, comparison.mode)},
    });
  }
  doc["benchmarks"] = std::move(rows);
  return doc;
}

// Benchmark names and error messages come from outside: replace invalid UTF-8 instead of throwing.
std::string report_text(const ordered& doc) {
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string json_report(const Comparison& comparison) { return report_text(comparison_document(comparison)); }

std::string json_report(const Report& report) {
  ordered doc = comparison_document(report.comparison);
  if (report.same_code && report.same_code->tally) doc["same_code_ledger"] = tally_json(*report.same_code->tally);
  return report_text(doc);
}

}  // namespace gpuperf::gate
