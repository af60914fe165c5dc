#include "gate/reports/numbers.h"

#include <cstdio>

#include "formats/sample_units.h"

namespace gpuperf::gate {
namespace {

constexpr double kBytesPerGigabyte = 1e9;
constexpr double kFlopsPerTeraflop = 1e12;
constexpr double kMicrosecondsPerSecond = 1e6;

std::string signed_pct(double ratio) { return format_number("%+.1f", (ratio - 1.0) * 100.0); }

double seconds_now(const BenchmarkComparison& row) {
  if (row.unit != formats::kUnitMicroseconds || !(row.current_median > 0.0)) return 0.0;
  return row.current_median / kMicrosecondsPerSecond;
}

}  // namespace

std::string format_change(const BenchmarkComparison& row) {
  if (!row.judged()) return "";
  return signed_pct(row.ratio) + "% [" + signed_pct(row.ci_low) + ", " + signed_pct(row.ci_high) + "]";
}

std::string format_p(double p) { return format_number("%.1g", p); }

double achieved_gb_per_s(const BenchmarkComparison& row) {
  const double seconds = seconds_now(row);
  return seconds > 0.0 && row.bytes > 0.0 ? row.bytes / seconds / kBytesPerGigabyte : 0.0;
}

double achieved_tflop_per_s(const BenchmarkComparison& row) {
  const double seconds = seconds_now(row);
  return seconds > 0.0 && row.flops > 0.0 ? row.flops / seconds / kFlopsPerTeraflop : 0.0;
}

}  // namespace gpuperf::gate
