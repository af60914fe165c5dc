// The saxpy family's registry: its variants, its sizes, and how one case is checked against the CPU.
#include <memory>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"
#include "saxpy.cuh"

namespace gpuperf {
namespace {

struct Variant {
  const char* name;
  saxpy::Launcher launch;
};

// The variants in variants.def's order; the first is the naive variant, which the others' speedups are
// over. Adding a variant: its file <name>.cu with its launcher, and one line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name) {#name, saxpy::name},
#include "variants.def"
#undef GPUPERF_VARIANT
};

// 1 and the prime 1000003 (not a multiple of 4 or of any block) catch tail bugs; 2^26 floats is 256 MiB
// per array, many times any L2.
const Size kSizes[] = {
    {1, kCorrectness},
    {1000003, kCorrectness},
    {std::int64_t{1} << 26, kBoth},
};

// One rounding (FFMA) or two (multiply, then add) in float against the double reference, |a| = 1.5 and
// |x|, |y| <= 1: at most ~3e-7 absolute.
constexpr float kA = 1.5f;
constexpr double kAbsTol = 1e-6;
constexpr double kRelTol = 1e-6;

class SaxpyInstance final : public Instance {
 public:
  SaxpyInstance(saxpy::Launcher launch, std::int64_t n)
      : launch_(launch), n_(n), x_(static_cast<std::size_t>(n)), y_(static_cast<std::size_t>(n)),
        out_(static_cast<std::size_t>(n)) {}

  void generate(std::uint64_t seed) override {
    fill_uniform(x_, -1.0f, 1.0f, seed);
    fill_uniform(y_, -1.0f, 1.0f, seed + 1);
  }
  void poison() override { gpuperf::poison(out_); }
  void run(cudaStream_t stream) override { launch_({x_.get(), y_.get(), kA, n_, out_.get()}, stream); }

  CheckResult verify() override {
    const std::vector<float> x = x_.to_host();
    const std::vector<float> y = y_.to_host();
    std::vector<double> expected(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) expected[i] = double{kA} * double{x[i]} + double{y[i]};
    return compare_close(expected, out_.to_host(), kAbsTol, kRelTol);
  }

 private:
  saxpy::Launcher launch_;
  std::int64_t n_;
  DeviceBuffer<float> x_;
  DeviceBuffer<float> y_;
  DeviceBuffer<float> out_;
};

}  // namespace

void register_saxpy(Registry& registry) {
  add_variant_cases(registry, kVariants, kSizes, [&registry](Case& c, const Variant& variant, const Size& size) {
    c.shape = shape({{"n", size.n}});
    c.bytes = GlobalMemoryBytes().reads<float>(2.0 * size.n).writes<float>(size.n);  // x, y read; out written
    c.flops = 2.0 * static_cast<double>(size.n);  // one multiply, one add per element
    c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
    c.make = [launch = variant.launch, n = size.n] { return std::make_unique<SaxpyInstance>(launch, n); };
  });
}

}  // namespace gpuperf
