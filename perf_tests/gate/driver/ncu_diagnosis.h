#pragma once
// The Nsight Compute diagnosis of a regression, in-process: for the kNcuDiagnosedBenchmarks slowest SLOW
// benchmarks of a Comparison, one ncu pass per build profiles the kernels of one timed sample of each
// (scripts/ncu_profile.sh, the one place that knows ncu's command line, shared with scripts/record_ncu.sh),
// the rows are split into each benchmark's profile and checked against its fingerprint
// (ncu/window_attribution.h), stored beside the run (<dir>/ncu/<side>.ncu.json, with ncu's .csv, .order
// and .log), and set side by side with the profile before (ncu/profile.h diff_profiles). What comes back
// is data (ncu/diagnosis.h), worded by reports/ncu_diagnosis_text.h; anything that stops a benchmark's
// diagnosis is an entry saying why, never an exception: the diagnosis never changes a verdict.
//
// ncu_profile.sh is found beside the scripts installed with this perf_gate (<prefix>/share/gpuperf/scripts/),
// else in the source tree this perf_gate was built from.

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "gate/judging/comparison.h"
#include "gate/ncu/diagnosis.h"

namespace gpuperf::gate::driver {

// Stored mode: now against the profiles recorded beside the baseline (scripts/record_ncu.sh).
struct StoredDiagnosisPaths {
  std::string stored_profiles;  // <baselines>/<gpu slug>.ncu.json: the baseline's path with .ncu.json
  std::string bench;            // the perf binary that ran (suite.program())
  std::string fingerprints;     // results holding this run's fingerprints: its checking process's
  std::string dir;              // the profiles go to <dir>/ncu/ (now.ncu.json, <n>.json)
};

// A/B mode: build B against build A, each profiled; their fingerprints are in <dir>/a.round1.json and
// <dir>/b.round1.json (round 1's checking processes).
struct AbDiagnosisPaths {
  std::string bench_a;
  std::string bench_b;
  std::string dir;  // the comparison's --out: the profiles go to <dir>/ncu/ (a.ncu.json, b.ncu.json, <n>.json)
};

struct NcuDiagnosisOptions {
  std::string ncu;  // the ncu to run: a path, or a name looked up in PATH; "": $NCU, else "ncu"
  std::size_t top = kNcuDiagnosedBenchmarks;
};

// The diagnosis of `comparison`'s slowest SLOW benchmarks (none: no entries), in order of their change.
std::vector<NcuDiagnosis> diagnose_stored(const Comparison& comparison, const StoredDiagnosisPaths& paths,
                                          const NcuDiagnosisOptions& options = {});
std::vector<NcuDiagnosis> diagnose_ab(const Comparison& comparison, const AbDiagnosisPaths& paths,
                                      const NcuDiagnosisOptions& options = {});

// This program's own path (/proc/self/exe).
std::string this_program();

// The places ncu_profile.sh is looked for, in order.
std::vector<std::string> ncu_profile_script_candidates();

}  // namespace gpuperf::gate::driver
