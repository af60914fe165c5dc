#pragma once
// perf_gate run --record: a suite's baseline on this GPU, baselines/<gpu slug>.json, recorded by the driver
// for every kind of suite (scripts/update_baseline.sh is a wrapper around it). It replaces only the entries
// of the families the suite's processes report (our suite's, or a team's suite's one family: recording/
// recorded_families.h) and keeps every other suite's as it was. The GPU's lock held, then:
//   - the previous file, where there is one, read and checked (a corrupt file, or another GPU's, is
//     refused before anything is timed);
//   - where the suite checks its cases (ours, gpuperf_bench): one process that checks every case against its
//     reference and captures its fingerprint, timing nothing (--fingerprint-only): capturing in a timed
//     process moved three benchmarks' medians by 0.8-1.6% on an H100 (docs/results.md, "Does capturing
//     fingerprints move the timings?"). Its fingerprints go into the baseline; where it captured none (a
//     profiler already attached), a note says the baseline will hold none;
//   - `processes` timing processes of the whole suite, each one run of the baseline (each keeps its median
//     per benchmark, from which the gate estimates the process-to-process spread; a baseline from 3 is
//     judged with the wide interval 2 degrees of freedom allow), with no reference check;
//   - the file written by recording/write_baseline.h: tolerances written by hand into the previous file
//     kept, what moved against it printed, written whole or not at all under its lock.
// A failed or crashed process ends it with nothing written. Each process gets GPUPERF_GIT_COMMIT.
// Writes into `out`, each process's results with its .log beside: record.fingerprints.json and
// record.runN.json for a suite recorded whole (family ""), <family>.recordN.json for a team's suite.
// Exit 0 written, 2 failure (nothing written), 77 no GPU.

#include <ostream>
#include <string>

#include "gate/driver/suite.h"

namespace gpuperf::gate::driver {

inline constexpr int kDefaultRecordProcesses = 10;  // update_baseline.sh's --runs

struct RecordRunOptions {
  std::string family;     // a team's suite's name; "" for our own suite, whose baseline holds every family
  std::string baselines;  // the folder of baselines/<gpu slug>.json (created where missing)
  std::string out;        // the folder of the processes' results and logs (created)
  int processes = kDefaultRecordProcesses;
  int repetitions = 30;    // timed samples per benchmark per process
  int lock_wait_s = 1800;  // [s]
  std::string commit;      // the baseline's recorded commit; "" for the baselines' checkout's ("unknown": none)
};

// Records the baseline; what it wrote and what moved on `out`, notes and errors on `err`. Returns the exit
// code.
int record_suite_baseline(const RecordRunOptions& options, Suite& suite, std::ostream& out, std::ostream& err);

}  // namespace gpuperf::gate::driver
