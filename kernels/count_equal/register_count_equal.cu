// The count_equal family's registry: its variants, its sizes and match fractions, and how one case is
// checked.
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/check_side.h"
#include "common/compare.h"
#include "common/cuda_check.cuh"
#include "common/device_sums.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"
#include "count_equal/count_equal.cuh"

namespace gpuperf {
namespace {

using count_equal::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
};

// The variants in variants.def's order; the first is the seed's naive variant, which the others' speedups
// are over. Adding a variant: its file <name>.cu with its launcher, and one line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name) {#name, count_equal::name},
#include "count_equal/variants.def"
#undef GPUPERF_VARIANT
};

// 1 and the prime 1000003 (not a multiple of 4 or of any block) catch tail bugs; 2^25 is the seed's
// scale; 2^28 (2 GiB read) is many times any L2 and ~0.5 ms at the read ceiling.
const Size kSizes[] = {
    {1, kCorrectness},
    {1000003, kCorrectness},
    {std::int64_t{1} << 25, kBoth},
    {std::int64_t{1} << 28, kPerf},
};

// The fraction of equal pairs: a quarter (the naive variant's atomics contend on every warp) and near
// zero (almost no atomics: the variants differ only in how they stream).
struct MatchFraction {
  const char* label;  // as it appears in the shape
  double value;
};
const MatchFraction kMatchFractions[] = {{"0.25", 0.25}, {"0.0001", 0.0001}};

// One case per variant at each of these: every size, at every match fraction.
struct Point {
  std::int64_t n;
  const MatchFraction* match;
  unsigned roles;  // the size's
};

std::vector<Point> points() {
  std::vector<Point> all;
  for (const Size& size : kSizes) {
    for (const MatchFraction& match : kMatchFractions) all.push_back({size.n, &match, size.roles});
  }
  return all;
}

// a in [-10^6, 10^6]: a[i] + 1 cannot overflow, and the values are far from zero.
constexpr int kInputMin = -1000000;
constexpr int kInputMax = 1000000;

class CountEqualInstance final : public Instance {
 public:
  CountEqualInstance(Launcher launch, std::int64_t n, double match_fraction)
      : launch_(launch),
        n_(n),
        match_fraction_(match_fraction),
        a_(static_cast<std::size_t>(n)),
        b_(static_cast<std::size_t>(n)),
        count_(1) {}

  void generate(std::uint64_t seed) override {
    fill_uniform(a_, kInputMin, kInputMax, seed);
    count_equal::make_b_from_a(a_.get(), b_.get(), n_, match_fraction_, seed);
  }
  void poison() override { gpuperf::poison(count_); }
  // The reset is part of the timed work, the same for every variant (see count_equal.cuh).
  void run(cudaStream_t stream) override {
    GPUPERF_CUDA_CHECK(cudaMemsetAsync(count_.get(), 0, sizeof(int), stream));
    launch_({a_.get(), b_.get(), n_, count_.get()}, stream);
  }

  // The count: on the CPU, or by a library for the large sizes (common/device_sums.cuh), never by one of
  // this family's kernels.
  CheckResult verify() override {
    std::int64_t expected = 0;
    if (checked_on_host(n_)) {
      const std::vector<int> a = a_.to_host();
      const std::vector<int> b = b_.to_host();
      for (std::size_t i = 0; i < a.size(); ++i) expected += a[i] == b[i] ? 1 : 0;
    } else {
      expected = count_equal_on_device(a_.get(), b_.get(), n_);
    }
    return compare_exact({expected}, {std::int64_t{count_.to_host()[0]}});
  }

 private:
  Launcher launch_;
  std::int64_t n_;
  double match_fraction_;
  DeviceBuffer<int> a_;
  DeviceBuffer<int> b_;
  DeviceBuffer<int> count_;
};

}  // namespace

void register_count_equal(Registry& registry) {
  add_variant_cases(registry, kVariants, points(), [&registry](Case& c, const Variant& variant, const Point& point) {
    c.shape = shape({{"n", point.n}, {"match", point.match->label}});
    // a and b read once (the 4-byte count written: not counted).
    c.bytes = GlobalMemoryBytes().reads<int>(point.n).reads<int>(point.n);
    c.compared_with = read_only_ceiling();
    c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
    c.make = [launch = variant.launch, n = point.n, fraction = point.match->value] {
      return std::make_unique<CountEqualInstance>(launch, n, fraction);
    };
  });
}

}  // namespace gpuperf
