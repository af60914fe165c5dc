// The reduction family's registry: its variants, its sizes, and how one case is checked.
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "reduction/reduction.cuh"

namespace gpuperf {
namespace {

using reduction::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
};

// Adding a variant: write its launcher (reduction.cuh) and add one line here. The first is the seed's
// naive variant, which the others' speedups are over.
const Variant kVariants[] = {
    {"reduce1_interleaved_divergent", reduction::reduce1_interleaved_divergent},
    {"reduce2_interleaved_strided_index", reduction::reduce2_interleaved_strided_index},
    {"reduce3_sequential_addressing", reduction::reduce3_sequential_addressing},
    {"reduce4_first_add_during_load", reduction::reduce4_first_add_during_load},
    {"reduce6_unrolled_templated_block", reduction::reduce6_unrolled_templated_block},
    {"reduce7_many_elements_per_thread", reduction::reduce7_many_elements_per_thread},
    {"reduce8_tile32_sync_last_warp", reduction::reduce8_tile32_sync_last_warp},
    {"reduce9_shfl_down_last_warp", reduction::reduce9_shfl_down_last_warp},
    {"reduce10_vec4_single_pass", reduction::reduce10_vec4_single_pass},
    {"cub_device_reduce_sum", reduction::cub_device_reduce_sum},
};

struct Size {
  std::int64_t n;
  unsigned roles;
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
      std::int64_t sum = 0;  // 64-bit accumulation on the CPU
      for (int v : in_.to_host()) sum += v;
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
  for (const Variant& variant : kVariants) {
    for (const Size& size : kSizes) {
      Case c;
      c.variant = variant.name;
      c.shape = shape({{"n", size.n}});
      c.roles = size.roles;
      c.bytes = GlobalMemoryBytes().reads<int>(size.n);  // each input read once (the one int written: not counted)
      c.compared_with = read_only_ceiling();
      c.speedup_over = speedup_over_naive(registry, kVariants[0].name, c);
      c.make = [launch = variant.launch, n = size.n] { return std::make_unique<ReductionInstance>(launch, n); };
      registry.add(std::move(c));
    }
  }
}

}  // namespace gpuperf
