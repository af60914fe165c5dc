#include "gate/driver/gpuperf_suite.h"

#include <nlohmann/json.hpp>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/names.h"
#include "gate/driver/driver_stop.h"

namespace gpuperf::gate::driver {
namespace {

// The text without its trailing newlines, as $(...) gives it.
std::string without_trailing_newlines(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

constexpr const char* kSkippedPrefix = "SKIPPED: ";

}  // namespace

SuiteGpu parse_gpu_info(const std::string& text, const std::string& source) {
  const nlohmann::json json = formats::parse_json_document(text, source);
  const formats::ObjectReader doc(json, source, "",
                                  "the benchmark binary's --gpu-info prints the GPU as one JSON object");
  SuiteGpu gpu{doc.non_empty_string("name"), doc.non_empty_string("slug"), doc.string("uuid")};
  if (const std::string error = formats::name_error(formats::NameKind::kGpuSlug, gpu.slug); !error.empty()) {
    doc.fail_at("slug:", error);
  }
  return gpu;
}

SuiteGpu GpuperfSuite::gpu() {
  std::string output;
  const ProcessOutcome outcome = run_process_captured({{program_, "--gpu-info"}, {}, ""}, output);
  output = without_trailing_newlines(output);
  if (!outcome.signaled && outcome.code == formats::kExitNotJudged) {
    if (output.rfind(kSkippedPrefix, 0) == 0) output.erase(0, std::string(kSkippedPrefix).size());
    throw DriverStop(formats::kExitNotJudged, output);
  }
  if (!outcome.succeeded()) {
    throw DriverStop(formats::kExitInvalidInput,
                     "'" + program_ + " --gpu-info' failed (" + outcome.describe() + "): " + output);
  }
  try {
    return parse_gpu_info(output, "'" + program_ + " --gpu-info'");
  } catch (const formats::InputError& e) {
    throw DriverStop(formats::kExitInvalidInput, e.what());
  }
}

ProcessOutcome GpuperfSuite::check(const std::string& filter, const EnvironmentAdditions& environment,
                                   const ProcessFiles& files) {
  return run_process(
      {{program_, "--fingerprint-only", "--benchmark_filter=" + filter, "--benchmark_out=" + files.results},
       environment,
       files.log});
}

ProcessOutcome GpuperfSuite::time(const TimingRequest& request, const ProcessFiles& files, std::ostream& /*err*/) {
  std::vector<std::string> argv = {program_};
  if (!request.check_references) argv.emplace_back("--no-reference-check");
  argv.push_back("--benchmark_filter=" + request.filter);
  if (!request.time_filter.empty()) argv.push_back("--time-filter=" + request.time_filter);
  argv.push_back("--benchmark_repetitions=" + std::to_string(request.repetitions));
  argv.push_back("--benchmark_out=" + files.results);
  argv.emplace_back("--benchmark_out_format=json");
  return run_process({argv, request.environment, files.log});
}

bool GpuperfSuite::supports_time_filter() {
  // Lists nothing, or refuses the unknown flag (a build from before it).
  return run_process(
             {{program_, "--no-reference-check", "--time-filter=^$", "--benchmark_list_tests=true"}, {}, "/dev/null"})
      .succeeded();
}

std::optional<formats::CaseListing> GpuperfSuite::case_listing() {
  std::string output;
  const ProcessOutcome outcome = run_process_captured({{program_, "--list-cases"}, {}, ""}, output);
  const std::string source = "'" + program_ + " --list-cases'";
  if (!outcome.succeeded()) {
    throw DriverStop(formats::kExitInvalidInput, source + " failed (" + outcome.describe() + "): " + output);
  }
  try {
    return formats::parse_case_listing(output, source);
  } catch (const formats::InputError& e) {
    throw DriverStop(formats::kExitInvalidInput, e.what());
  }
}

ResultsFile GpuperfSuite::read_results(const std::string& path) const { return load_results(path); }

std::optional<ResultsFile> GpuperfSuite::read_fingerprints(const std::string& path) const {
  nlohmann::json json;
  try {
    json = formats::parse_json_document(formats::read_text_file(path, "the checking process writes it"), path);
  } catch (const formats::InputError&) {
    return std::nullopt;  // as no fingerprint: the reason is in the process's log
  }
  const auto fingerprints = json.is_object() ? json.find("fingerprints") : json.end();
  if (!json.is_object() || fingerprints == json.end() || fingerprints->empty()) return std::nullopt;
  return load_results(path);
}

}  // namespace gpuperf::gate::driver
