// latency_model_fit (seed 003, section 4.2): the whole experiment. T(i, w, c) over the grid
// fit_grid_values()^3, then T = C1 * i*w*c + C2 by least squares over every point. Also the host
// read-back helpers that the registry's instances share.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/random_fill.cuh"
#include "smem_latency/least_squares.h"
#include "smem_latency/smem_latency.cuh"

namespace gpuperf::smem_latency {
namespace {

constexpr int kWarmUpRuns = 1;

double median(std::vector<double> samples) {
  const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  std::nth_element(samples.begin(), middle, samples.end());
  return *middle;
}

long long count_mismatches(const std::vector<std::int64_t>& expected, const std::vector<int>& actual) {
  long long bad = 0;
  for (std::size_t k = 0; k < expected.size(); ++k) bad += (k >= actual.size() || actual[k] != expected[k]) ? 1 : 0;
  return bad;
}

}  // namespace

BlockClocks copy_block_clocks(const std::uint32_t* device_clocks, int warps) {
  std::vector<std::uint32_t> all(kClockWords);
  GPUPERF_CUDA_CHECK(
      cudaMemcpy(all.data(), device_clocks, all.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  const auto section = [&](int offset) {
    return std::vector<std::uint32_t>(all.begin() + offset, all.begin() + offset + warps);
  };
  return {section(kStartOffset), section(kEndOffset), section(kOverheadOffset)};
}

std::vector<std::int64_t> expected_values(const std::vector<int>& table, const Config& config) {
  const int threads = config.warps * kWarpSize;
  std::vector<std::int64_t> expected(static_cast<std::size_t>(config.loads) * static_cast<std::size_t>(threads));
  for (int k = 0; k < config.loads; ++k) {
    for (int t = 0; t < threads; ++t) {
      expected[static_cast<std::size_t>(k) * threads + t] = table[table_index(t % kWarpSize, config.congestion)];
    }
  }
  return expected;
}

SmemLatencyFit measure_smem_latency_fit() {
  DeviceBuffer<int> table(kTableWords);
  DeviceBuffer<int> values(static_cast<std::size_t>(kMaxLoads) * kMaxWarps * kWarpSize);
  DeviceBuffer<std::uint32_t> clocks(kClockWords);
  fill_uniform(table, kTableMin, kTableMax, fresh_seed());
  const std::vector<int> host_table = table.to_host();

  SmemLatencyFit fit;
  fit.runs_per_point = kFitRunsPerPoint;
  std::vector<double> x;
  std::vector<double> y;
  for (int i : fit_grid_values()) {
    for (int w : fit_grid_values()) {
      for (int c : fit_grid_values()) {
        const Config config{i, w, c};
        const Args args{table.get(), config, values.get(), clocks.get()};
        for (int run = 0; run < kWarmUpRuns; ++run) ld_volatile_shared_u32(args, nullptr);
        GPUPERF_CUDA_CHECK(cudaMemset(values.get(), 0, values.bytes()));  // table values are never 0
        std::vector<double> runs;
        std::vector<double> overheads;
        for (int run = 0; run < kFitRunsPerPoint; ++run) {
          ld_volatile_shared_u32(args, nullptr);
          const BlockClocks block = copy_block_clocks(clocks.get(), w);  // waits for the launch
          runs.push_back(block_interval_cycles(block));
          overheads.push_back(bracket_overhead_cycles(block));
        }
        fit.value_mismatches += count_mismatches(expected_values(host_table, config), values.to_host());
        const double cycles = median(runs);
        fit.points.push_back({config, cycles});
        x.push_back(static_cast<double>(i) * w * c);
        y.push_back(cycles);
        if (i == 1 && w == 1 && c == 1) {
          fit.min_latency = cycles;
          fit.bracket_overhead = median(overheads);
        }
      }
    }
  }
  const LinearFit line = fit_line(x, y);
  fit.c1 = line.slope;
  fit.c2 = line.intercept;
  fit.r_squared = line.r_squared;
  return fit;
}

}  // namespace gpuperf::smem_latency
