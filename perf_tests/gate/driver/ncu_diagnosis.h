#pragma once
// The Nsight Compute diagnosis of a regression: scripts/ncu_diagnose.sh, run by the driver with this
// perf_gate as its gate. Found beside the scripts installed with this perf_gate
// (<prefix>/share/gpuperf/scripts/), else in the source tree this perf_gate was built from; where neither
// has it, one line says so. The diagnosis never changes a verdict.

#include <ostream>
#include <string>
#include <vector>

namespace gpuperf::gate::driver {

// This program's own path (/proc/self/exe): the gate the diagnosis reads profiles with.
std::string this_program();

// The places ncu_diagnose.sh is looked for, in order.
std::vector<std::string> ncu_diagnose_candidates();

// Runs ncu_diagnose.sh with `arguments` and --gate <this program>, its output the driver's own. Where the
// script is absent or fails, a line on `err` says so ("the verdict stands").
void run_ncu_diagnosis(const std::vector<std::string>& arguments, std::ostream& err);

}  // namespace gpuperf::gate::driver
