#include "gate/driver/team_suite.h"

#include <iostream>

#include "formats/exit_codes.h"
#include "formats/input_error.h"
#include "gate/driver/console.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/nvml_gpu.h"

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

void TeamSuite::note_pace_once(const std::string& text) {
  if (pace_noted_ || text.empty()) return;
  pace_noted_ = true;
  note(std::cerr, family_ + ": " + text);
}

ProcessOutcome TeamSuite::run_with_progress(const ProcessSpec& spec, ProcessProgress::LogReader reader,
                                            const std::string& selection, std::optional<int> known_total) {
  if (!progress_) progress_.emplace(reader, std::cerr);
  return progress_->run(spec, selection, known_total);
}

std::optional<ResultsFile> TeamSuite::read_fingerprints(const std::string& /*path*/) const { return std::nullopt; }

}  // namespace gpuperf::gate::driver
