#include "gate/history/runner_offsets.h"

#include "formats/input_error.h"
#include "gate/history/store_input.h"
#include "gate/statistics/runner_history.h"

namespace gpuperf::gate::history {

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

}  // namespace gpuperf::gate::history
