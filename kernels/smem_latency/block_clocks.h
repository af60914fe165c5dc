#pragma once
// Turning the per-warp SM clock readings of one block into the seed's T: the span from the earliest
// warp's start to the latest warp's end (seed fig. 4), less the clock bracket's own cost. Host-only.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpuperf::smem_latency {

// The 32-bit %clock readings of one launch, one entry per warp [SM clock cycles].
struct BlockClocks {
  std::vector<std::uint32_t> start;     // before the first load (after bar.sync)
  std::vector<std::uint32_t> end;       // after the last loaded value was consumed
  std::vector<std::uint32_t> overhead;  // second - first of two back-to-back clock reads (the clock-read overhead)
};

// The smallest per-warp bracket overhead [cycles]: the bracket's own cost when no other warp delays it.
inline double bracket_overhead_cycles(const BlockClocks& clocks) {
  if (clocks.overhead.empty()) throw std::invalid_argument("bracket_overhead_cycles: no warps");
  std::int64_t overhead = static_cast<std::int32_t>(clocks.overhead[0]);
  for (std::uint32_t o : clocks.overhead) overhead = std::min<std::int64_t>(overhead, static_cast<std::int32_t>(o));
  return static_cast<double>(overhead);
}

// max_w end - min_w start - bracket_overhead_cycles [cycles]. %clock is 32 bits and wraps (every ~2 s
// at 2 GHz), so every reading is taken relative to warp 0's start as a signed 32-bit difference: right
// whenever the whole block ran within 2^31 cycles, which one launch of this family always does.
// Throws std::invalid_argument on an empty or ragged input.
inline double block_interval_cycles(const BlockClocks& clocks) {
  const std::size_t warps = clocks.start.size();
  if (warps == 0 || clocks.end.size() != warps || clocks.overhead.size() != warps) {
    throw std::invalid_argument("block_interval_cycles: needs one start, end and overhead per warp");
  }
  const std::uint32_t origin = clocks.start[0];
  const auto since_origin = [origin](std::uint32_t t) {
    return static_cast<std::int64_t>(static_cast<std::int32_t>(t - origin));
  };
  std::int64_t first_start = 0;  // warp 0's start
  std::int64_t last_end = since_origin(clocks.end[0]);
  for (std::size_t w = 1; w < warps; ++w) {
    first_start = std::min(first_start, since_origin(clocks.start[w]));
    last_end = std::max(last_end, since_origin(clocks.end[w]));
  }
  return static_cast<double>(last_end - first_start) - bracket_overhead_cycles(clocks);
}

}  // namespace gpuperf::smem_latency
