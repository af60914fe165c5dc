#pragma once
// The phase files: where a run's time went, one small JSON file per writer in one folder (CI:
// <build>/perf-results/phases/), each written whole (a temporary file renamed over it), so that tests
// running at once on several GPUs never share a file. Writers and names:
//
//   build.json                       scripts/ci/build.sh: the whole step, its phases configure and build
//   correctness_test.<family>.json   scripts/ci/with_ctest_gpu.sh: the test correctness.<family>
//   perf_test.<name>.json            scripts/ci/with_ctest_gpu.sh: the test perf.<name> (a family, a shard)
//   perf_phases.<family>.json        perf_gate run (gate/driver/stored_run.h): its phases lock_wait
//                                    (waiting for the GPU's lock), checking (the checking process),
//                                    first_look (the first look's timed processes), remeasure (one per
//                                    re-measurement), diagnosis (Nsight Compute on a regression)
//   profiles.json                    scripts/record_ncu.sh: the whole recording, its phases checking (the
//                                    fingerprints) and ncu (the Nsight Compute pass and storing it)
//
// Format, schema_version 1 (times are seconds since the epoch, as bash's $EPOCHREALTIME; a span's wall
// time is its end - its start, computed here, not by the writer; scripts/lib/phases.sh and
// phase_file_text write it):
//   {"schema_version": 1, "what": "perf_phases", "family": "reduction",
//    "start_epoch_s": 1767225600.25, "end_epoch_s": 1767225645.5,
//    "phases": [{"phase": "checking", "start_epoch_s": 1767225600.5, "end_epoch_s": 1767225602.5}, ...]}
// "family" is absent from build.json and profiles.json; "phases" is optional. Change the format: bump the version.

#include <string>
#include <vector>

namespace gpuperf::gate::phases {

inline constexpr int kPhaseFileSchemaVersion = 1;

// One span of wall-clock time [seconds since the epoch].
struct TimeSpan {
  double start_epoch_s = 0.0;
  double end_epoch_s = 0.0;
  double wall_s() const { return end_epoch_s - start_epoch_s; }  // [s]
};

enum class PhaseFileKind { kBuild, kCorrectnessTest, kPerfTest, kPerfPhases, kProfiles };

struct Phase {
  std::string name;  // one of the names its kind allows (phase_names)
  TimeSpan span;
};

struct PhaseFile {
  std::string source;  // the file it was read from, for messages
  PhaseFileKind kind = PhaseFileKind::kBuild;
  std::string family;  // a valid family name (formats/names.h); "" for kBuild and kProfiles
  TimeSpan span;
  std::vector<Phase> phases;  // in the file's order
};

// "build", "correctness_test", "perf_test", "perf_phases", "profiles": the file's "what".
const char* kind_name(PhaseFileKind kind);
// The phases a kind may hold: build {configure, build}; perf_phases {lock_wait, checking, first_look,
// remeasure, diagnosis}; profiles {checking, ncu}; the tests none.
const std::vector<std::string>& phase_names(PhaseFileKind kind);

// One phase file from its text; `source` names it. InputError (formats/json_fields.h's form) for a
// wrong schema_version, an unknown "what" or phase, a family name that breaks the rule, a time that is
// not a positive finite number, or an end before its start.
PhaseFile parse_phase_file(const std::string& text, const std::string& source);

// The file's text in the format above, one line, times to the microsecond: what the driver writes
// (perf_gate run's perf_phases.<family>.json), as scripts/lib/phases.sh writes the others.
std::string phase_file_text(const PhaseFile& file);

// The file's name in its folder: "<what>.<family>.json", "<what>.json" for a kind without a family.
std::string phase_file_name(PhaseFileKind kind, const std::string& family);

// The *.json files of `dir`, sorted by name (a writer's temporary file, "<name>.json.tmp.XXXXXX", is not
// one); InputError when the folder cannot be read.
std::vector<std::string> list_phase_files(const std::string& dir);

}  // namespace gpuperf::gate::phases
