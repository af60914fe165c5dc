#include "gate/driver/team_fingerprints.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "formats/json_fields.h"
#include "formats/json_input.h"
#include "formats/number_text.h"
#include "gate/driver/console.h"
#include "gate/driver/driver_stop.h"

namespace gpuperf::gate::driver {
namespace {

constexpr const char* kInjectionVariable = "CUDA_INJECTION64_PATH";  // read by the CUDA driver at cuInit
constexpr const char* kOutputVariable = "GPUPERF_FINGERPRINT_OUT";   // read by inject.cpp

formats::Fingerprint not_captured(const std::string& why) {
  formats::Fingerprint fingerprint;
  fingerprint.capture_status = why;
  return fingerprint;
}

// A process's output ("" where it left none).
std::string output_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The process's output, after a line naming its benchmark, at the end of the log of every capture.
void append_to_log(const std::string& output, const std::string& to, const std::string& benchmark) {
  std::ofstream log(to, std::ios::app | std::ios::binary);
  log << "== " << benchmark << "\n" << output;
}

// Whether an Nsight tool stopped the process: Nsight Compute (ncu --target-processes all over a perf test)
// attaches to every child, and on an H200 (ncu 2025.3) ended each capture process with exit 1 and
// "==ERROR== Another tool/injection might be loaded since CUDA_INJECTION64_PATH is set to ...": it loads
// itself by the variable the capture library is loaded by.
bool nsight_tool_stopped_it(const std::string& output) {
  return output.rfind("==ERROR==", 0) == 0 || output.find("\n==ERROR==") != std::string::npos;
}

}  // namespace

formats::Fingerprint read_captured_fingerprint(const std::string& path, const ProcessOutcome& outcome,
                                               const std::string& output, const std::string& log) {
  if (!outcome.succeeded() && nsight_tool_stopped_it(output)) {
    // The tool's own words stay in the log: they are the process's output, not ours to repeat.
    return not_captured("another profiler is attached: an Nsight tool stopped the capture process, " +
                        outcome.describe() + ", as Nsight Compute does where CUDA_INJECTION64_PATH names another "
                        "library; its ==ERROR== line is in " + log);
  }
  if (!outcome.succeeded()) {
    return not_captured("the capture process failed (" + outcome.describe() + "; log: " + log + ")");
  }
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    return not_captured("the capture process wrote no fingerprint: it never initialized CUDA, or CUDA did not "
                        "load the capture library (log: " + log + ")");
  }
  try {
    const nlohmann::json json =
        formats::parse_json_document(formats::read_text_file(path, "the capture library writes it"), path);
    return formats::read_fingerprint(
        formats::ObjectReader(json, path, "", "the capture library writes one fingerprint (formats/fingerprint.h)"));
  } catch (const formats::InputError& e) {
    return not_captured(std::string("the capture library wrote no valid fingerprint: ") + e.what());
  }
}

std::map<std::string, formats::Fingerprint> capture_fingerprints_apart(const std::vector<CaptureProcess>& plan,
                                                                       const std::string& library,
                                                                       const std::string& prefix, std::ostream& err) {
  const auto started = std::chrono::steady_clock::now();
  const std::string file = prefix + ".fingerprint.json";
  const std::string part_log = prefix + ".fingerprint.log";
  const std::string log = prefix + ".fingerprints.log";
  std::error_code error;
  std::filesystem::remove(log, error);
  note(err, "capturing the fingerprints of " + std::to_string(plan.size()) +
                " benchmark(s), one process each, timing nothing (log: " + log + ")");
  std::map<std::string, formats::Fingerprint> captured;
  int not_captured_count = 0;
  for (const CaptureProcess& process : plan) {
    std::filesystem::remove(file, error);  // an earlier process's file would be read as this one's
    const ProcessOutcome outcome =
        run_process({process.argv, {{kInjectionVariable, library}, {kOutputVariable, file}}, part_log});
    const std::string output = output_of(part_log);
    append_to_log(output, log, process.benchmark);
    formats::Fingerprint fingerprint = read_captured_fingerprint(file, outcome, output, log);
    if (fingerprint.capture_status != formats::kCapturedByCupti) ++not_captured_count;
    captured[process.benchmark] = std::move(fingerprint);
  }
  std::filesystem::remove(file, error);
  std::filesystem::remove(part_log, error);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  note(err, "captured " + std::to_string(plan.size() - not_captured_count) + " of " + std::to_string(plan.size()) +
                " fingerprint(s) in " + formats::format_number("%.1f", seconds) + " s" +
                (not_captured_count > 0 ? " (the report says why the others were not)" : ""));
  return captured;
}

std::string find_fingerprint_library(const std::string& given, const std::string& executable_dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!given.empty()) {
    if (!fs::is_regular_file(given, error)) {
      throw DriverStop(formats::kExitInvalidInput, "--fingerprint-library " + given +
                                                       " is not a file: give the path of " + kFingerprintLibraryFile +
                                                       " (lib/ of the harness's install)");
    }
    return fs::absolute(given, error).string();
  }
  const fs::path bin(executable_dir);
  for (const fs::path& candidate : {bin / ".." / "lib" / kFingerprintLibraryFile, bin / ".." / "lib64" / kFingerprintLibraryFile,
                                    bin / ".." / "harness" / "fingerprint" / kFingerprintLibraryFile}) {
    if (fs::is_regular_file(candidate, error)) return fs::weakly_canonical(candidate, error).string();
  }
  return "";
}

}  // namespace gpuperf::gate::driver
