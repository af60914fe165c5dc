#pragma once
// Grid size of the grid-stride variants (reduce7..reduce9): enough blocks to fill every SM to full
// occupancy (2048 threads per SM on Hopper = 8 blocks of 256), never more than the input needs.

#include <algorithm>
#include <cstdint>

#include "common/device_info.h"
#include "reduction/reduction.cuh"

namespace gpuperf::reduction {

constexpr int kGridStrideBlocksPerSm = 8;

inline std::int64_t grid_stride_blocks(std::int64_t n) {
  return std::min<std::int64_t>(blocks_for_tiles(n, 2), std::int64_t{device_sm_count()} * kGridStrideBlocksPerSm);
}

}  // namespace gpuperf::reduction
