// The coalescing family's registry: its variants, the strides and sizes, and how one case is checked.
#include <algorithm>
#include <string>
#include <vector>

#include "coalescing/coalescing.cuh"
#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/device_compare.cuh"
#include "common/cuda_check.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"

namespace gpuperf {
namespace {

using coalescing::kArrayElements;
using coalescing::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
  bool any_stride;  // false: stride 1 only
};

// The variants in variants.def's order; the first is the seed's naive variant, which the others' speedups
// (at the same stride) are over. Adding a variant: its file <name>.cu with its launcher, and one line in
// variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name, any_stride) {#name, coalescing::name, any_stride},
#include "coalescing/variants.def"
#undef GPUPERF_VARIANT
};

// The seed's contiguous vs A[idx * 100], with the powers of two between: where coalescing breaks down.
const int kStrides[] = {1, 2, 4, 8, 16, 32, 100};

// 1 and the prime 1000003 (not a multiple of 4 or of any block) catch tail bugs; 2^26 floats is
// 256 MiB read + 256 MiB written at every stride (> 4x the L2), ~170 us at stride 1 on an H100.
const Size kSizes[] = {
    {1, kCorrectness},
    {1000003, kCorrectness},
    {std::int64_t{1} << 26, kBoth},
};

// One case per variant at each of these: every stride, at every size.
struct Point {
  int stride;
  std::int64_t n;
  unsigned roles;  // the size's
};

std::vector<Point> points() {
  std::vector<Point> all;
  for (const int stride : kStrides) {
    for (const Size& size : kSizes) all.push_back({stride, size.n, size.roles});
  }
  return all;
}

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

class CoalescingInstance final : public Instance {
 public:
  CoalescingInstance(Launcher launch, std::int64_t n, int stride)
      : launch_(launch), n_(n), stride_(stride), in_(static_cast<std::size_t>(kArrayElements)),
        out_(static_cast<std::size_t>(n)) {}

  void generate(std::uint64_t seed) override { fill_uniform(in_, -1.0f, 1.0f, seed); }
  void poison() override { gpuperf::poison(out_); }
  void run(cudaStream_t stream) override { launch_({in_.get(), n_, stride_, out_.get()}, stream); }

  // A copy is exact: every output element must equal its source bit for bit (tolerance 0; the NaN
  // poison never passes).
  CheckResult verify() override {
    if (!checked_on_host(n_)) return compare_close_on_device(StridedSource{in_.get(), stride_}, out_.get(), n_, 0.0, 0.0);
    // Only the prefix of the input that the n reads can reach comes to the host.
    const std::int64_t reach = std::min<std::int64_t>(kArrayElements, (n_ - 1) * stride_ + 1);
    std::vector<float> in(static_cast<std::size_t>(reach));
    GPUPERF_CUDA_CHECK(cudaMemcpy(in.data(), in_.get(), in.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return compare_close(expected_values(StridedSource{in.data(), stride_}, n_), out_.to_host(), 0.0, 0.0);
  }

 private:
  Launcher launch_;
  std::int64_t n_;
  int stride_;
  DeviceBuffer<float> in_;
  DeviceBuffer<float> out_;
};

}  // namespace

void register_coalescing(Registry& registry) {
  add_variant_cases(registry, kVariants, points(), [&registry](Case& c, const Variant& variant, const Point& point) {
    if (point.stride != 1 && !variant.any_stride) return false;
    c.shape = shape({{"stride", point.stride}, {"n", point.n}});
    // Useful bytes only, the same at every stride: n floats read, n floats written. The sectors wasted by
    // strided reads are what the lower effective GB/s shows.
    c.bytes = GlobalMemoryBytes().reads<float>(point.n).writes<float>(point.n);
    c.compared_with = device_copy_ceiling();
    c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
    c.make = [launch = variant.launch, n = point.n, stride = point.stride] {
      return std::make_unique<CoalescingInstance>(launch, n, stride);
    };
    return true;
  });
}

}  // namespace gpuperf
