#pragma once
// The reports of perf_gate phases: a TimeTable as Markdown (for the job summary) and as JSON.

#include <string>

#include "gate/phases/time_table.h"

namespace gpuperf::gate::phases {

// A heading, a line for the build and one for the test step (summed time, and the wall time when tests
// ran at once), then one row per family and the total: correctness, perf and the perf test's phases
// [s, 1 decimal]; an empty cell where nothing was recorded. Family names as code spans.
std::string time_table_markdown(const TimeTable& table);

// The same numbers [s, to the millisecond], null where nothing was recorded; schema_version 1 and the
// harness_version that wrote it.
std::string time_table_json(const TimeTable& table);

}  // namespace gpuperf::gate::phases
