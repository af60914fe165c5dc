// Input generation of the count_equal family: b is a copy of a in which each element is, independently
// and with probability 1 - match_fraction, made different (a[i] + 1).
#include <algorithm>

#include "common/cuda_check.cuh"
#include "common/splitmix64.cuh"
#include "count_equal/count_equal.cuh"

namespace gpuperf::count_equal {
namespace {

// Element i matches when the top 32 bits of its hash are below threshold = fraction * 2^32.
__global__ void make_b_kernel(const int* a, int* b, std::int64_t n, std::uint64_t threshold, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t draw = splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(i))) >> 32;
    b[i] = draw < threshold ? a[i] : a[i] + 1;
  }
}

constexpr int kThreads = 256;
constexpr std::int64_t kMaxBlocks = 4096;

}  // namespace

void make_b_from_a(const int* a, int* b, std::int64_t n, double match_fraction, std::uint64_t seed,
                   cudaStream_t stream) {
  if (n == 0) return;
  const auto threshold = static_cast<std::uint64_t>(match_fraction * 4294967296.0);  // fraction * 2^32
  const std::int64_t blocks = std::min<std::int64_t>((n + kThreads - 1) / kThreads, kMaxBlocks);
  // A seed distinct from the one that filled a, so the match pattern does not follow a's values.
  make_b_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(a, b, n, threshold,
                                                                       splitmix64(seed ^ 0xC0FFEEull));
  GPUPERF_CHECK_LAUNCH();
}

}  // namespace gpuperf::count_equal
