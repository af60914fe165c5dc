#pragma once
// What perf_gate history-changes prints, and what a default-branch run adds to its job summary: the
// change points and drifts that are new since the previous analysis (every one, without a previous
// analysis), each with the command that bisects it; a count of those known already (the full list is in
// the --json export); and the series whose drift the baseline given cannot judge, saying why.

#include <cstddef>
#include <string>

#include "gate/history/changes.h"

namespace gpuperf::gate::history {

// The most rows the Markdown report's table holds; the rest are counted ("and N more, in the --json
// export"). A row is at most about 1 KB (two names of at most 160 characters, four commits), so the
// section stays far below GitHub's 1 MiB job summary, for every GPU model of a run together.
inline constexpr std::size_t kMaxMarkdownRows = 50;

// One line per new change point and per new drift beyond its tolerance, each with the command that finds
// its commit; a line per series whose baseline entry is in another unit, one per baseline the latest
// runs were judged against that is not the one given; what is known already, or why the previous
// analysis could not be read. "no change point and no drift in N series" when there is none at all.
// Names escaped for a console.
std::string changes_console(const ChangesReport& report);

// The same as a Markdown section ("### History of <gpu>"), at most kMaxMarkdownRows rows, names escaped
// for Markdown.
std::string changes_markdown(const ChangesReport& report);

}  // namespace gpuperf::gate::history
