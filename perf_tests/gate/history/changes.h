#pragma once
// The history judged: every series of one GPU model with its change points (in the values with the
// runners' offsets taken out, change_points_runners.h) and, given the baseline, its drift from it
// (drift.h), as the series export holds them; and the report of what moved, which a run on the default
// branch adds to its job summary. Moves are warnings, never a failure: the per-pull-request gate fails.

#include <optional>
#include <string>

#include "gate/history/change_points.h"
#include "gate/history/series_json.h"
#include "gate/inputs/baseline.h"

namespace gpuperf::gate::history {

// Fills each series' change_points, and its drift where `baseline` holds the benchmark (at the tolerance
// it is judged with on another machine of the model). Series too short for a change point keep none.
void add_changes(SeriesExport& document, const std::optional<Baseline>& baseline, const ChangePointOptions& options);

// One line per change point and per drift beyond its tolerance, each with the command that bisects it;
// "no change point and no drift in N series" when there is none. Names escaped for a console.
std::string changes_console(const SeriesExport& document);

// The same as a Markdown section ("### History of <gpu>"), names escaped for Markdown.
std::string changes_markdown(const SeriesExport& document);

}  // namespace gpuperf::gate::history
