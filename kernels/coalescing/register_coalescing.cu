// The coalescing family in one file (common/family.h): its strides and sizes, how a strided copy is
// checked, and one set of cases per line of variants.def (a variant timed at stride 1 only has an axis
// of its own, so each line is a set of its own, in the file's order).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "coalescing/coalescing.cuh"
#include "common/case_references.h"
#include "common/check_side.h"
#include "common/compare.h"
#include "common/cuda_check.cuh"
#include "common/device_compare.cuh"
#include "common/family.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"

namespace gpuperf {
namespace {

using coalescing::kArrayElements;

// The variants' names in variants.def's order; the first is the seed's naive variant, which the others'
// speedups (at the same stride) are over.
const char* const kCoalescingVariants[] = {
#define GPUPERF_VARIANT(name, any_stride) #name,
#include "coalescing/variants.def"
#undef GPUPERF_VARIANT
};

// The seed's contiguous vs A[idx * 100], with the powers of two between: where coalescing breaks down.
const std::vector<std::int64_t> kStrides = {1, 2, 4, 8, 16, 32, 100};

// Checked at 1 and the prime 1000003 (not a multiple of 4 or of any block: tail bugs); 2^26 floats is
// 256 MiB read + 256 MiB written at every stride (> 4x the L2), ~170 us at stride 1 on an H100.
const std::vector<std::int64_t> kCoalescingPerfSizes = {std::int64_t{1} << 26};

__host__ __device__ std::int64_t source_index(std::int64_t i, int stride) {
  return (i * stride) & (kArrayElements - 1);
}

// The reference, written once: over a host copy of the input for the small and odd sizes, over the
// device array for the large ones (common/device_compare.cuh).
struct StridedSource {
  const float* in;
  int stride;
  __host__ __device__ double operator()(std::int64_t i) const { return in[source_index(i, stride)]; }
};

// The input array (kArrayElements, whatever the stride) and the n-element output of one point.
struct CoalescingState {
  explicit CoalescingState(const Point& point)
      : n(point.get("n")),
        stride(static_cast<int>(point.get("stride"))),
        in(static_cast<std::size_t>(kArrayElements)),
        out(static_cast<std::size_t>(n)) {}

  std::int64_t n;  // [elements] copied
  int stride;      // distance between the elements read by neighbouring threads
  DeviceBuffer<float> in;
  DeviceBuffer<float> out;
};

// A copy is exact: every output element must equal its source bit for bit (tolerance 0; the NaN poison
// never passes).
CheckResult check_strided_copy(CoalescingState& s) {
  if (!checked_on_host(s.n)) {
    return compare_close_on_device(StridedSource{s.in.get(), s.stride}, s.out.get(), s.n, 0.0, 0.0);
  }
  // Only the prefix of the input that the n reads can reach comes to the host.
  const std::int64_t reach = std::min<std::int64_t>(kArrayElements, (s.n - 1) * s.stride + 1);
  std::vector<float> in(static_cast<std::size_t>(reach));
  GPUPERF_CUDA_CHECK(cudaMemcpy(in.data(), s.in.get(), in.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return compare_close(expected_values(StridedSource{in.data(), s.stride}, s.n), s.out.to_host(), 0.0, 0.0);
}

// The cases of one variant: every stride it takes (all, or 1 only), at every size.
void add_coalescing_variant(Family& family, const char* name, coalescing::Launcher launch, bool any_stride) {
  family.cases<CoalescingState>()
      .axes({int_axis("stride", any_stride ? kStrides : std::vector<std::int64_t>{1}),
             size_axis("n", kCoalescingPerfSizes)})
      .inputs([](CoalescingState& s, std::uint64_t seed) { fill_uniform(s.in, -1.0f, 1.0f, seed); })
      .poison([](CoalescingState& s) { poison(s.out); })
      .check(check_strided_copy)
      // Useful bytes only, the same at every stride: n floats read, n floats written. The sectors wasted
      // by strided reads are what the lower effective GB/s shows.
      .bytes([](const Point& p) { return GlobalMemoryBytes().reads<float>(p.get("n")).writes<float>(p.get("n")); })
      .compared_with(device_copy_ceiling())
      .speedup_over(kCoalescingVariants[0])
      .variant(name, [launch](CoalescingState& s, cudaStream_t stream) {
        launch({s.in.get(), s.n, s.stride, s.out.get()}, stream);
      });
}

}  // namespace
}  // namespace gpuperf

GPUPERF_FAMILY(coalescing) {
  // The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and
  // one line there.
#define GPUPERF_VARIANT(name, any_stride) \
  gpuperf::add_coalescing_variant(family, #name, gpuperf::coalescing::name, any_stride);
#include "coalescing/variants.def"
#undef GPUPERF_VARIANT
}
