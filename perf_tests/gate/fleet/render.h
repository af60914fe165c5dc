#pragma once
// The fleet report's renderings: Markdown tables (one per family) with optional Mermaid charts for
// people and $GITHUB_STEP_SUMMARY, and JSON for machines (scripts/plot_fleet.py draws from it).
// Formats described in fleet/README.md.

#include <ostream>
#include <string>

#include "gate/fleet/table.h"

namespace gpuperf::gate {

enum class FleetChart { kMermaid, kNone };

// A header naming the GPUs and what their numbers are, then per family a table (registry order) and,
// with kMermaid, its chart; then the benchmarks missing from the listing and the count of cases no GPU
// measured; last a line naming the harness's version ("gpuperf 0.1.0").
void write_fleet_markdown(const FleetReport& report, FleetChart chart, std::ostream& out);

// The family's chart as a fenced Mermaid `xychart-beta` block: throughput of every variant at the
// family's chart shape, one bar per variant and GPU. Empty when the family has no chart.
std::string fleet_mermaid_chart(const FleetReport& report, const FleetFamily& family);

// Every number of the report (schema_version kFleetReportSchemaVersion), harness_version beside it.
std::string fleet_json_report(const FleetReport& report);

}  // namespace gpuperf::gate
