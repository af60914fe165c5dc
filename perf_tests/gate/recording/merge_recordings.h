#pragma once
// Merging baselines of one GPU model recorded on different GPUs (every GPU of a host:
// scripts/update_baseline.sh --all-gpus; hosts: perf_gate merge-baselines) into one file that keeps each
// machine's level (BaselineEntry::machine_medians), from whose spread the cross-machine tolerance comes
// (judging/tolerance.h). docs/baselines.md, "Recording on several GPUs".

#include <string>
#include <vector>

#include "gate/inputs/baseline.h"

namespace gpuperf::gate {

// One recording as merge_recordings takes it: its baseline and the name messages give it.
struct Recording {
  std::string source;  // "rec/gpu0/nvidia-h200.json"
  Baseline baseline;
};

// The recordings merged: each benchmark's machines are the union of the recordings' (a single-GPU
// recording is one machine, its UUID from recorded.gpu_uuids, at its median; a merged one brings its
// machine_medians), its median the geometric mean of their levels, its process medians each recording's
// moved to that centre; recorded.gpu_uuids the union, machine_groups the recordings' sessions one after
// another (an input without them: one session of its gpu_uuids), runs their sum, samples_per_run the
// largest, harness_version this gate's; gpu, date, commit and measuring_method the first recording's.
// From `previous` (may be null): defaults, families and per-benchmark tolerance_pct (as record_baseline
// keeps them), and every entry of a family the recordings do not hold (another suite's,
// recording/recorded_families.h), as it was; without it, the first recording's defaults and families.
// InputError, naming the recordings, when they are of different GPU models or measuring methods, when a
// GPU is in two recordings (its level would count twice), when a recording of several GPUs has no
// machine levels (recorded before they were kept) or one names no GPU, when a benchmark is in some
// recordings only (record the same suite on every GPU), or when a benchmark's unit or fingerprint differs
// between two ("recordings of different code: <name> differs between A and B").
Baseline merge_recordings(const std::vector<Recording>& recordings, const Baseline* previous);

}  // namespace gpuperf::gate
