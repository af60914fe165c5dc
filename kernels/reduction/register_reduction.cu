// The reduction family in one file (common/family.h): its sizes, its inputs, how a sum is checked, and
// one variant per line of variants.def.
#include <cstdint>
#include <vector>

#include "common/case_references.h"
#include "common/check_side.h"
#include "common/compare.h"
#include "common/device_sums.cuh"
#include "common/family.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "reduction/reduction.cuh"

namespace gpuperf {
namespace {

// One element, primes and non-multiples of the block size catch tail bugs; 2^25 is the seed's 32M;
// 2^28 (1 GiB) is several times any L2 and long enough to time at the bandwidth ceiling.
const std::vector<std::int64_t> kReductionCheckedSizes = {1, 31, 1000, 7919, 1000003};
const std::vector<std::int64_t> kReductionPerfSizes = {std::int64_t{1} << 25};      // timed and checked
const std::vector<std::int64_t> kReductionPerfOnlySizes = {std::int64_t{1} << 28};  // timed only

// Inputs in [-3, 3] keep every partial sum of up to 2^28 elements below 2^30: no int32 overflow, and
// the poison value can never be a right answer.
constexpr int kReductionInputMin = -3;
constexpr int kReductionInputMax = 3;

// The buffers of one size. The expected sum is computed once per input (the perf runs check every
// sample against it) and forgotten when the input is drawn again.
struct ReductionState {
  explicit ReductionState(const Point& point)
      : n(point.get("n")), in(static_cast<std::size_t>(n)), out(1), workspace(n) {}

  std::int64_t n;  // [elements]
  DeviceBuffer<int> in;
  DeviceBuffer<int> out;
  reduction::Workspace workspace;
  std::int64_t expected = 0;
  bool expected_valid = false;
};

// 64-bit accumulation: on the CPU, or by a library for the large sizes (common/device_sums.cuh), never
// by one of this family's reductions.
CheckResult check_reduction(ReductionState& s) {
  if (!s.expected_valid) {
    std::int64_t sum = 0;
    if (checked_on_host(s.n)) {
      for (int v : s.in.to_host()) sum += v;
    } else {
      sum = sum_on_device(s.in.get(), s.n);
    }
    s.expected = sum;
    s.expected_valid = true;
  }
  return compare_exact({s.expected}, {std::int64_t{s.out.to_host()[0]}});
}

// A launcher of reduction.cuh as the harness calls a variant.
auto reducing(reduction::Launcher launch) {
  return [launch](ReductionState& s, cudaStream_t stream) {
    launch({s.in.get(), s.n, s.out.get(), &s.workspace}, stream);
  };
}

}  // namespace
}  // namespace gpuperf

GPUPERF_FAMILY(reduction) {
  namespace gp = gpuperf;
  auto& cases = family.cases<gp::ReductionState>()
                    .sizes(gp::kReductionPerfSizes, gp::kReductionCheckedSizes, gp::kReductionPerfOnlySizes)
                    .inputs([](gp::ReductionState& s, std::uint64_t seed) {
                      gp::fill_uniform(s.in, gp::kReductionInputMin, gp::kReductionInputMax, seed);
                      s.expected_valid = false;
                    })
                    .poison([](gp::ReductionState& s) { gp::poison(s.out); })
                    .check(gp::check_reduction)
                    // Each input read once (the one int written: not counted).
                    .bytes([](const gp::Point& p) { return gp::GlobalMemoryBytes().reads<int>(p.get("n")); })
                    .compared_with(gp::read_only_ceiling());
  // The variants in variants.def's order; the first is the seed's naive variant, which the others'
  // speedups are over. Adding a variant: its file <name>.cu with its launcher, and one line there.
#define GPUPERF_VARIANT(name) cases.variant(#name, gp::reducing(gp::reduction::name));
#include "reduction/variants.def"
#undef GPUPERF_VARIANT
}
