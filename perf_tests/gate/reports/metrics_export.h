#pragma once
// A run's measurements in the formats of the dashboards teams already keep, so that a team adds the gate
// and keeps its charts: Bencher Metric Format (BMF, the JSON of `bencher run --adapter json`) and
// github-action-benchmark's `customSmallerIsBetter` (an array of {name, unit, value, extra}).
//
// What goes out is each benchmark's median of process medians in this run (the value the gate judged),
// never a verdict: the charts draw levels, the gate decides. In BMF a time in microseconds becomes the
// built-in `latency` measure, which is in nanoseconds; cycles become a measure `cycles` (Bencher creates
// a measure named in the file when the project has none). No lower_value or upper_value: the gate's
// interval is of the change against the baseline, not of this run's level, and Bencher would draw it as
// the latter. github-action-benchmark's `extra` (its chart's tooltip) carries the verdict line.

#include <string>
#include <vector>

#include "gate/judging/verdict_report.h"

namespace gpuperf::gate {

struct MetricsExport {
  std::string gpu_slug;
  std::vector<VerdictRow> measured;  // by name, one each: the last report's row where several judged it
  std::vector<std::string> left_out; // names judged with no median of this run (MISSING, ERROR, ...)
};

// The reports' benchmarks, merged in the order given (a re-measurement's report after the first look's).
// InputError when the reports are of different GPUs (a chart's testbed is one GPU) or hold no benchmark.
MetricsExport metrics_from_reports(const std::vector<VerdictReport>& reports);

// Bencher Metric Format: {"<name>": {"latency": {"value": <ns>}}} or {"cycles": {"value": <cycles>}}.
std::string bencher_metric_format(const MetricsExport& metrics);

// github-action-benchmark customSmallerIsBetter: [{"name", "unit", "value", "extra"}], names in order.
std::string github_benchmark_json(const MetricsExport& metrics);

}  // namespace gpuperf::gate
