// The reduction family's registry: its variants, its sizes, and how one case is checked.
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/check_side.h"
#include "common/compare.h"
#include "common/device_sums.cuh"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"
#include "reduction/reduction.cuh"

namespace gpuperf {
namespace {

using reduction::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
};

// The variants in variants.def's order; the first is the seed's naive variant, which the others' speedups
// are over. Adding a variant: its file <name>.cu with its launcher, and one line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name) {#name, reduction::name},
#include "reduction/variants.def"
#undef GPUPERF_VARIANT
};

// One element, primes and non-multiples of the block size catch tail bugs; 2^25 is the seed's 32M;
// 2^28 (1 GiB) is several times any L2 and long enough to time at the bandwidth ceiling.
const Size kSizes[] = {
    {1, kCorrectness},          {31, kCorrectness},      {1000, kCorrectness}, {7919, kCorrectness},
    {1000003, kCorrectness},    {std::int64_t{1} << 25, kBoth},
    {std::int64_t{1} << 28, kPerf},
};

// Inputs in [-3, 3] keep every partial sum of up to 2^28 elements below 2^30: no int32 overflow, and
// the poison value can never be a right answer.
constexpr int kInputMin = -3;
constexpr int kInputMax = 3;

class ReductionInstance final : public Instance {
 public:
  ReductionInstance(Launcher launch, std::int64_t n)
      : launch_(launch), n_(n), in_(static_cast<std::size_t>(n)), out_(1), workspace_(n) {}

  void generate(std::uint64_t seed) override {
    fill_uniform(in_, kInputMin, kInputMax, seed);
    expected_valid_ = false;
  }
  void poison() override { gpuperf::poison(out_); }
  void run(cudaStream_t stream) override { launch_({in_.get(), n_, out_.get(), &workspace_}, stream); }

  CheckResult verify() override {
    if (!expected_valid_) {
      // 64-bit accumulation: on the CPU, or by a library for the large sizes (common/device_sums.cuh),
      // never by one of this family's reductions.
      std::int64_t sum = 0;
      if (checked_on_host(n_)) {
        for (int v : in_.to_host()) sum += v;
      } else {
        sum = sum_on_device(in_.get(), n_);
      }
      expected_ = sum;
      expected_valid_ = true;
    }
    return compare_exact({expected_}, {std::int64_t{out_.to_host()[0]}});
  }

 private:
  Launcher launch_;
  std::int64_t n_;
  DeviceBuffer<int> in_;
  DeviceBuffer<int> out_;
  reduction::Workspace workspace_;
  std::int64_t expected_ = 0;
  bool expected_valid_ = false;
};

}  // namespace

void register_reduction(Registry& registry) {
  add_variant_cases(registry, kVariants, kSizes, [&registry](Case& c, const Variant& variant, const Size& size) {
    c.shape = shape({{"n", size.n}});
    c.bytes = GlobalMemoryBytes().reads<int>(size.n);  // each input read once (the one int written: not counted)
    c.compared_with = read_only_ceiling();
    c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
    c.make = [launch = variant.launch, n = size.n] { return std::make_unique<ReductionInstance>(launch, n); };
  });
}

}  // namespace gpuperf
