#include "gate/reports/report_files.h"

#include <filesystem>
#include <sstream>
#include <system_error>

#include "formats/atomic_file.h"
#include "formats/input_error.h"
#include "gate/reports/reports.h"

namespace gpuperf::gate {

void check_report_files(const ReportFiles& files) {
  formats::OutputFiles probe;
  for (const std::string* path : {&files.markdown, &files.json, &files.remeasure_list}) {
    if (!path->empty()) probe.add(*path, "");
  }
}

void write_report_files(const Report& report, const ReportFiles& files) {
  formats::OutputFiles outputs;
  if (!files.markdown.empty()) outputs.add(files.markdown, markdown_report(report));
  if (!files.json.empty()) outputs.add(files.json, json_report(report));
  if (!files.remeasure_list.empty()) outputs.add(files.remeasure_list, remeasure_list(report.comparison));
  outputs.write();
}

void remove_report_files(const ReportFiles& files) {
  for (const std::string* path : {&files.markdown, &files.json, &files.remeasure_list}) {
    std::error_code error;
    if (!path->empty() && !std::filesystem::remove(*path, error) && error) {
      throw formats::InputError("cannot remove the previous run's report " + *path + ": " + error.message() +
                                " - make its folder writable, or give another output folder");
    }
  }
}

std::vector<std::string> ambiguous_benchmarks(const Comparison& comparison) {
  std::vector<std::string> names;
  std::istringstream list(remeasure_list(comparison));
  for (std::string name; std::getline(list, name);) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

}  // namespace gpuperf::gate
