// The coalescing family's registry: its variants, the strides and sizes, and how one case is checked.
#include <algorithm>
#include <string>
#include <vector>

#include "coalescing/coalescing.cuh"
#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/cuda_check.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"

namespace gpuperf {
namespace {

using coalescing::kArrayElements;
using coalescing::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
  bool any_stride;  // false: stride 1 only
};

// Adding a variant: write its launcher (coalescing.cuh) and add one line here. The first is the seed's
// naive variant, which the others' speedups (at the same stride) are over.
const Variant kVariants[] = {
    {"strided_read", coalescing::strided_read, true},
    {"contiguous_copy_vec4", coalescing::contiguous_copy_vec4, false},
};

// The seed's contiguous vs A[idx * 100], with the powers of two between: where coalescing breaks down.
const int kStrides[] = {1, 2, 4, 8, 16, 32, 100};

struct Size {
  std::int64_t n;
  unsigned roles;
};

// 1 and the prime 1000003 (not a multiple of 4 or of any block) catch tail bugs; 2^26 floats is
// 256 MiB read + 256 MiB written at every stride (> 4x the L2), ~170 us at stride 1 on an H100.
const Size kSizes[] = {
    {1, kCorrectness},
    {1000003, kCorrectness},
    {std::int64_t{1} << 26, kBoth},
};

std::int64_t source_index(std::int64_t i, int stride) { return (i * stride) & (kArrayElements - 1); }

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
    // Only the prefix of the input that the n reads can reach comes to the host.
    const std::int64_t reach = std::min<std::int64_t>(kArrayElements, (n_ - 1) * stride_ + 1);
    std::vector<float> in(static_cast<std::size_t>(reach));
    GPUPERF_CUDA_CHECK(cudaMemcpy(in.data(), in_.get(), in.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<double> expected(static_cast<std::size_t>(n_));
    for (std::int64_t i = 0; i < n_; ++i) expected[i] = in[static_cast<std::size_t>(source_index(i, stride_))];
    return compare_close(expected, out_.to_host(), 0.0, 0.0);
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
  for (const Variant& variant : kVariants) {
    for (const int stride : kStrides) {
      if (stride != 1 && !variant.any_stride) continue;
      for (const Size& size : kSizes) {
        Case c;
        c.variant = variant.name;
        c.shape = shape({{"stride", stride}, {"n", size.n}});
        c.roles = size.roles;
        // Useful bytes only, the same at every stride: n floats read, n floats written. The sectors
        // wasted by strided reads are what the lower effective GB/s shows.
        c.bytes = GlobalMemoryBytes().reads<float>(size.n).writes<float>(size.n);
        c.compared_with = device_copy_ceiling();
        c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
        c.make = [launch = variant.launch, n = size.n, stride] {
          return std::make_unique<CoalescingInstance>(launch, n, stride);
        };
        registry.add(std::move(c));
      }
    }
  }
}

}  // namespace gpuperf
