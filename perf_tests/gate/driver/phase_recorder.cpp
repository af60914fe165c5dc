#include "gate/driver/phase_recorder.h"

#include <chrono>
#include <exception>
#include <filesystem>

#include "formats/atomic_file.h"
#include "formats/names.h"

namespace gpuperf::gate::driver {

double epoch_now_s() {
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(since_epoch).count()) / 1e6;
}

PhaseRecorder::PhaseRecorder(std::string family) {
  file_.kind = phases::PhaseFileKind::kPerfPhases;
  file_.family = std::move(family);
  file_.span.start_epoch_s = epoch_now_s();
}

void PhaseRecorder::begin() { phase_start_s_ = epoch_now_s(); }

void PhaseRecorder::end(const std::string& phase) { file_.phases.push_back({phase, {phase_start_s_, epoch_now_s()}}); }

bool PhaseRecorder::write(const std::string& dir) const {
  if (!formats::name_error(formats::NameKind::kFamily, file_.family).empty()) return false;
  phases::PhaseFile file = file_;
  file.span.end_epoch_s = epoch_now_s();
  try {
    std::filesystem::create_directories(dir);
    formats::write_file_atomically(dir + "/" + phases::phase_file_name(file.kind, file.family),
                                   phases::phase_file_text(file));
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

}  // namespace gpuperf::gate::driver
