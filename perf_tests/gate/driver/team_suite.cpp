#include "gate/driver/team_suite.h"

#include <ostream>

#include <nlohmann/json.hpp>

#include "formats/atomic_file.h"
#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/driver/console.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/nvml_gpu.h"
#include "gate/driver/team_fingerprints.h"

namespace gpuperf::gate::driver {

const formats::GpuIdentity& TeamSuite::identity() const {
  if (identity_) return *identity_;
  std::string why_none;
  try {
    identity_ = identify_gpu(why_none);
  } catch (const formats::InputError& e) {
    throw DriverStop(formats::kExitInvalidInput, e.what());
  }
  if (!identity_) throw DriverStop(formats::kExitNotJudged, "no CUDA device (" + why_none + ")");
  return *identity_;
}

SuiteGpu TeamSuite::gpu() {
  const formats::GpuIdentity& gpu = identity();
  return {gpu.name, gpu.slug, gpu.uuid};
}

// Never called: abilities() says the suite has no checking pass.
ProcessOutcome TeamSuite::check(const std::string& /*filter*/, const EnvironmentAdditions& /*environment*/,
                                const ProcessFiles& /*files*/) {
  throw DriverStop(formats::kExitInvalidInput, "a team's suite has no checking process");
}

void TeamSuite::note_pace_once(const std::string& text, std::ostream& err) {
  if (pace_noted_ || text.empty()) return;
  pace_noted_ = true;
  note(err, family_ + ": " + text);
}

ProcessOutcome TeamSuite::run_with_progress(const ProcessSpec& spec, ProcessProgress::LogReader reader,
                                            const std::string& selection, std::optional<int> known_total,
                                            std::ostream& err) {
  if (!progress_) progress_.emplace(reader);
  return progress_->run(spec, selection, known_total, err);
}

std::optional<ResultsFile> TeamSuite::read_fingerprints(const std::string& /*path*/) const { return std::nullopt; }

std::optional<ResultsFile> TeamSuite::capture_fingerprints(const std::vector<std::string>& names,
                                                           const std::string& prefix, std::ostream& err) {
  if (fingerprint_library_.empty()) return std::nullopt;
  std::vector<CaptureProcess> plan;
  for (const std::string& name : names) plan.push_back({name, capture_argv(name)});
  ResultsFile file;
  file.source = prefix + ".fingerprints.json";
  file.gpu = gpu_context_of(identity(), file.source);
  file.fingerprints = capture_fingerprints_apart(plan, fingerprint_library_, prefix, err);
  // What was captured, beside the run's other files, for whoever wants to see it.
  nlohmann::json written = nlohmann::json::object();
  for (const auto& [name, fingerprint] : file.fingerprints) written["fingerprints"][name] = fingerprint;
  try {
    formats::write_file_atomically(file.source, written.dump(1) + "\n");
  } catch (const formats::InputError& e) {
    note(err, std::string("the captured fingerprints are not kept: ") + e.what());
  }
  return file;
}

ResultsFile TeamSuite::with_fingerprint_reason(ResultsFile file, const std::string& tool) const {
  file.no_fingerprints_because =
      fingerprint_library_.empty()
          ? tool + ", and perf_gate found no capture library " + kFingerprintLibraryFile +
                " (a build without CUDA): give --fingerprint-library PATH"
          : "";
  return file;
}

}  // namespace gpuperf::gate::driver
