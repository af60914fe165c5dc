#pragma once
// A recorded baseline written over its file, as perf_gate record and perf_gate run --record both write it:
// the file locked from reading the previous one to replacing it, so that two recordings of one GPU model at
// once each leave a whole file (the later one stands) and neither loses what the other read; then what
// moved against the previous file, and how the platform differs from it, for the person who reviews the
// new file.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/recording/record.h"

namespace gpuperf::gate {

// Where a recorded baseline goes, and the file it takes over from.
struct BaselineDestination {
  std::string path;      // the file written, whole or not at all
  std::string previous;  // the file whose hand-set values are kept and that moves are shown against; "" none
  bool first_if_previous_missing = false;  // a missing `previous` is a first baseline, not an error
};

// The previous file, nullopt where there is none to read (no `previous`, or a missing one that
// first_if_previous_missing allows). InputError where it cannot be read or is no valid baseline: a
// recording checks it before it times anything (perf_gate run --record), so that a bad file is refused in
// seconds, not after minutes of timing.
std::optional<Baseline> read_previous_baseline(const BaselineDestination& destination);

// Records `runs` (record_baseline) into destination.path under its lock (formats::FileLock), keeping what
// the previous file holds by hand and the entries of the families the runs do not hold (another suite's:
// recorded_families.h), and prints on `out`:
//   wrote <path>: <n> benchmarks of <gpu name> (<slug>), <runs> runs, commit <commit>
//   kept <k> benchmarks of families not recorded here, as they were: <family> (<count>), ...   where any
//   left out <s> benchmarks the suite skipped itself (...): <name> (<its message>); ...    where any
//   what moved versus <previous> (largest change first):      and write_moves' lines of the recorded
//                                                              families, where a previous file
//   platform versus <previous>: <what changed>                where its platform differs from the runs'
// InputError, with nothing written, where the previous file cannot be read or record_baseline refuses the
// runs.
void write_recorded_baseline(const std::vector<ResultsFile>& runs, const BaselineDestination& destination,
                             const RecordOptions& options, std::ostream& out);

}  // namespace gpuperf::gate
