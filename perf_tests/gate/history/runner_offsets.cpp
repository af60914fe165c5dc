#include "gate/history/runner_offsets.h"

#include <algorithm>
#include <vector>

#include "formats/input_error.h"
#include "formats/number_text.h"
#include "gate/history/store_input.h"
#include "gate/statistics/runner_history.h"

namespace gpuperf::gate::history {
namespace {

using formats::format_number;

// "-3.9% to +1.2% (median -0.4%)" of values sorted in place; "" for none.
std::string offsets_percent_range(std::vector<double>& values) {
  if (values.empty()) return "";
  std::sort(values.begin(), values.end());
  return format_number("%+.1f", values.front()) + "% to " + format_number("%+.1f", values.back()) + "% (median " +
         format_number("%+.1f", values[values.size() / 2]) + "%)";
}

}  // namespace

RunnerHistoryBuilder::RunnerHistoryBuilder(const Baseline& baseline) : baseline_(baseline) {
  if (baseline.recorded.date.empty()) {
    throw formats::InputError("the baseline records no date (recorded.date), which names the code its runner "
                              "histories hold - re-record it: scripts/update_baseline.sh");
  }
  history_.gpu_slug = baseline.gpu.slug;
  history_.baseline_recorded = baseline.recorded.date;
}

void RunnerHistoryBuilder::add(const Series& series) {
  const auto entry = baseline_.benchmarks.find(series.benchmark);
  if (entry == baseline_.benchmarks.end() || !entry->second.fingerprint || entry->second.unit != series.unit) return;
  const std::string baseline_code = code_hash(*entry->second.fingerprint);
  if (baseline_code.empty()) return;
  for (const SeriesPoint& point : series.points) {
    if (point.code_hash != baseline_code || point.gpu_uuid.empty() || point.process_medians.empty()) continue;
    RunnerBenchmarkHistory& kept = history_.runners[point.gpu_uuid][series.benchmark];
    kept.unit = series.unit;
    kept.runs.push_back(point.process_medians);
    if (kept.runs.size() > static_cast<std::size_t>(kMaxRunnerHistoryRuns)) kept.runs.erase(kept.runs.begin());
  }
}

std::string runner_summary(const std::string& uuid, const std::map<std::string, RunnerBenchmarkHistory>& benchmarks,
                           const Baseline& baseline) {
  std::vector<double> offsets;
  std::vector<double> recent_level_drifts;
  std::vector<double> drifts;
  for (const auto& [name, entry] : benchmarks) {
    const RunnerLevel level = runner_level(entry.runs, baseline.benchmarks.at(name).process_medians, 0.0);
    if (level.runs > 0) offsets.push_back(level.offset_pct);
    if (level.trend == RunnerTrend::kRecentLevel) recent_level_drifts.push_back(level.drift_pct);
    if (level.trend == RunnerTrend::kDrifting) drifts.push_back(level.drift_pct);
  }
  std::string line = uuid + ": " + std::to_string(offsets.size() + drifts.size()) + " of " +
                     std::to_string(baseline.benchmarks.size()) + " benchmarks with " +
                     std::to_string(kMinRunnerHistoryRuns) + " runs or more";
  if (!offsets.empty()) line += ", offsets " + offsets_percent_range(offsets);
  if (!recent_level_drifts.empty()) {
    line += "; " + std::to_string(recent_level_drifts.size()) + " moved over their runs (" +
            offsets_percent_range(recent_level_drifts) + ") and are judged against their last " +
            std::to_string(kMinRunnerHistoryRuns) + " runs";
  }
  if (!drifts.empty()) {
    line += "; DRIFTING in " + std::to_string(drifts.size()) + " benchmark" + (drifts.size() == 1 ? "" : "s") +
            " (their level moved " + offsets_percent_range(drifts) + " over their runs, and still moves over the last " +
            std::to_string(kMinRunnerHistoryRuns) + "): judged as another machine, against the baseline, until "
            "it settles";
  }
  return line;
}

}  // namespace gpuperf::gate::history
