#include "gate/phases/time_table_report.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "formats/escape.h"
#include "formats/version.h"

namespace gpuperf::gate::phases {
namespace {

// The JSON report's format: change it, bump this.
constexpr int kTimeTableSchemaVersion = 1;

std::string seconds(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string cell(const std::optional<double>& value) { return value ? seconds(*value) : ""; }

void markdown_row(std::ostringstream& md, const std::string& name, const FamilyTime& row) {
  md << "| " << name << " | " << cell(row.correctness_s) << " | " << cell(row.perf_s) << " | "
     << cell(row.lock_wait_s) << " | " << cell(row.checking_s) << " | " << cell(row.first_look_s) << " | "
     << cell(row.remeasure_s) << (row.remeasurements > 0 ? " (" + std::to_string(row.remeasurements) + ")" : "")
     << " | " << cell(row.diagnosis_s) << " | " << cell(row.other_s) << " |\n";
}

// Seconds to the millisecond, or null.
nlohmann::ordered_json json_seconds(const std::optional<double>& value) {
  if (!value) return nullptr;
  return std::round(*value * 1000.0) / 1000.0;
}

nlohmann::ordered_json json_row(const FamilyTime& row) {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  if (!row.family.empty()) json["family"] = row.family;
  json["correctness_s"] = json_seconds(row.correctness_s);
  json["perf_s"] = json_seconds(row.perf_s);
  json["lock_wait_s"] = json_seconds(row.lock_wait_s);
  json["checking_s"] = json_seconds(row.checking_s);
  json["first_look_s"] = json_seconds(row.first_look_s);
  json["remeasure_s"] = json_seconds(row.remeasure_s);
  json["remeasurements"] = row.remeasurements;
  json["diagnosis_s"] = json_seconds(row.diagnosis_s);
  json["other_s"] = json_seconds(row.other_s);
  return json;
}

}  // namespace

std::string time_table_markdown(const TimeTable& table) {
  std::ostringstream md;
  md << "### Where the time went\n\n";
  if (table.build) {
    md << "Build: " << seconds(table.build->wall_s) << " s";
    if (table.build->configure_s || table.build->build_s) {
      md << " (configure " << cell(table.build->configure_s) << " s, build " << cell(table.build->build_s) << " s)";
    }
    md << ".\n";
  } else {
    md << "Build: not recorded (scripts/ci/build.sh records it).\n";
  }
  if (table.profiles) {
    md << "Profiles: " << seconds(table.profiles->wall_s) << " s (checking " << cell(table.profiles->checking_s)
       << " s, ncu " << cell(table.profiles->ncu_s) << " s).\n";
  }
  if (!table.tests) {
    md << "Tests: none recorded its time.\n";
    return md.str();
  }
  const TestStepTime& tests = *table.tests;
  md << "Tests: " << tests.tests << (tests.tests == 1 ? " test, " : " tests, ") << seconds(tests.sum_s) << " s";
  if (tests.parallel) {
    md << " in all; they ran at once on several GPUs, " << seconds(tests.wall_s)
       << " s from the first start to the last end";
  }
  md << ".\n\n";
  md << "| Family | Correctness [s] | Perf [s] | Waiting for the GPU [s] | Checking [s] | First look [s] "
        "| Re-measurements [s] (how many) | Diagnosis [s] | Other [s] |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const FamilyTime& row : table.families) markdown_row(md, formats::markdown_code_span(row.family), row);
  markdown_row(md, "Total", table.total);
  md << "\nPerf = waiting for the GPU + checking + first look + re-measurements + diagnosis + other (judging, "
        "reports, start-up).\n";
  return md.str();
}

std::string time_table_json(const TimeTable& table) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  doc["schema_version"] = kTimeTableSchemaVersion;
  doc["build"] = nullptr;
  if (table.build) {
    doc["build"] = {{"wall_s", json_seconds(table.build->wall_s)},
                    {"configure_s", json_seconds(table.build->configure_s)},
                    {"build_s", json_seconds(table.build->build_s)}};
  }
  doc["profiles"] = nullptr;
  if (table.profiles) {
    doc["profiles"] = {{"wall_s", json_seconds(table.profiles->wall_s)},
                       {"checking_s", json_seconds(table.profiles->checking_s)},
                       {"ncu_s", json_seconds(table.profiles->ncu_s)}};
  }
  doc["tests"] = nullptr;
  if (table.tests) {
    doc["tests"] = {{"count", table.tests->tests},
                    {"sum_s", json_seconds(table.tests->sum_s)},
                    {"wall_s", json_seconds(table.tests->wall_s)},
                    {"parallel", table.tests->parallel}};
  }
  nlohmann::ordered_json families = nlohmann::ordered_json::array();
  for (const FamilyTime& row : table.families) families.push_back(json_row(row));
  doc["families"] = families;
  doc["total"] = json_row(table.total);
  doc["harness_version"] = formats::kHarnessVersion;
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpuperf::gate::phases
