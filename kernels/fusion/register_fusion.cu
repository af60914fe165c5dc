// The fusion family's registry: its variants, its sizes, and how one case is checked.
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/device_compare.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"
#include "fusion/fusion.cuh"

namespace gpuperf {
namespace {

using fusion::Launcher;
using fusion::Operation;

struct Variant {
  const char* name;
  Operation op;
  Launcher launch;
  bool uses_temporary;  // gets a device array t of n floats
};

// The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and one
// line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name, operation, uses_temporary) {#name, operation, fusion::name, uses_temporary},
#include "fusion/variants.def"
#undef GPUPERF_VARIANT
};

// 1 and the prime 1000003 (not a multiple of 4 or of any block) catch tail bugs; 2^28 floats is 1 GiB
// per array, many times any L2 (~0.8 ms for add-scale at the copy ceiling).
const Size kSizes[] = {
    {1, kCorrectness},
    {1000003, kCorrectness},
    {std::int64_t{1} << 28, kBoth},
};

// Bytes are those the FUSED formulation must move, for every variant of an operation: add-scale reads
// x and y and writes out (3 arrays), axpb reads x and writes out (2 arrays). The unfused variants move
// more (their temporary is written and read back) but are credited with the same bytes, so they show
// a lower effective GB/s: that difference is what fusion buys, and it is the lesson of the seed.
double bytes_moved(Operation op, std::int64_t n) {
  const GlobalMemoryBytes x_read_out_written = GlobalMemoryBytes().reads<float>(n).writes<float>(n);
  return op == Operation::kAddScale ? x_read_out_written.reads<float>(n) : x_read_out_written;
}

// The seed's naive form of an operation, through a temporary: the speedups of the fused variants of
// that operation are over it.
const char* unfused_variant_of(Operation op) {
  for (const Variant& variant : kVariants) {
    if (variant.op == op && variant.uses_temporary) return variant.name;
  }
  return "";
}

// One addition and one multiplication per element either way.
double flops(std::int64_t n) { return 2.0 * static_cast<double>(n); }

// Per-element tolerance against the double-precision reference. A float result here carries at most
// two roundings: add-scale ~2.4e-7 relative; a*x then + b at most 2^-24 * (|a*x| + |out|) <= 3e-7
// absolute (|a| < 2, |x|, |b| <= 1). Both far inside 1e-6 + 1e-6 * |expected|.
constexpr double kAbsTol = 1e-6;
constexpr double kRelTol = 1e-6;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

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

class FusionInstance final : public Instance {
 public:
  FusionInstance(const Variant& variant, std::int64_t n)
      : variant_(variant),
        n_(n),
        x_(static_cast<std::size_t>(n)),
        y_(variant.op == Operation::kAddScale ? static_cast<std::size_t>(n) : 0),
        temp_(variant.uses_temporary ? static_cast<std::size_t>(n) : 0),
        out_(static_cast<std::size_t>(n)) {}

  void generate(std::uint64_t seed) override {
    fill_uniform(x_, -1.0f, 1.0f, seed);
    if (y_.size() > 0) fill_uniform(y_, -1.0f, 1.0f, splitmix64(seed ^ 0x59ull));
    a_ = scale_from(seed, 1);
    s_ = scale_from(seed, 2);
    b_ = static_cast<float>(2.0 * unit_from(seed, 3) - 1.0);  // [-1, 1)
  }
  // The temporary is poisoned too: a second kernel that reads an element the first did not write must
  // not find last run's (right) value there.
  void poison() override {
    gpuperf::poison(out_);
    if (temp_.size() > 0) gpuperf::poison(temp_);
  }
  void run(cudaStream_t stream) override {
    variant_.launch({x_.get(), y_.get(), temp_.get(), out_.get(), n_, a_, b_, s_}, stream);
  }

  CheckResult verify() override {
    const bool add_scale = variant_.op == Operation::kAddScale;
    if (!checked_on_host(n_)) {
      return add_scale ? compare_close_on_device(AddScaleReference{x_.get(), y_.get(), s_}, out_.get(), n_, kAbsTol, kRelTol)
                       : compare_close_on_device(AxpbReference{x_.get(), a_, b_}, out_.get(), n_, kAbsTol, kRelTol);
    }
    const std::vector<float> x = x_.to_host();
    const std::vector<float> y = y_.to_host();
    const std::vector<double> expected = add_scale ? expected_values(AddScaleReference{x.data(), y.data(), s_}, n_)
                                                   : expected_values(AxpbReference{x.data(), a_, b_}, n_);
    return compare_close(expected, out_.to_host(), kAbsTol, kRelTol);
  }

 private:
  Variant variant_;
  std::int64_t n_;
  DeviceBuffer<float> x_;
  DeviceBuffer<float> y_;
  DeviceBuffer<float> temp_;
  DeviceBuffer<float> out_;
  float a_ = 1.0f;
  float b_ = 0.0f;
  float s_ = 1.0f;
};

}  // namespace

void register_fusion(Registry& registry) {
  add_variant_cases(registry, kVariants, kSizes, [&registry](Case& c, const Variant& variant, const Size& size) {
    c.shape = shape({{"n", size.n}});
    c.bytes = bytes_moved(variant.op, size.n);
    c.flops = flops(size.n);
    c.compared_with = device_copy_ceiling();
    c.speedup_over = speedup_over_naive(registry, unfused_variant_of(variant.op), c);
    c.make = [&variant, n = size.n] { return std::make_unique<FusionInstance>(variant, n); };
  });
}

}  // namespace gpuperf
