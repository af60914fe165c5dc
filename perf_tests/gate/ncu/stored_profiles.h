#pragma once
// Nsight Compute profiles stored beside a GPU's baseline (baselines/<slug>.ncu.json, written by
// scripts/record_ncu.sh): what a stored-mode diagnosis compares a SLOW benchmark's profile now with, as
// A/B mode compares build B's with build A's. A file of its own, not fields of the baseline: a profile is
// tens of numbers per kernel, and the baseline stays a file a person reviews line by line.
// Pure functions: tests/test_ncu_profile.cpp.

#include <map>
#include <string>

#include "gate/ncu/profile.h"

namespace gpuperf::gate {

inline constexpr int kNcuBaselineSchemaVersion = 1;

struct NcuBaseline {
  std::string gpu_slug;                          // the baseline's GPU ("nvidia-h100-80gb-hbm3")
  std::map<std::string, NcuProfile> benchmarks;  // benchmark name -> its kernels' profile, one timed run
};

// {"schema_version": 1, "gpu_slug": "...", "benchmarks": {"<name>": <NcuProfile json>}}, two-space indent.
std::string ncu_baseline_to_text(const NcuBaseline& stored);
// formats::InputError naming `source` and what is wrong when `text` is not such a file.
NcuBaseline ncu_baseline_from_text(const std::string& text, const std::string& source);

// The stored profiles file at `path`; formats::InputError naming it and what to do when it cannot be read.
NcuBaseline load_ncu_baseline(const std::string& path);

// Adds `profiles` (benchmark -> profile) to the file at `path`, created where absent, replacing a
// benchmark's earlier profile; read, merged and written under the file's lock (formats/atomic_file.h), so
// that parallel stores into one file each keep theirs. formats::InputError when the file holds another
// GPU's profiles than `gpu_slug`'s, or cannot be read.
void store_ncu_profiles(const std::string& path, const std::string& gpu_slug,
                        const std::map<std::string, NcuProfile>& profiles);

}  // namespace gpuperf::gate
