// The fusion family in one file (common/family.h): its sizes, its inputs and scale factors, the two
// operations' references, and one set of cases per line of variants.def (a variant's operation and
// temporary decide its buffers, so each line is a set of its own, in the file's order).
#include <cstdint>
#include <vector>

#include "common/case_references.h"
#include "common/check_side.h"
#include "common/compare.h"
#include "common/device_compare.cuh"
#include "common/family.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/splitmix64.cuh"
#include "fusion/fusion.cuh"

namespace gpuperf {
namespace {

using fusion::Operation;

// 1 and the prime 1000003 (not a multiple of 4 or of any block) catch tail bugs; 2^28 floats is 1 GiB
// per array, many times any L2 (~0.8 ms for add-scale at the copy ceiling).
const std::vector<std::int64_t> kFusionPerfSizes = {std::int64_t{1} << 28};

// Bytes are those the FUSED formulation must move, for every variant of an operation: add-scale reads
// x and y and writes out (3 arrays), axpb reads x and writes out (2 arrays). The unfused variants move
// more (their temporary is written and read back) but are credited with the same bytes, so they show
// a lower effective GB/s: that difference is what fusion buys, and it is the lesson of the seed.
double fusion_bytes_moved(Operation op, std::int64_t n) {
  const GlobalMemoryBytes x_read_out_written = GlobalMemoryBytes().reads<float>(n).writes<float>(n);
  return op == Operation::kAddScale ? x_read_out_written.reads<float>(n) : x_read_out_written;
}

// The seed's naive form of an operation, through a temporary: the speedups of the fused variants of
// that operation are over it.
const char* unfused_variant_of(Operation op) {
#define GPUPERF_VARIANT(name, operation, uses_temporary) \
  if (operation == op && uses_temporary) return #name;
#include "fusion/variants.def"
#undef GPUPERF_VARIANT
  return "";
}

// Per-element tolerance against the double-precision reference. A float result here carries at most
// two roundings: add-scale ~2.4e-7 relative; a*x then + b at most 2^-24 * (|a*x| + |out|) <= 3e-7
// absolute (|a| < 2, |x|, |b| <= 1). Both far inside 1e-6 + 1e-6 * |expected|.
constexpr double kFusionAbsTol = 1e-6;
constexpr double kFusionRelTol = 1e-6;

// A uniform double in [0, 1) from (seed, which).
double unit_from(std::uint64_t seed, std::uint64_t which) {
  return static_cast<double>(splitmix64(seed ^ splitmix64(which)) >> 11) * 0x1.0p-53;
}

// Scale factors a, s: magnitude in [0.5, 2), random sign (never zero, which would make out constant).
float scale_from(std::uint64_t seed, std::uint64_t which) {
  const double u = unit_from(seed, which);
  const double magnitude = 0.5 + 1.5 * unit_from(seed, which + 100);
  return static_cast<float>(u < 0.5 ? -magnitude : magnitude);
}

// The references, in double precision, written once: over host copies of the inputs for the small and
// odd sizes, over the device arrays for the large ones (common/device_compare.cuh).
struct AddScaleReference {
  const float* x;
  const float* y;
  float s;
  __host__ __device__ double operator()(std::int64_t i) const { return (double{x[i]} + double{y[i]}) * double{s}; }
};
struct AxpbReference {
  const float* x;
  float a;
  float b;
  __host__ __device__ double operator()(std::int64_t i) const { return double{a} * double{x[i]} + double{b}; }
};

// The buffers of one size for a variant of operation kOp, with a temporary where kUsesTemporary.
template <Operation kOp, bool kUsesTemporary>
struct FusionState {
  explicit FusionState(const Point& point)
      : n(point.get("n")),
        x(static_cast<std::size_t>(n)),
        y(kOp == Operation::kAddScale ? static_cast<std::size_t>(n) : 0),
        temp(kUsesTemporary ? static_cast<std::size_t>(n) : 0),
        out(static_cast<std::size_t>(n)) {}

  std::int64_t n;  // [elements] of every array
  DeviceBuffer<float> x;
  DeviceBuffer<float> y;
  DeviceBuffer<float> temp;
  DeviceBuffer<float> out;
  float a = 1.0f;
  float b = 0.0f;
  float s = 1.0f;
};

template <Operation kOp, bool kUsesTemporary>
CheckResult check_fusion(FusionState<kOp, kUsesTemporary>& st) {
  constexpr bool kAddScale = kOp == Operation::kAddScale;
  if (!checked_on_host(st.n)) {
    if constexpr (kAddScale) {
      return compare_close_on_device(AddScaleReference{st.x.get(), st.y.get(), st.s}, st.out.get(), st.n,
                                     kFusionAbsTol, kFusionRelTol);
    } else {
      return compare_close_on_device(AxpbReference{st.x.get(), st.a, st.b}, st.out.get(), st.n, kFusionAbsTol,
                                     kFusionRelTol);
    }
  }
  const std::vector<float> x = st.x.to_host();
  const std::vector<float> y = st.y.to_host();
  const std::vector<double> expected = kAddScale ? expected_values(AddScaleReference{x.data(), y.data(), st.s}, st.n)
                                                 : expected_values(AxpbReference{x.data(), st.a, st.b}, st.n);
  return compare_close(expected, st.out.to_host(), kFusionAbsTol, kFusionRelTol);
}

// The cases of one variant: every size, its operation's reference and bytes, its speedup over the
// unfused variant of its operation.
template <Operation kOp, bool kUsesTemporary>
void add_fusion_variant(Family& family, const char* name, fusion::Launcher launch) {
  using State = FusionState<kOp, kUsesTemporary>;
  family.cases<State>()
      .sizes(kFusionPerfSizes)
      .inputs([](State& st, std::uint64_t seed) {
        fill_uniform(st.x, -1.0f, 1.0f, seed);
        if (st.y.size() > 0) fill_uniform(st.y, -1.0f, 1.0f, splitmix64(seed ^ 0x59ull));
        st.a = scale_from(seed, 1);
        st.s = scale_from(seed, 2);
        st.b = static_cast<float>(2.0 * unit_from(seed, 3) - 1.0);  // [-1, 1)
      })
      // The temporary is poisoned too: a second kernel that reads an element the first did not write must
      // not find last run's (right) value there.
      .poison([](State& st) {
        poison(st.out);
        if (st.temp.size() > 0) poison(st.temp);
      })
      .check(check_fusion<kOp, kUsesTemporary>)
      .bytes([](const Point& p) { return fusion_bytes_moved(kOp, p.get("n")); })
      .flops([](const Point& p) { return 2.0 * static_cast<double>(p.get("n")); })  // one add, one multiply
      .compared_with(device_copy_ceiling())
      .speedup_over(unfused_variant_of(kOp))
      .variant(name, [launch](State& st, cudaStream_t stream) {
        launch({st.x.get(), st.y.get(), st.temp.get(), st.out.get(), st.n, st.a, st.b, st.s}, stream);
      });
}

}  // namespace
}  // namespace gpuperf

GPUPERF_FAMILY(fusion) {
  using gpuperf::fusion::Operation;
  // The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and
  // one line there.
#define GPUPERF_VARIANT(name, operation, uses_temporary) \
  gpuperf::add_fusion_variant<operation, uses_temporary>(family, #name, gpuperf::fusion::name);
#include "fusion/variants.def"
#undef GPUPERF_VARIANT
}
