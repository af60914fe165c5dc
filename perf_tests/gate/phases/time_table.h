#pragma once
// Where a run's time went, from its phase files (phase_files.h): the build, and per kernel family its
// correctness test and its perf test split into the perf test's phases, with totals; and, for the test
// step, the tests' summed time beside the wall time from the first start to the last end, which is
// shorter when tests ran at once on several GPUs.

#include <optional>
#include <string>
#include <vector>

#include "gate/phases/phase_files.h"

namespace gpuperf::gate::phases {

struct BuildTime {
  double wall_s = 0.0;                 // the whole step, its dependency check included [s]
  std::optional<double> configure_s;   // [s]
  std::optional<double> build_s;       // [s]
};

// Recording the Nsight Compute profiles beside a baseline (scripts/record_ncu.sh).
struct ProfilesTime {
  double wall_s = 0.0;               // the whole recording [s]
  std::optional<double> checking_s;  // the checking process that captured the fingerprints [s]
  std::optional<double> ncu_s;       // the ncu pass and storing its profiles [s]
};

// One family's row, or the total of every row. A field is empty where no file recorded it.
struct FamilyTime {
  std::string family;                  // "" in the total
  std::optional<double> correctness_s; // the test correctness.<family> [s]
  std::optional<double> perf_s;        // the test perf.<name> (else the span of its phases file) [s]
  std::optional<double> lock_wait_s;   // waiting for the GPU's lock [s]
  std::optional<double> checking_s;    // the checking process [s]
  std::optional<double> first_look_s;  // the first look's timed processes [s]
  std::optional<double> remeasure_s;   // every re-measurement [s]
  int remeasurements = 0;              // how many
  std::optional<double> diagnosis_s;   // Nsight Compute on a regression [s]
  std::optional<double> other_s;       // the rest of the perf test: judging, reports, start-up [s]
};

// The tests of the step: correctness and perf tests (a perf test's phases file where its test recorded
// nothing).
struct TestStepTime {
  int tests = 0;
  double sum_s = 0.0;   // their wall times added [s]
  double wall_s = 0.0;  // from the first start to the last end [s]
  bool parallel = false;  // some test started before another had ended
};

struct TimeTable {
  std::optional<BuildTime> build;
  std::optional<ProfilesTime> profiles;
  std::vector<FamilyTime> families;  // by name
  FamilyTime total;
  std::optional<TestStepTime> tests;  // none without a test file
};

// The table of every file; InputError naming both files when two record the same thing (two build or
// profiles files, or two of one kind and family).
TimeTable build_time_table(const std::vector<PhaseFile>& files);

}  // namespace gpuperf::gate::phases
