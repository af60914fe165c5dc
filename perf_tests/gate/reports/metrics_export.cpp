#include "gate/reports/metrics_export.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "formats/input_error.h"
#include "formats/sample_units.h"

namespace gpuperf::gate {
namespace {

constexpr double kNanosecondsPerMicrosecond = 1000.0;

std::string formatted(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// "SLOW +10.0% [+9.4, +10.6] against 42.00 us (tolerance 2.0%)", "NEW", "SAME +0.1% [-0.3, +0.5] ...".
std::string verdict_line(const VerdictRow& row) {
  std::string line = row.verdict;
  if (row.change_pct) line += " " + formatted("%+.1f%%", *row.change_pct);
  if (row.ci_low_pct && row.ci_high_pct) {
    line += " [" + formatted("%+.1f", *row.ci_low_pct) + ", " + formatted("%+.1f", *row.ci_high_pct) + "]";
  }
  if (!row.baseline_median) return line;  // NEW, or A/B: no baseline, no tolerance
  line += " against " + formatted("%.4g", *row.baseline_median) + " " + row.unit;
  if (row.tolerance_pct) line += " (tolerance " + formatted("%.1f", *row.tolerance_pct) + "%)";
  return line;
}

}  // namespace

MetricsExport metrics_from_reports(const std::vector<VerdictReport>& reports) {
  MetricsExport metrics;
  std::map<std::string, VerdictRow> latest;
  std::vector<std::string> order;
  for (const VerdictReport& report : reports) {
    if (!metrics.gpu_slug.empty() && report.gpu_slug != metrics.gpu_slug) {
      throw formats::InputError("the reports are of " + metrics.gpu_slug + " and " + report.gpu_slug +
                                ": export one GPU's reports at a time (a chart's testbed is one GPU)");
    }
    metrics.gpu_slug = report.gpu_slug;
    for (const VerdictRow& row : report.rows) {
      if (latest.count(row.name) == 0) order.push_back(row.name);
      latest[row.name] = row;
    }
  }
  if (order.empty()) throw formats::InputError("the reports judged no benchmark: nothing to export");
  for (const std::string& name : order) {
    const VerdictRow& row = latest.at(name);
    if (row.current_median && !row.unit.empty()) {
      metrics.measured.push_back(row);
    } else {
      metrics.left_out.push_back(name);
    }
  }
  return metrics;
}

std::string bencher_metric_format(const MetricsExport& metrics) {
  nlohmann::ordered_json document = nlohmann::ordered_json::object();
  for (const VerdictRow& row : metrics.measured) {
    const bool time = row.unit == formats::kUnitMicroseconds;
    const double value = time ? *row.current_median * kNanosecondsPerMicrosecond : *row.current_median;
    document[row.name][time ? "latency" : row.unit] = {{"value", value}};
  }
  return document.dump(2) + "\n";
}

std::string github_benchmark_json(const MetricsExport& metrics) {
  nlohmann::ordered_json document = nlohmann::ordered_json::array();
  for (const VerdictRow& row : metrics.measured) {
    document.push_back(
        {{"name", row.name}, {"unit", row.unit}, {"value", *row.current_median}, {"extra", verdict_line(row)}});
  }
  return document.dump(2) + "\n";
}

}  // namespace gpuperf::gate
