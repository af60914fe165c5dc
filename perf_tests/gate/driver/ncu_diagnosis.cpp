#include "gate/driver/ncu_diagnosis.h"

#include <unistd.h>

#include <filesystem>

#include "gate/driver/console.h"
#include "gate/driver/driver_stop.h"
#include "gate/driver/process.h"

// Set by CMake for this file (gate/CMakeLists.txt): the installed scripts' folder relative to the
// installed perf_gate's, and this source tree's scripts/.
#ifndef GPUPERF_SCRIPTS_FROM_BINDIR
#define GPUPERF_SCRIPTS_FROM_BINDIR "../share/gpuperf/scripts"
#endif
#ifndef GPUPERF_SOURCE_SCRIPTS_DIR
#define GPUPERF_SOURCE_SCRIPTS_DIR ""
#endif

namespace gpuperf::gate::driver {

std::string this_program() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "perf_gate" : self.string();
}

std::vector<std::string> ncu_diagnose_candidates() {
  std::vector<std::string> candidates;
  const std::filesystem::path self = this_program();
  candidates.push_back(
      (self.parent_path() / GPUPERF_SCRIPTS_FROM_BINDIR / "ncu_diagnose.sh").lexically_normal().string());
  if (const std::string source = GPUPERF_SOURCE_SCRIPTS_DIR; !source.empty()) {
    candidates.push_back(source + "/ncu_diagnose.sh");
  }
  return candidates;
}

void run_ncu_diagnosis(const std::vector<std::string>& arguments, std::ostream& err) {
  std::string script;
  std::string looked_in;
  for (const std::string& candidate : ncu_diagnose_candidates()) {
    looked_in += (looked_in.empty() ? "" : ", ") + candidate;
    if (script.empty() && ::access(candidate.c_str(), R_OK) == 0) script = candidate;
  }
  if (script.empty()) {
    note(err, "no ncu diagnosis: ncu_diagnose.sh is not installed beside this perf_gate (looked for " + looked_in +
                  "); the verdict stands");
    return;
  }
  std::vector<std::string> argv = {"bash", script};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  argv.emplace_back("--gate");
  argv.push_back(this_program());
  err.flush();
  try {
    const ProcessOutcome outcome = run_process({argv, {}, ""});
    if (!outcome.succeeded()) note(err, "the ncu diagnosis failed (" + outcome.describe() + "); the verdict stands");
  } catch (const DriverStop& e) {
    note(err, std::string("the ncu diagnosis could not start: ") + e.what() + "; the verdict stands");
  }
}

}  // namespace gpuperf::gate::driver
