#pragma once
// One perf run kept in the history (perf_gate history-append): what was measured on which GPU at which
// commit, small enough to keep every run on main for years (no raw samples: per-process medians only).
//
// A run is keyed by run_key, which the caller makes unique per CI job and stable across its retries
// (CI: "<repository>/<workflow run id>/<GPU UUID>"): appending a run whose key is stored already adds
// nothing, so a retried job is counted once.

#include <map>
#include <string>
#include <vector>

namespace gpuperf::gate::history {

// One benchmark of a run.
struct BenchmarkRecord {
  std::vector<double> process_medians;  // one per timed process, in the run's order [the benchmark's unit]
  std::string unit;                     // "us" (time) or "cycles"
  std::string verdict;                  // the gate's final verdict (SAME, SLOW, ..., UNCHANGED); "" if none
  std::string code_hash;                // a hash of the benchmark's fingerprint (its code); "" if none
};

struct RunRecord {
  std::string run_key;      // unique per CI job, the same for its retries (see above)
  std::string commit;       // full or short SHA of the code measured
  std::string date;         // when the run ended, ISO 8601 UTC ("2026-11-24T17:05:38Z")
  std::string runner;       // the machine's name (CI: the runner's); "" if unknown
  std::string gpu_slug;     // "nvidia-h100-80gb-hbm3": the series a run belongs to
  std::string gpu_uuid;     // "GPU-..."
  std::string driver;       // "580.159.04"
  std::string cuda_runtime; // "13.0"
  std::string baseline_recorded;  // the baseline it was judged against: its recorded.date ("" if none)
  std::map<std::string, BenchmarkRecord> benchmarks;  // by benchmark name
  std::string harness_version;  // the gpuperf release that judged the run ("0.1.0"); "" if unknown
};

}  // namespace gpuperf::gate::history
