#pragma once
// How the driver (perf_gate run, ab-run) ends a perf test early: the exit code CI acts on
// (formats/exit_codes.h) and the one line that says why and what to do.

#include <stdexcept>
#include <string>

namespace gpuperf::gate::driver {

class DriverStop : public std::runtime_error {
 public:
  // kExitNotJudged: printed "SKIPPED: <message>"; any other code: "error: <message>".
  DriverStop(int exit_code, const std::string& message) : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace gpuperf::gate::driver
