#include "common/random_fill.cuh"

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>

#include "common/splitmix64.cuh"

namespace gpuperf {
namespace {

__global__ void fill_int_kernel(int* out, std::size_t n, int lo, std::uint32_t span, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    out[i] = lo + static_cast<int>(splitmix64(seed ^ splitmix64(i)) % span);
  }
}

__global__ void fill_float_kernel(float* out, std::size_t n, float lo, float width, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const float unit = static_cast<float>(splitmix64(seed ^ splitmix64(i)) >> 40) * 0x1.0p-24f;  // [0, 1)
    out[i] = lo + width * unit;
  }
}

__global__ void fill_double_kernel(double* out, std::size_t n, double lo, double width, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const double unit = static_cast<double>(splitmix64(seed ^ splitmix64(i)) >> 11) * 0x1.0p-53;  // [0, 1)
    out[i] = lo + width * unit;
  }
}

constexpr int kFillThreads = 256;
constexpr int kFillBlocks = 4096;

}  // namespace

void fill_uniform(DeviceBuffer<int>& buffer, int lo, int hi, std::uint64_t seed, cudaStream_t stream) {
  if (buffer.size() == 0) return;
  const auto span = static_cast<std::uint32_t>(static_cast<std::int64_t>(hi) - lo + 1);
  fill_int_kernel<<<kFillBlocks, kFillThreads, 0, stream>>>(buffer.get(), buffer.size(), lo, span, seed);
  GPUPERF_CHECK_LAUNCH();
}

void fill_uniform(DeviceBuffer<float>& buffer, float lo, float hi, std::uint64_t seed, cudaStream_t stream) {
  if (buffer.size() == 0) return;
  fill_float_kernel<<<kFillBlocks, kFillThreads, 0, stream>>>(buffer.get(), buffer.size(), lo, hi - lo, seed);
  GPUPERF_CHECK_LAUNCH();
}

void fill_uniform(DeviceBuffer<double>& buffer, double lo, double hi, std::uint64_t seed, cudaStream_t stream) {
  if (buffer.size() == 0) return;
  fill_double_kernel<<<kFillBlocks, kFillThreads, 0, stream>>>(buffer.get(), buffer.size(), lo, hi - lo, seed);
  GPUPERF_CHECK_LAUNCH();
}

std::uint64_t fresh_seed() {
  if (const char* fixed = std::getenv("GPUPERF_SEED"); fixed != nullptr && *fixed != '\0') {
    return std::stoull(fixed, nullptr, 0);
  }
  static std::mt19937_64 engine(std::random_device{}() ^
                                static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  return engine();
}

}  // namespace gpuperf
