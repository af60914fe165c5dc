#include "gate/history/changes.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "formats/escape.h"
#include "gate/history/change_points_runners.h"
#include "gate/history/drift.h"
#include "gate/statistics/tolerance.h"

namespace gpuperf::gate::history {
namespace {

std::string percent(double pct) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", pct);
  return text;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// The command that finds the commit: scripts/bisect.sh between the range's two ends.
std::string bisect_command(const std::string& good, const std::string& bad, const std::string& benchmark,
                           std::string (*escape)(std::string_view)) {
  return "scripts/bisect.sh --good " + escape(good) + " --bad " + escape(bad) + " --benchmark '" + escape(benchmark) +
         "'";
}

}  // namespace

void add_changes(SeriesExport& document, const std::optional<Baseline>& baseline, const ChangePointOptions& options) {
  for (ExportedSeries& exported : document.series) {
    const Series& series = exported.series;
    exported.change_points.clear();
    exported.drift.reset();
    if (series.points.empty()) continue;
    std::vector<ChangePoint> found;
    if (series.points.size() >= 2 * options.min_segment) {
      found = find_change_points(without_runner_offsets(series).values, options);
    }
    for (const ChangePoint& change : found) {
      exported.change_points.push_back({change.index, series.points[change.good_index].commit,
                                        series.points[change.bad_index].commit, change.before, change.after,
                                        change.change_pct, change.p_value});
    }
    if (!baseline) continue;
    const auto entry = baseline->benchmarks.find(series.benchmark);
    if (entry == baseline->benchmarks.end()) continue;
    // Runs on main land on any runner of the model: the tolerance of a machine other than the baseline's.
    const Tolerance tolerance = resolve_tolerance(*baseline, series.benchmark, entry->second, /*same_gpu=*/false);
    const Drift drift = find_drift(series, found, entry->second.median, tolerance.pct);
    exported.drift = ExportedDrift{drift.since,          drift.baseline_value,   drift.latest_value,
                                   drift.change_pct,     drift.tolerance_pct,    drift.beyond_tolerance,
                                   drift.good_commit,    drift.bad_commit};
  }
}

std::string changes_console(const SeriesExport& document) {
  std::ostringstream text;
  int moves = 0;
  for (const ExportedSeries& exported : document.series) {
    const std::string name = formats::escape_console(exported.series.benchmark);
    const std::string unit = formats::escape_console(exported.series.unit);
    for (const ExportedChangePoint& change : exported.change_points) {
      ++moves;
      text << "CHANGE  " << name << "  " << percent(change.change_pct) << " (" << number(change.before) << " -> "
           << number(change.after) << " " << unit << ", p=" << number(change.p_value) << ") between "
           << formats::escape_console(change.good_commit) << " and " << formats::escape_console(change.bad_commit)
           << "  -> " << bisect_command(change.good_commit, change.bad_commit, exported.series.benchmark,
                                        formats::escape_console)
           << "\n";
    }
    if (exported.drift && exported.drift->beyond_tolerance) {
      ++moves;
      const ExportedDrift& drift = *exported.drift;
      text << "DRIFT   " << name << "  " << percent(drift.change_pct) << " from the baseline of "
           << formats::escape_console(drift.since.empty() ? "an unnamed date" : drift.since) << " ("
           << number(drift.baseline_value) << " -> " << number(drift.latest_value) << " " << unit << ", tolerance "
           << number(drift.tolerance_pct) << "%) though every run passed, built up between "
           << formats::escape_console(exported.drift->good_commit) << " and "
           << formats::escape_console(exported.drift->bad_commit) << "  -> "
           << bisect_command(exported.drift->good_commit, exported.drift->bad_commit, exported.series.benchmark,
                             formats::escape_console)
           << "\n";
    }
  }
  if (moves == 0) text << "no change point and no drift in " << document.series.size() << " series\n";
  return text.str();
}

std::string changes_markdown(const SeriesExport& document) {
  std::ostringstream md;
  md << "### History of " << formats::markdown_code_span(document.gpu_slug) << "\n\n";
  std::ostringstream rows;
  int moves = 0;
  const auto code = [](std::string_view text) { return formats::markdown_code_span(text); };
  for (const ExportedSeries& exported : document.series) {
    const std::string name = code(exported.series.benchmark);
    for (const ExportedChangePoint& change : exported.change_points) {
      ++moves;
      rows << "| change point | " << name << " | " << percent(change.change_pct) << " | " << code(change.good_commit)
           << " .. " << code(change.bad_commit) << " | "
           << code(bisect_command(change.good_commit, change.bad_commit, exported.series.benchmark,
                                  formats::escape_console))
           << " |\n";
    }
    if (exported.drift && exported.drift->beyond_tolerance) {
      ++moves;
      rows << "| drift since the baseline (tolerance " << number(exported.drift->tolerance_pct) << "%) | " << name
           << " | " << percent(exported.drift->change_pct) << " | " << code(exported.drift->good_commit) << " .. "
           << code(exported.drift->bad_commit) << " | "
           << code(bisect_command(exported.drift->good_commit, exported.drift->bad_commit, exported.series.benchmark,
                                  formats::escape_console))
           << " |\n";
    }
  }
  if (moves == 0) {
    md << "No change point and no drift in " << document.series.size() << " series.\n";
    return md.str();
  }
  md << "WARNING: the history moved where every pull request passed (a warning, not a failure).\n\n"
     << "| What | Benchmark | Change | Commits | Bisect |\n|---|---|---:|---|---|\n"
     << rows.str();
  return md.str();
}

}  // namespace gpuperf::gate::history
