#pragma once
// The baseline of one GPU model (baselines/<gpu_slug>.json): what each benchmark measured when the
// baseline was recorded, and the tolerances that say how much it may move. Documented in baselines/README.md.

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "formats/fingerprint.h"
#include "formats/gpu_identity.h"

namespace gpuperf::gate {

// Bump on any incompatible change of the file format, and teach parse_baseline the old one or say why not.
// 2: per-process medians replace the pooled samples (the process is the unit of replication). 1 is still
// read: its pooled samples are split back into the processes that wrote them.
inline constexpr int kBaselineSchemaVersion = 2;
inline constexpr int kOldestReadableBaselineSchema = 1;

// The largest tolerance a baseline or an option may give [percent]. Beyond it a tolerance no longer says how
// much a benchmark may move but that it may never fail: a typo (1e308) must not silently turn the gate off.
inline constexpr double kMaxTolerancePct = 1000.0;
// "" when `pct` is a tolerance the gate accepts, a finite number in [0, kMaxTolerancePct]; else what is
// wrong with it ("NaN", "negative", "1e+308, above 1000"). Every reader of a tolerance checks with it.
std::string why_not_tolerance_pct(double pct);

// Relative slack of the check that a benchmark's median lies within its process medians: the file keeps 7
// significant digits of each, and rounding is monotone, so a recorded file is within by construction.
inline constexpr double kMedianWithinProcessMediansSlack = 1e-6;

// The GPU model the baseline was recorded on; its slug must equal the results' context.gpu_slug. The
// uuid stays empty: a baseline pools several cards of one model (BaselineRecorded::gpu_uuids).
struct BaselineGpu : formats::GpuIdentity {
  // The median clocks of every valid sample recorded (optional: absent from older files and where NVML
  // gave none). The reports name a change beyond kClockChangeThresholdPct (inputs/platform.h) [MHz]
  std::optional<double> sm_clock_mhz;
  std::optional<double> mem_clock_mhz;
};

struct BaselineRecorded {
  std::string date;  // ISO 8601, UTC
  std::string commit;
  // The gpuperf release whose perf_gate recorded the file ("0.1.0", formats/version.h); empty in files
  // recorded before releases were named (optional: read when present, written when set).
  std::string harness_version;
  int runs = 0;             // processes recorded
  int samples_per_run = 0;  // repetitions in one process
  // UUIDs of the GPUs whose runs were pooled ("GPU-8f2c..."), sorted; empty when unknown (older files,
  // results without gpu_uuid). Results from one of them may be held to same_gpu_tolerance_pct.
  std::vector<std::string> gpu_uuids;
  // How the runs were measured (formats/measuring_method.h): recorded.measuring_method, or
  // kMeasuringMethodUnrecorded in files that do not say; 0 for a team's suite only.
  int measuring_method = 0;
  // The GPUs recorded together, one list per recording session (one host's --all-gpus recording, or one
  // GPU's): GPUs of one session share their host's level, so their spread says nothing of how far another
  // host sits (judging/tolerance.h). Each UUID of the entries' machine_medians in exactly one list;
  // written only where machine_medians are, and merge_recordings concatenates the inputs' lists.
  std::vector<std::vector<std::string>> machine_groups;
};

struct BaselineEntry {
  std::string unit;  // "us" or "cycles"
  // The time of a typical process: the geometric mean of process_medians, the centre every ratio is
  // taken against [unit]
  double median = 0.0;
  // One per recording process: the median of its valid samples [unit]. Processes, not samples, are
  // the unit of replication: each lands at its own offset, which its own samples cannot show.
  std::vector<double> process_medians;
  double bytes = 0.0;                   // per run [bytes]
  double flops = 0.0;                   // per run [floating-point operations]
  std::optional<double> tolerance_pct;  // written by hand; survives a re-record [percent]
  // What the recording's checking process captured of the benchmark's code (harness/fingerprint/): the
  // reports compare it with the results' to say what changed. Absent from older files; one that cannot
  // be read is kept as not captured, its capture_status saying why.
  std::optional<formats::Fingerprint> fingerprint;
  // The level of each GPU that recorded the benchmark, when two or more did: the geometric mean of that
  // GPU's process medians, by its UUID ("GPU-8f2c...") [unit]. Then `median` is the geometric mean of
  // these levels (each machine weighs the same) and each process median is centred on it (divided by its
  // machine's level, times `median`), so that process_medians keep the spread within one machine and
  // these levels the spread between machines. Empty when one GPU recorded (the key is then left out).
  std::map<std::string, double> machine_medians;
};

// Machines of a model need this many levels in BaselineEntry::machine_medians before their spread says
// anything: one level is no spread.
inline constexpr std::size_t kMinMachinesForSpread = 2;

struct Baseline {
  int schema_version = kBaselineSchemaVersion;
  BaselineGpu gpu;
  BaselineRecorded recorded;
  double default_tolerance_pct = 0.0;                  // [percent]
  std::map<std::string, double> family_tolerance_pct;  // family -> [percent]
  std::map<std::string, BaselineEntry> benchmarks;     // by run_name
  // Replaces the default for results from a GPU in recorded.gpu_uuids: one GPU moves less between
  // processes than two machines of the same model do. Written by hand; survives a re-record [percent]
  std::optional<double> same_gpu_tolerance_pct;
  // What is valid but unlikely meant, one line each, naming the file and the key: the first of the
  // tolerances below 0.1% or above 50% (0.02 is likely a fraction meant as 2%) with how many more, and a
  // family override whose family has no benchmark in the file. Not part of the file; never written.
  std::vector<std::string> warnings;
};

// Parses and validates a baseline; `source` names it in messages. InputError for corrupt JSON, an
// unsupported schema_version, missing or mistyped fields, a median, process median or
// same_gpu_tolerance_pct that is not positive and finite, no process medians, a unit other than "us" or
// "cycles", a tolerance outside [0, kMaxTolerancePct], a benchmark name longer than
// kMaxBenchmarkNameLength, or (schema 2) a median outside [min, max] of its process medians: it is their
// geometric mean, and one that is not was edited by hand, so the reports would print one number while
// the verdict was taken against another; machine_medians with one entry, a key that is no GPU UUID, a level
// that is no time in range, or a median outside [min, max] of the levels; recorded.machine_groups with an
// empty list, a key that is no GPU UUID or a UUID in two lists, or a GPU of an entry's machine_medians in
// none (the file then holds machine_medians without groups: each GPU counts as its own session). A schema_version 1 file
// is read: its pooled samples are split into recorded.runs processes of samples_per_run (one process when
// the counts do not divide, as after throttled samples were dropped).
// Every object of the file (the top level, gpu, recorded, defaults, each family override and each
// benchmark) may hold only the keys baselines/README.md lists: any other is an InputError naming its path
// and the nearest known key ("did you mean `tolerance_pct`?"), as is a family override named near, but not
// as, a family of the file's benchmarks. Medians and process medians are held to formats/sample_units.h's
// range. What is valid but unlikely meant goes into Baseline::warnings.
Baseline parse_baseline(const std::string& text, const std::string& source);
// The same from a file, writing its warnings to `warnings` ("warning: <line>") the first time this process
// loads the file; the one-argument form writes them to standard error.
Baseline load_baseline(const std::string& path, std::ostream& warnings);
Baseline load_baseline(const std::string& path);

// The geometric mean of positive values (the centre of process medians); NaN when empty.
double geometric_mean(const std::vector<double>& values);

// The file's text (schema_version 2): stable key order, one benchmark's process medians on one line and
// its fingerprint on another, so that a re-record reviews as a readable diff.
std::string baseline_to_text(const Baseline& baseline);

}  // namespace gpuperf::gate
