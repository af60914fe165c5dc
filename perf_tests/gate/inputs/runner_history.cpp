#include "gate/inputs/runner_history.h"

#include <nlohmann/json.hpp>

#include "formats/escape.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "formats/sample_units.h"

namespace gpuperf::gate {
namespace {

constexpr std::size_t kMaxGpuUuidLength = 64;  // [characters]; NVML's are 40
constexpr const char* kRunnerHistoryHint = "write it again with perf_gate history-offsets";

bool uuid_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

}  // namespace

std::string why_not_gpu_uuid(const std::string& uuid) {
  const std::string shown = "GPU UUID '" + formats::escape_console(uuid) + "'";
  if (uuid.rfind("GPU-", 0) != 0 || uuid.size() == 4) return shown + " does not start with GPU- and an id";
  if (uuid.size() > kMaxGpuUuidLength) return shown + " is longer than " + std::to_string(kMaxGpuUuidLength);
  for (char c : uuid) {
    if (!uuid_character(c)) return shown + " holds a character other than letters, digits and '-'";
  }
  return "";
}

RunnerHistory parse_runner_history(const std::string& text, const std::string& source) {
  const nlohmann::json document = formats::parse_json_document(text, source);
  const formats::ObjectReader top(document, source, "", kRunnerHistoryHint);
  top.schema_version(kRunnerHistorySchemaVersion);
  RunnerHistory history;
  history.gpu_slug = top.non_empty_string("gpu_slug");
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, history.gpu_slug); !error.empty()) {
    top.fail("gpu_slug", error);
  }
  history.baseline_recorded = top.string("baseline_recorded");
  const formats::ObjectReader runners = top.object("runners");
  for (const auto& [uuid, runner_value] : runners.raw().items()) {
    if (const std::string error = why_not_gpu_uuid(uuid); !error.empty()) runners.fail_here(error);
    const formats::ObjectReader runner = runners.member(uuid, runner_value);
    const formats::ObjectReader benchmarks = runner.object("benchmarks");
    auto& kept = history.runners[uuid];
    for (const auto& [name, benchmark_value] : benchmarks.raw().items()) {
      if (const std::string error = formats::name_error(formats::NameKind::kBenchmark, name); !error.empty()) {
        benchmarks.fail_here(error);
      }
      const formats::ObjectReader benchmark = benchmarks.member(name, benchmark_value);
      RunnerBenchmarkHistory& entry = kept[name];
      entry.unit = benchmark.string("unit");
      if (entry.unit != formats::kUnitMicroseconds && entry.unit != formats::kUnitCycles) {
        benchmark.fail("unit", "is '" + formats::escape_console(entry.unit) + "', expected \"us\" or \"cycles\"");
      }
      const nlohmann::json& runs = benchmark.array("runs");
      const formats::SampleUnit unit = formats::sample_unit_as_written(entry.unit);
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const std::string where = benchmark.field("runs") + "[" + std::to_string(r) + "]";
        if (!runs[r].is_array() || runs[r].empty()) benchmark.fail_at(where, "is not a non-empty array of medians");
        std::vector<double> medians;
        for (std::size_t p = 0; p < runs[r].size(); ++p) {
          medians.push_back(benchmark.sample_at(runs[r][p], where + "[" + std::to_string(p) + "]", unit));
        }
        entry.runs.push_back(std::move(medians));
      }
    }
  }
  return history;
}

RunnerHistory read_runner_history(const std::string& path) {
  return parse_runner_history(formats::read_text_file(path, "pass the file perf_gate history-offsets wrote"), path);
}

std::string runner_history_json(const RunnerHistory& history) {
  nlohmann::ordered_json runners = nlohmann::ordered_json::object();
  for (const auto& [uuid, benchmarks] : history.runners) {
    nlohmann::ordered_json by_name = nlohmann::ordered_json::object();
    for (const auto& [name, entry] : benchmarks) by_name[name] = {{"unit", entry.unit}, {"runs", entry.runs}};
    runners[uuid] = {{"benchmarks", by_name}};
  }
  const nlohmann::ordered_json document = {{"schema_version", kRunnerHistorySchemaVersion},
                                           {"gpu_slug", history.gpu_slug},
                                           {"baseline_recorded", history.baseline_recorded},
                                           {"runners", runners}};
  return document.dump(2) + "\n";
}

}  // namespace gpuperf::gate
