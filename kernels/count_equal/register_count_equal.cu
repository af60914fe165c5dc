// The count_equal family in one file (common/family.h): its sizes and match fractions, its inputs, how a
// count is checked, and one variant per line of variants.def.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/check_side.h"
#include "common/compare.h"
#include "common/cuda_check.cuh"
#include "common/device_sums.cuh"
#include "common/family.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "count_equal/count_equal.cuh"

namespace gpuperf {
namespace {

// 1 and the prime 1000003 (not a multiple of 4 or of any block) catch tail bugs; 2^25 is the seed's
// scale; 2^28 (2 GiB read) is many times any L2 and ~0.5 ms at the read ceiling.
const std::vector<std::int64_t> kCountEqualPerfSizes = {std::int64_t{1} << 25};      // timed and checked
const std::vector<std::int64_t> kCountEqualPerfOnlySizes = {std::int64_t{1} << 28};  // timed only

// The fraction of equal pairs: a quarter (the naive variant's atomics contend on every warp) and near
// zero (almost no atomics: the variants differ only in how they stream).
struct MatchFraction {
  const char* label;  // as it appears in the shape
  double value;
};
const MatchFraction kMatchFractions[] = {{"0.25", 0.25}, {"0.0001", 0.0001}};

std::vector<std::string> match_labels() {
  std::vector<std::string> labels;
  for (const MatchFraction& m : kMatchFractions) labels.emplace_back(m.label);
  return labels;
}

// The fraction a shape's label names (a table, not a parse: no locale can change it).
double match_fraction_of(const std::string& label) {
  for (const MatchFraction& m : kMatchFractions) {
    if (label == m.label) return m.value;
  }
  throw std::logic_error("count_equal: no match fraction labelled '" + label + "'");
}

// a in [-10^6, 10^6]: a[i] + 1 cannot overflow, and the values are far from zero.
constexpr int kCountEqualInputMin = -1000000;
constexpr int kCountEqualInputMax = 1000000;

// The buffers of one point (a size and a match fraction).
struct CountEqualState {
  explicit CountEqualState(const Point& point)
      : n(point.get("n")),
        match_fraction(match_fraction_of(point.text("match"))),
        a(static_cast<std::size_t>(n)),
        b(static_cast<std::size_t>(n)),
        count(1) {}

  std::int64_t n;         // [elements] of a and b
  double match_fraction;  // of the pairs drawn equal
  DeviceBuffer<int> a;
  DeviceBuffer<int> b;
  DeviceBuffer<int> count;
};

// The count: on the CPU, or by a library for the large sizes (common/device_sums.cuh), never by one of
// this family's kernels.
CheckResult check_count_equal(CountEqualState& s) {
  std::int64_t expected = 0;
  if (checked_on_host(s.n)) {
    const std::vector<int> a = s.a.to_host();
    const std::vector<int> b = s.b.to_host();
    for (std::size_t i = 0; i < a.size(); ++i) expected += a[i] == b[i] ? 1 : 0;
  } else {
    expected = count_equal_on_device(s.a.get(), s.b.get(), s.n);
  }
  return compare_exact({expected}, {std::int64_t{s.count.to_host()[0]}});
}

// A launcher of count_equal.cuh as the harness calls a variant. The counter's reset is part of the timed
// work, the same for every variant (see count_equal.cuh).
auto counting(count_equal::Launcher launch) {
  return [launch](CountEqualState& s, cudaStream_t stream) {
    GPUPERF_CUDA_CHECK(cudaMemsetAsync(s.count.get(), 0, sizeof(int), stream));
    launch({s.a.get(), s.b.get(), s.n, s.count.get()}, stream);
  };
}

}  // namespace
}  // namespace gpuperf

GPUPERF_FAMILY(count_equal) {
  namespace gp = gpuperf;
  auto& cases =
      family.cases<gp::CountEqualState>()
          .axes({gp::size_axis("n", gp::kCountEqualPerfSizes, gp::kOddSizes, gp::kCountEqualPerfOnlySizes),
                 gp::text_axis("match", gp::match_labels())})
          .inputs([](gp::CountEqualState& s, std::uint64_t seed) {
            gp::fill_uniform(s.a, gp::kCountEqualInputMin, gp::kCountEqualInputMax, seed);
            gp::count_equal::make_b_from_a(s.a.get(), s.b.get(), s.n, s.match_fraction, seed);
          })
          .poison([](gp::CountEqualState& s) { gp::poison(s.count); })
          .check(gp::check_count_equal)
          // a and b read once (the 4-byte count written: not counted).
          .bytes([](const gp::Point& p) {
            return gp::GlobalMemoryBytes().reads<int>(p.get("n")).reads<int>(p.get("n"));
          })
          .compared_with(gp::read_only_ceiling());
  // The variants in variants.def's order; the first is the seed's naive variant, which the others'
  // speedups are over. Adding a variant: its file <name>.cu with its launcher, and one line there.
#define GPUPERF_VARIANT(name) cases.variant(#name, gp::counting(gp::count_equal::name));
#include "count_equal/variants.def"
#undef GPUPERF_VARIANT
}
