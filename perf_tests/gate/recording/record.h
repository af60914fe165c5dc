#pragma once
// Recording a GPU's baseline from fresh results, keeping what people wrote by hand in the previous one,
// and saying what moved.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"
#include "gate/recording/recorded_families.h"

namespace gpuperf::gate {

// The default tolerance of a first baseline, when neither --previous nor --default-tolerance-pct says.
inline constexpr double kDefaultTolerancePct = 4.0;
// The same-GPU default of a first baseline (results from the GPU that recorded it). On one H100 and one
// H200, 10 processes each (docs/results.md, 2026-11-23), a benchmark's process medians varied by 0.10-0.16%
// (median sd) and at most 1.0%; in the gate's simulation 2% raised no false alarm up to a process sd of 1%
// and caught 3% at 0.44% in 94% of trials.
inline constexpr double kDefaultSameGpuTolerancePct = 2.0;

struct RecordOptions {
  std::string commit;                            // empty: the results' git_commit, else "unknown"
  std::optional<double> default_tolerance_pct;   // overrides the previous default [percent]
  std::optional<double> same_gpu_tolerance_pct;  // overrides the previous one; positive [percent]
  std::string date;                              // ISO 8601 UTC; empty: now
};

// Each results file that timed benchmarks is one run (process); one that only holds fingerprints
// (gpuperf_bench --fingerprint-only) adds them and counts as no run. A benchmark keeps the median of each
// run's valid samples, the runs' GPU UUIDs are listed in recorded.gpu_uuids (runs from two or more GPUs:
// each benchmark keeps each GPU's level in machine_medians, its processes centred per machine,
// recording/machine_levels.h), recorded.harness_version
// names this gate's release, and gpu.sm_clock_mhz and gpu.mem_clock_mhz are the median clocks of all
// their valid samples (left out where no sample has one): the file's gpu and recorded describe this
// recording. From `previous` (may be null) it keeps defaults (same_gpu_tolerance_pct included), families
// and every per-benchmark tolerance_pct, and, as it was, every entry of a family the runs do not hold
// (another suite's: recorded_families.h) and of a benchmark the suite skipped (skipped_benchmarks).
// InputError when a benchmark reported an error or has fewer than kMinSamples valid samples in every run, when
// the suite skipped every benchmark, when the files come from different GPUs or none names its GPU, or when
// `previous` is for another GPU.
Baseline record_baseline(const std::vector<ResultsFile>& runs, const Baseline* previous, const RecordOptions& options);

// A benchmark the suite itself skipped (Google Benchmark >= 1.8 SkipWithMessage, an nvbench state it
// skipped or that has no GPU time): not the GPU's doing, and nothing to record. Skipped in any run counts.
struct SkippedBenchmark {
  std::string name;
  std::string message;  // the suite's own reason
};
// By name; a benchmark that also reported an error is an error, not here.
std::vector<SkippedBenchmark> skipped_benchmarks(const std::vector<ResultsFile>& runs);

// What moved between two baselines, for the person reviewing a re-record.
struct BaselineMove {
  enum class Kind { kMoved, kAdded, kRemoved };
  std::string name;
  Kind kind = Kind::kMoved;
  std::string unit;
  double old_median = 0.0;  // [unit]
  double new_median = 0.0;  // [unit]
  double change_pct = 0.0;  // (new / old - 1) in percent
  // The tolerance the previous baseline judges this benchmark with on another machine [percent]; a move
  // beyond it is what a runner like the old one would report, SLOW or FAST, against the new file.
  double tolerance_pct = 0.0;
};

// Moved benchmarks by |change| (largest first), then added, then removed; only those `recorded` replaces
// (the entries of other suites are kept, and did not move).
std::vector<BaselineMove> baseline_moves(const Baseline& previous, const Baseline& next,
                                         const RecordedFamilies& recorded);
// One line per move, then (last, where a reader of a long log looks) how many moved beyond their tolerance.
void write_moves(const std::vector<BaselineMove>& moves, std::ostream& out);

}  // namespace gpuperf::gate
