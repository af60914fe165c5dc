// The fleet report's chart for GitHub, which renders ```mermaid blocks: a Mermaid `xychart-beta` with only
// the statements every release of it reads (title, x-axis categories, y-axis title, one bar series).
//
// One series, one bar per variant and GPU ("reduce9_shfl_down_last_warp (H200)"), not one series per
// GPU: xychart draws several bar series on top of each other at the same place and has no legend
// (mermaid-js/mermaid#7392, open), so the shorter bar of one GPU would hide behind the other's.
// Horizontal, because xychart never rotates category labels: under vertical bars long variant names run
// into each other, while on the left axis they stand one under the other. That axis takes at most about
// half the chart's width and drops labels that do not fit (mermaid-js/mermaid#5688): hence the GPUs'
// short labels ("H100", FleetGpu::label).
#include <string>
#include <vector>

#include "formats/escape.h"
#include "formats/number_text.h"
#include "gate/fleet/render.h"

namespace gpuperf::gate {
namespace {

using formats::format_number;

// A Mermaid string, in double quotes: names and GPU labels escaped for it (formats/escape.h), so that
// none can end the string, the ```mermaid block or write HTML into the chart.
std::string quoted(const std::string& text) { return "\"" + formats::escape_mermaid_string(text) + "\""; }

std::string number(double value) { return format_number("%.1f", value); }

}  // namespace

std::string fleet_mermaid_chart(const FleetReport& report, const FleetFamily& family) {
  if (family.chart_shape.empty()) return "";
  std::vector<std::string> labels;
  std::vector<std::string> values;
  for (const FleetRow& row : family.rows) {
    if (row.shape != family.chart_shape || row.throughput != family.chart_throughput) continue;
    for (std::size_t g = 0; g < row.cells.size(); ++g) {
      if (!row.cells[g].throughput) continue;
      labels.push_back(quoted(report.gpus.size() > 1 ? row.variant + " (" + report.gpus[g].label + ")" : row.variant));
      values.push_back(number(*row.cells[g].throughput));
    }
  }
  if (labels.empty()) return "";
  const std::string unit = throughput_unit(family.chart_throughput);
  std::string text = "```mermaid\nxychart-beta horizontal\n";
  text += "    title " + quoted(family.name + " at " + family.chart_shape + ", " + unit) + "\n";
  text += "    x-axis [";
  for (std::size_t i = 0; i < labels.size(); ++i) text += (i == 0 ? "" : ", ") + labels[i];
  text += "]\n    y-axis " + quoted(unit) + "\n    bar [";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i == 0 ? "" : ", ") + values[i];
  return text + "]\n```\n";
}

}  // namespace gpuperf::gate
