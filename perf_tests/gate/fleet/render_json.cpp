#include <cmath>
#include <nlohmann/json.hpp>

#include "formats/version.h"
#include "gate/fleet/render.h"

namespace gpuperf::gate {
namespace {

using ordered = nlohmann::ordered_json;

// JSON has no NaN or infinity, and an absent figure is null: both are written as null.
ordered number(const std::optional<double>& value) {
  return value && std::isfinite(*value) ? ordered(*value) : ordered(nullptr);
}

ordered text_or_null(const std::string& text) { return text.empty() ? ordered(nullptr) : ordered(text); }

ordered row_entry(const FleetReport& report, const FleetRow& row) {
  ordered entry{{"name", row.name},
                {"family", row.family},
                {"variant", row.variant},
                {"shape", row.shape},
                {"unit", row.unit},
                {"throughput_unit", text_or_null(throughput_unit(row.throughput))},
                {"compared_with", text_or_null(row.compared_with)},
                {"speedup_over", text_or_null(row.speedup_over)}};
  ordered by_gpu = ordered::object();
  for (std::size_t g = 0; g < report.gpus.size(); ++g) {
    const FleetCell& c = row.cells[g];
    by_gpu[report.gpus[g].slug] = ordered{{"time", number(c.time)},
                                          {"unit", text_or_null(c.unit)},
                                          {"throughput", number(c.throughput)},
                                          {"pct_of_ceiling", number(c.pct_of_ceiling)},
                                          {"speedup", number(c.speedup)}};
  }
  entry["gpus"] = by_gpu;
  ordered ratios = ordered::array();
  for (std::size_t i = 0; i < row.time_ratios.size(); ++i) {
    ratios.push_back(ordered{{"numerator", report.gpus.front().slug},
                             {"denominator", report.gpus[i + 1].slug},
                             {"ratio", number(row.time_ratios[i])}});
  }
  entry["time_ratios"] = ratios;
  return entry;
}

}  // namespace

std::string fleet_json_report(const FleetReport& report) {
  ordered doc;
  doc["schema_version"] = kFleetReportSchemaVersion;
  doc["harness_version"] = formats::kHarnessVersion;  // the gpuperf that tabulated, beside the format's version
  doc["tool"] = "perf_gate report";
  ordered gpus = ordered::array();
  for (const FleetGpu& gpu : report.gpus) {
    gpus.push_back(ordered{{"name", gpu.name}, {"slug", gpu.slug}, {"label", gpu.label}, {"source", gpu.source}});
  }
  doc["gpus"] = gpus;
  ordered families = ordered::array();
  for (const FleetFamily& family : report.families) {
    ordered rows = ordered::array();
    for (const FleetRow& row : family.rows) rows.push_back(row_entry(report, row));
    const ordered chart = family.chart_shape.empty()
                              ? ordered(nullptr)
                              : ordered{{"shape", family.chart_shape},
                                        {"throughput_unit", throughput_unit(family.chart_throughput)}};
    families.push_back(ordered{{"name", family.name}, {"chart", chart}, {"rows", rows}});
  }
  doc["families"] = families;
  ordered unlisted = ordered::array();
  for (const FleetRow& row : report.unlisted) unlisted.push_back(row_entry(report, row));
  doc["not_in_listing"] = unlisted;
  doc["unmeasured_cases"] = report.unmeasured_cases;
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpuperf::gate
