#include "gate/format.h"

#include <cstdio>

#include "gate/results.h"

namespace gpuperf::gate {
namespace {

constexpr double kBytesPerGigabyte = 1e9;
constexpr double kFlopsPerTeraflop = 1e12;
constexpr double kMicrosecondsPerSecond = 1e6;

std::string printf_string(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string signed_pct(double ratio) { return printf_string("%+.1f", (ratio - 1.0) * 100.0); }

double seconds_now(const BenchmarkComparison& row) {
  if (row.unit != kUnitMicroseconds || !(row.current_median > 0.0)) return 0.0;
  return row.current_median / kMicrosecondsPerSecond;
}

}  // namespace

std::string format_value(double value, const std::string& unit) {
  return printf_string(unit == kUnitCycles ? "%.0f" : "%.2f", value) + " " + unit;
}

std::string format_change(const BenchmarkComparison& row) {
  if (!row.judged()) return "";
  return signed_pct(row.ratio) + "% [" + signed_pct(row.ci_low) + ", " + signed_pct(row.ci_high) + "]";
}

std::string format_p(double p) { return printf_string("%.1g", p); }

std::string format_noise(const BenchmarkComparison& row, const std::string& mode) {
  if (!row.judged()) return "";
  char text[128];
  if (mode == "ab") {
    std::snprintf(text, sizeof text, "pair sd %.2f%%, %d pairs", row.process_sd_pct, row.pairs);
  } else {
    std::snprintf(text, sizeof text, "process sd %.2f%%, %d process%s vs %d recorded", row.process_sd_pct,
                  row.current_processes, row.current_processes == 1 ? "" : "es", row.baseline_processes);
  }
  return text;
}

std::string format_error_control(const ErrorBudget& budget) {
  // The coverage claimed is kIntervalConfidence over all looks; a look's own level is only how its
  // interval is built (outliers keep one look's coverage a little under that level in the simulation).
  char intervals[100];
  if (budget.looks == 1) {
    std::snprintf(intervals, sizeof intervals, "intervals %g%%", 100.0 * kIntervalConfidence);
  } else {
    std::snprintf(intervals, sizeof intervals, "intervals %g%% over all looks, each built at %.4g%%",
                  100.0 * kIntervalConfidence, 100.0 * budget.interval_confidence());
  }
  char text[300];
  std::snprintf(text, sizeof text,
                "family-wise false-alarm rate %g%% per run (%d benchmarks x %d look%s: each test at p < %.2g; %s)",
                100.0 * budget.run_alpha, budget.benchmarks, budget.looks, budget.looks == 1 ? "" : "s",
                budget.test_alpha(), intervals);
  return text;
}

std::string format_pct(double pct) { return printf_string("%.1f", pct) + "%"; }

double achieved_gb_per_s(const BenchmarkComparison& row) {
  const double seconds = seconds_now(row);
  return seconds > 0.0 && row.bytes > 0.0 ? row.bytes / seconds / kBytesPerGigabyte : 0.0;
}

double achieved_tflop_per_s(const BenchmarkComparison& row) {
  const double seconds = seconds_now(row);
  return seconds > 0.0 && row.flops > 0.0 ? row.flops / seconds / kFlopsPerTeraflop : 0.0;
}

std::string action_hint(const BenchmarkComparison& row, const std::string& mode) {
  const std::string refresh = std::string("refresh the baseline: ") + kUpdateBaselineCommand;
  const bool ab = mode == "ab";
  switch (row.verdict) {
    case Verdict::kError:
      return "the benchmark failed inside the perf binary (" + row.reason + "): run its correctness test";
    case Verdict::kSlow:
      return ab ? "fix the slowdown in build B, or if intended say so in the review (A/B keeps no baseline)"
                : "fix the slowdown, or if intended " + refresh;
    case Verdict::kMissing:
      return ab ? "not run by build B: removed or renamed on purpose?"
                : "not in the results: if removed or renamed on purpose, " + refresh;
    case Verdict::kNotJudged:
      return row.reason + ": re-run on an idle GPU";
    case Verdict::kAmbiguous:
      return "not decided yet: re-measure in more processes (--remeasure-list)";
    case Verdict::kFast:
      return ab ? "improvement in build B" : "improvement: to keep it, " + refresh;
    case Verdict::kNew:
      return ab ? "only in build B" : "not in the baseline: to gate it, " + refresh;
    case Verdict::kSame:
      return "";
  }
  return "";
}

}  // namespace gpuperf::gate
