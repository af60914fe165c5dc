#pragma once
// Shards of our suite's perf test. Every timing process pays CUDA's start-up (0.33-0.49 s on an H100, a
// context and no more), so a perf test per family paid it 9 families x (1 checking + 3 timing) times on
// one GPU, and on a host of several GPUs the longest family bounded the run. So the suite's perf test is
// cut into as many shards as the host has GPUs, one CTest test each (perf.families on one GPU,
// perf.families_2of4 ...), and each shard's processes time its part of the suite whole.
//
// A shard is a contiguous run of the suite's cases in registry order, so that each case keeps most of the
// history it has in the whole-suite processes that recorded the baseline (timed_cases.h says why that
// matters); the cuts fall where the time the cases cost adds up to equal parts. Every shard computes the
// same cuts from the same listing and baseline, so the shards of one build cover each case once.
// Pure functions: tests/driver/test_shards.cpp.

#include <string>
#include <vector>

#include "formats/case_listing.h"
#include "gate/inputs/baseline.h"

namespace gpuperf::gate::driver {

struct Shard {
  int index = 1;  // 1-based
  int count = 1;
};

// The most shards a run may be cut into: more GPUs than this on one host are left to other runs.
inline constexpr int kMaxShards = 64;

// "2/4" -> {2, 4}. formats::InputError, naming --shard, for anything else (index outside 1..count, count
// outside 1..kMaxShards).
Shard parse_shard(const std::string& text);

// What names the shard's test, reports and phase file: "families" for the only one, else
// "families_2of4". A valid family name (formats/names.h); gpuperf_add_family() refuses a family so named.
std::string shard_name(const Shard& shard);

// One case and what timing it costs a process [s].
struct CaseCost {
  std::string name;
  double seconds = 0.0;
};

// What each perf case of `listing` costs one timing process, in registry order: its baseline median [us]
// times the samples it takes (`repetitions` and the warm-up), plus its set-up. A case the baseline lacks,
// or times in cycles, costs the median of the others.
std::vector<CaseCost> case_costs(const formats::CaseListing& listing, const Baseline& baseline, int repetitions);

// The names of the cases of `shard`: `cases` cut into shard.count contiguous runs of about equal cost,
// none empty while there are as many cases as shards (with fewer, the last shards get none).
std::vector<std::string> shard_cases(const std::vector<CaseCost>& cases, const Shard& shard);

}  // namespace gpuperf::gate::driver
