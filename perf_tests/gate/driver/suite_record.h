#pragma once
// perf_gate run --record: a team's suite's baseline on this GPU, baselines/<gpu slug>.json, recorded by the
// driver as scripts/update_baseline.sh records our own suite's: the GPU's lock held, `processes` timing
// processes of the whole suite (each one run of the baseline: each keeps its median per benchmark, from
// which the gate estimates the process-to-process spread), then perf_gate record's rules
// (recording/record.h): tolerances written by hand into the previous file kept, what moved against it
// printed, the file written whole or not at all under its lock.
// Only for a suite whose family is the whole suite (a team's, --format gbench): a family of our own suite
// is one part of its GPU's baseline file, which scripts/update_baseline.sh records whole.
// Writes into `out`: <family>.recordN.json/.log (each process). Exit 0 written, 2 failure (nothing
// written), 77 no GPU.

#include <ostream>
#include <string>

#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

inline constexpr int kDefaultRecordProcesses = 10;  // update_baseline.sh's --runs

struct RecordRunOptions {
  std::string family;     // the suite's name
  std::string baselines;  // the folder of baselines/<gpu slug>.json (created where missing)
  std::string out;        // the folder of the processes' results and logs (created)
  int processes = kDefaultRecordProcesses;
  int repetitions = 30;                 // timed samples per benchmark per process
  int lock_wait_s = 1800;               // [s]
  std::string commit;                   // the baseline's recorded commit; "" for the baselines' checkout's
};

// Records the baseline; what it wrote and what moved on `out`, notes and errors on `err`. Returns the exit
// code.
int record_suite_baseline(const RecordRunOptions& options, Suite& suite, std::ostream& out, std::ostream& err);

}  // namespace gpuperf::gate::driver
