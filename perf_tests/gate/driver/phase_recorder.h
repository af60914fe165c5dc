#pragma once
// Where a perf test's time went: the spans of its phases (lock_wait, checking, first_look, remeasure,
// diagnosis), kept as they end and written as its phase file, perf_phases.<family>.json
// (gate/phases/phase_files.h), which perf_gate phases tabulates.

#include <string>

#include "gate/phases/phase_files.h"

namespace gpuperf::gate::driver {

// The time now [seconds since the epoch, to the microsecond].
double epoch_now_s();

class PhaseRecorder {
 public:
  // The test starts now.
  explicit PhaseRecorder(std::string family);

  // A phase starts now; end() closes it under its name (one of phase_names(kPerfPhases)).
  void begin();
  void end(const std::string& phase);

  // Writes <dir>/perf_phases.<family>.json whole (created with its folder, replaced atomically), the
  // test ending now. False, writing nothing, where it cannot (a family that is no family name, a folder
  // that cannot be written): a phase file never changes a test's outcome.
  bool write(const std::string& dir) const;

 private:
  phases::PhaseFile file_;
  double phase_start_s_ = 0.0;
};

}  // namespace gpuperf::gate::driver
