#pragma once
// Fresh random inputs, generated on the device from (seed, index) so that filling 2^28 elements costs
// milliseconds and the same seed reproduces the same data. Never benchmark or test on zeros: zeros hide
// unwritten outputs and can run faster than real data.

#include <cstdint>

#include <cuda_runtime.h>

#include "common/device_buffer.cuh"

namespace gpuperf {

// Uniform integers in [lo, hi].
void fill_uniform(DeviceBuffer<int>& buffer, int lo, int hi, std::uint64_t seed, cudaStream_t stream = nullptr);
// Uniform floats in [lo, hi).
void fill_uniform(DeviceBuffer<float>& buffer, float lo, float hi, std::uint64_t seed,
                  cudaStream_t stream = nullptr);
// Uniform doubles in [lo, hi).
void fill_uniform(DeviceBuffer<double>& buffer, double lo, double hi, std::uint64_t seed,
                  cudaStream_t stream = nullptr);

// A seed for one test or benchmark instance: from GPUPERF_SEED when set (to reproduce a failure), else fresh.
std::uint64_t fresh_seed();

}  // namespace gpuperf
