#pragma once
// Shared-memory latency family (seed 003: Okamoto, "Measuring the latency and throughput of GPU
// shared-memory accesses", GTX 780 Ti): the SM clock counter read around shared-memory loads, swept over
//   i = loads per thread (independent loads of one address into distinct registers, seed code 4),
//   w = warps of the one block (all on one SM),
//   c = congestion: distinct addresses of one bank that a warp's 32 lanes touch (seed fig. 6),
// and the seed's model T(i, w, c) = C1 * i*w*c + C2 fitted by least squares (seed eq. 1; GTX 780 Ti:
// C1 = 1.047, C2 = 337.698, minimum latency 16 cycles).
//
// The figure is T: from the earliest warp's start reading to the latest warp's end reading (seed fig. 4),
// less the bracket's own cost measured in the same launch (seed 3.2: the same code with the loads
// removed; 16 cycles on the GTX 780 Ti). The metric is SM clock cycles, not time.

#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include "smem_latency/block_clocks.h"

namespace gpuperf::smem_latency {

constexpr int kWarpSize = 32;
constexpr int kBanks = 32;          // 4-byte banks
constexpr int kMaxLoads = 32;       // i
constexpr int kMaxWarps = 32;       // w: 1024 threads, the most one block (and so one SM) can hold
constexpr int kMaxCongestion = 32;  // c
// The seed's table: 1024 words seen as 32 rows of 32 banks.
constexpr int kTableWords = kBanks * kWarpSize;

// The word lane `lane` of every warp reads (seed fig. 6). Lanes below `congestion` stack in column 0
// (bank 0), one row each: `congestion` distinct addresses in one bank. The other lanes take the
// diagonal (row = column = lane), one lane per bank. So the busiest bank holds exactly `congestion`
// distinct addresses, no two lanes share an address (no broadcast), and c = 1 is conflict-free.
__host__ __device__ constexpr int table_index(int lane, int congestion) {
  return lane < congestion ? lane * kBanks : lane * (kBanks + 1);
}

// Table values: positive, so never zero (the kernel's end reading is predicated on a non-zero load) and
// never the integer poison pattern.
constexpr int kTableMin = 1;
constexpr int kTableMax = 1 << 30;

// One measurement point.
struct Config {
  int loads;       // i, 1..kMaxLoads
  int warps;       // w, 1..kMaxWarps
  int congestion;  // c, 1..kMaxCongestion
};

// Layout of the clocks output: one word per warp in each of three sections.
constexpr int kStartOffset = 0;                 // %clock before the first load
constexpr int kEndOffset = kMaxWarps;           // %clock after the loaded values were consumed
constexpr int kOverheadOffset = 2 * kMaxWarps;  // second - first of two back-to-back clock reads
constexpr int kClockWords = 3 * kMaxWarps;

struct Args {
  const int* table;  // kTableWords inputs [device]; every value must be non-zero (see the kernel)
  Config config;
  int* values;            // loads * warps * 32 [device]: values[k * threads + thread] = its k-th load
  std::uint32_t* clocks;  // kClockWords [device], sections as above
};

// Enqueues one launch of one block of config.warps warps. Throws std::invalid_argument outside the
// ranges above.
using Launcher = void (*)(const Args& args, cudaStream_t stream);

// Every variant's launcher, one per line of variants.def (which says what each does).
#define GPUPERF_VARIANT(name) void name(const Args& args, cudaStream_t stream);
#include "smem_latency/variants.def"
#undef GPUPERF_VARIANT

// Reads the clocks of one launch back (a synchronous copy: call once the launch's stream is done).
BlockClocks copy_block_clocks(const std::uint32_t* device_clocks, int warps);

// What a launch must have written to Args::values: every load of a thread returns its table word.
std::vector<std::int64_t> expected_values(const std::vector<int>& table, const Config& config);

// One point of the sweep.
struct SmemLatencyPoint {
  Config config;
  double cycles = 0.0;  // T: median over the runs of one point [SM clock cycles]
};

// The seed's experiment, measured and fitted.
struct SmemLatencyFit {
  double c1 = 0.0;           // slope of T over i*w*c [cycles per bank access]
  double c2 = 0.0;           // intercept [cycles]
  double r_squared = 0.0;    // of the fit over every point
  double min_latency = 0.0;  // T(1, 1, 1) [cycles]: the seed's minimum latency
  // The bracket's own cost at (1, 1, 1), median over the runs [cycles]. Every run has its own launch's
  // figure subtracted; this one is for reporting.
  double bracket_overhead = 0.0;
  int runs_per_point = 0;
  std::vector<SmemLatencyPoint> points;  // the grid, i outermost, then w, then c ascending
  long long value_mismatches = 0;        // loaded values that differ from the table (must be 0)
};

// The sweep grid of measure_smem_latency_fit(): i, w and c each over these values, 6^3 = 216 points
// (the seed's full 1..32 cube would be 32768 launches for the same line).
inline const std::vector<int>& fit_grid_values() {
  static const std::vector<int> values = {1, 2, 4, 8, 16, 32};
  return values;
}

// Launches per point of measure_smem_latency_fit(), after one warm-up launch (which also takes the
// cold instruction cache out of the figures). Odd, so the median is one run. The seed averaged 100
// runs; the clock is deterministic to a few cycles, so more buys nothing.
constexpr int kFitRunsPerPoint = 21;

// Runs the sweep on the current device on the legacy default stream (synchronous; about 5000
// launches, well under a second of GPU time) with a fresh random table, checks every point's loaded
// values once, and fits T = C1 * i*w*c + C2 over every point.
SmemLatencyFit measure_smem_latency_fit();

}  // namespace gpuperf::smem_latency
