// The occupancy family's registry: its variants, its sizes, and how one case is checked. Written by hand,
// not with common/family.h: its cases report their residency (Instance::counters()), which the builders'
// instances do not, and its wave sweep's bytes and flops depend on the GPU's SM count.
#include <cmath>
#include <cstdint>
#include <exception>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/case_references.h"
#include "common/case_shape.h"
#include "common/compare.h"
#include "common/device_compare.cuh"
#include "common/device_info.h"
#include "common/global_memory_bytes.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"
#include "occupancy/occupancy.cuh"

namespace gpuperf {
namespace {

using occupancy::AxpbLauncher;
using occupancy::AxpbPrepare;
using occupancy::Residency;

// ---- (a), (b): y = a*x + b at several block sizes and residency limits.

struct AxpbVariant {
  const char* name;
  AxpbPrepare prepare;
  AxpbLauncher launch;
  bool any_block;  // false: kLimitedBlock threads per block only
};

// The variants in variants.def's order; the first, the plain kernel, is what the limited ones' speedups
// (at the same block size) are over. Adding a variant: its file <name>.cu with its prepare/launch pair,
// and one line in variants.def.
const AxpbVariant kAxpbVariants[] = {
#define GPUPERF_VARIANT(name, prepare, launcher, any_block) \
  {#name, occupancy::prepare, occupancy::launcher, any_block},
#include "occupancy/variants.def"
#undef GPUPERF_VARIANT
};

// Threads per block of the sweep, one case each.
constexpr int kBlocks[] = {32, 64, 128, 256, 512, 1024};

constexpr bool swept(int block) {
  for (const int b : kBlocks) {
    if (b == block) return true;
  }
  return false;
}
static_assert(swept(occupancy::kLimitedBlock), "the limited variants are timed at one block size of the sweep");

// 1000003 (prime) leaves a partial last block at every block size; 2^26 floats (256 MiB per array) is
// several times any L2 and ~130 us at the H200's copy ceiling.
const Size kAxpbSizes[] = {{1000003, kCorrectness}, {std::int64_t{1} << 26, kBoth}};

// One case per variant at each of these it takes: every block size, at every size.
struct AxpbPoint {
  int block;
  std::int64_t n;
  unsigned roles;  // the size's
};

std::vector<AxpbPoint> axpb_points() {
  std::vector<AxpbPoint> all;
  for (const int block : kBlocks) {
    for (const Size& size : kAxpbSizes) all.push_back({block, size.n, size.roles});
  }
  return all;
}

constexpr float kA = 1.5f;
constexpr float kB = 0.25f;

Counters residency_counters(const Residency& r) {
  return {{"active_blocks_per_sm", r.active_blocks_per_sm},
          {"occupancy_pct", r.occupancy_pct},
          {"registers_per_thread", r.registers_per_thread},
          {"shared_bytes_per_block", static_cast<double>(r.shared_bytes_per_block)}};
}

// The reference, written once: over a host copy of x for the odd size, over the device array for the
// large one (common/device_compare.cuh). fmaf: one IEEE fused multiply-add on either side.
struct AxpbReference {
  const float* x;
  __host__ __device__ double operator()(std::int64_t i) const { return fmaf(kA, x[i], kB); }
};

class AxpbInstance final : public Instance {
 public:
  AxpbInstance(const AxpbVariant& variant, int block, std::int64_t n)
      : variant_(variant),
        block_(block),
        n_(n),
        residency_(variant.prepare(block)),
        x_(static_cast<std::size_t>(n)),
        y_(static_cast<std::size_t>(n)) {}

  void generate(std::uint64_t seed) override { fill_uniform(x_, -1.0f, 1.0f, seed); }
  void poison() override { gpuperf::poison(y_); }
  void run(cudaStream_t stream) override { variant_.launch({x_.get(), y_.get(), n_, kA, kB}, block_, stream); }

  // The kernels compute fmaf(a, x, b), one IEEE fused multiply-add: exact match.
  CheckResult verify() override {
    if (!checked_on_host(n_)) return compare_close_on_device(AxpbReference{x_.get()}, y_.get(), n_, 0.0, 0.0);
    const std::vector<float> x = x_.to_host();
    return compare_close(expected_values(AxpbReference{x.data()}, n_), y_.to_host(), 0.0, 0.0);
  }

  Counters counters() const override {
    Counters c = residency_counters(residency_);
    c["block"] = block_;
    return c;
  }

 private:
  const AxpbVariant& variant_;
  int block_;
  std::int64_t n_;
  Residency residency_;
  DeviceBuffer<float> x_;
  DeviceBuffer<float> y_;
};

// ---- (c): fixed-work blocks, one per SM, in whole and partial waves.

struct Waves {
  double value;
  const char* text;  // as the shape names it
  unsigned roles;
};

const Waves kWaves[] = {
    {1.00, "1.00", kBoth}, {1.25, "1.25", kBoth}, {1.50, "1.50", kPerf}, {1.75, "1.75", kPerf},
    {2.00, "2.00", kPerf}, {2.25, "2.25", kPerf}, {2.50, "2.50", kPerf}, {3.00, "3.00", kPerf},
};

// Start values and increments keep every value an integer below 2^24 (exact in float): |start| +
// blocks + chain + iterations * max increment, summed over the chains, stays below 2^20.
constexpr int kStartMin = -1000;
constexpr int kStartMax = 1000;
constexpr int kIncrementMax = 3;
constexpr float kMultiplier = 1.0f;

int blocks_for(double waves, int sm_count) { return static_cast<int>(std::lround(waves * sm_count)); }

class WaveInstance final : public Instance {
 public:
  explicit WaveInstance(double waves)
      : sm_count_(device_sm_count()),
        residency_(occupancy::fixed_work_prepare()),
        blocks_(blocks_for(waves, sm_count_)),
        start_(occupancy::kWaveThreads),
        out_(static_cast<std::size_t>(blocks_) * occupancy::kWaveThreads) {
    // The case's waves and flops assume one block per SM; anything else is not this experiment.
    if (residency_.active_blocks_per_sm != 1) {
      throw std::runtime_error("wave_sweep: the runtime reports " + std::to_string(residency_.active_blocks_per_sm) +
                               " resident blocks per SM, the kernel is built for exactly 1");
    }
  }

  void generate(std::uint64_t seed) override {
    fill_uniform(start_, kStartMin, kStartMax, seed);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> increment(1, kIncrementMax);
    for (float& inc : increments_) inc = static_cast<float>(increment(rng));
  }
  void poison() override { gpuperf::poison(out_); }
  void run(cudaStream_t stream) override {
    occupancy::WaveArgs args{start_.get(), out_.get(), blocks_, kMultiplier, {}};
    for (int c = 0; c < occupancy::kWaveChains; ++c) args.increment[c] = increments_[c];
    occupancy::fixed_work_blocks(args, stream);
  }

  // The same recurrence on the CPU in double: after kWaveIterations steps v -> m*v + inc, a chain that
  // started at v0 holds A*v0 + B (A, B accumulated below), so each thread costs kWaveChains
  // multiply-adds here instead of kWaveIterations.
  CheckResult verify() override {
    constexpr int kThreads = occupancy::kWaveThreads;
    double scale[occupancy::kWaveChains];
    double offset[occupancy::kWaveChains];
    for (int c = 0; c < occupancy::kWaveChains; ++c) {
      double a = 1.0;
      double b = 0.0;
      for (int it = 0; it < occupancy::kWaveIterations; ++it) {
        a = a * kMultiplier;
        b = b * kMultiplier + increments_[c];
      }
      scale[c] = a;
      offset[c] = b;
    }
    const std::vector<int> start = start_.to_host();
    std::vector<double> expected(static_cast<std::size_t>(blocks_) * kThreads);
    for (int block = 0; block < blocks_; ++block) {
      for (int t = 0; t < kThreads; ++t) {
        const int source = kThreads - 1 - t;  // the kernel writes its neighbour's result
        double sum = 0.0;
        for (int c = 0; c < occupancy::kWaveChains; ++c) sum += scale[c] * (start[source] + block + c) + offset[c];
        expected[static_cast<std::size_t>(block) * kThreads + t] = sum;
      }
    }
    return compare_close(expected, out_.to_host(), 0.0, 0.0);
  }

  Counters counters() const override {
    Counters c = residency_counters(residency_);
    c["blocks"] = blocks_;
    c["sm_count"] = sm_count_;
    c["waves"] = static_cast<double>(blocks_) / (static_cast<double>(sm_count_) * residency_.active_blocks_per_sm);
    return c;
  }

 private:
  int sm_count_;
  Residency residency_;
  int blocks_;
  DeviceBuffer<int> start_;
  DeviceBuffer<float> out_;
  float increments_[occupancy::kWaveChains] = {};
};

// flops needs the block count, hence the SM count, when the case is registered. Both harness mains
// register after finding a GPU; without one (a listing on a CPU-only machine) flops is left at 0.
int sm_count_if_known() {
  try {
    return device_sm_count();
  } catch (const std::exception&) {
    return 0;
  }
}

}  // namespace

void register_occupancy(Registry& registry) {
  add_variant_cases(registry, kAxpbVariants, axpb_points(),
                    [&registry](Case& c, const AxpbVariant& variant, const AxpbPoint& point) {
                      if (!variant.any_block && point.block != occupancy::kLimitedBlock) return false;
                      c.shape = shape({{"block", point.block}, {"n", point.n}});
                      // x read once, y written once; one multiply-add per element.
                      c.bytes = GlobalMemoryBytes().reads<float>(point.n).writes<float>(point.n);
                      c.flops = 2.0 * static_cast<double>(point.n);
                      c.compared_with = device_copy_ceiling();
                      c.speedup_over = speedup_over_naive(registry, kAxpbVariants[0].name, c);
                      c.make = [&variant, block = point.block, n = point.n] {
                        return std::make_unique<AxpbInstance>(variant, block, n);
                      };
                      return true;
                    });

  const int sm_count = sm_count_if_known();
  for (const Waves& w : kWaves) {
    Case c;
    c.variant = "wave_sweep";
    c.shape = shape({{"waves", w.text}});
    c.roles = w.roles;
    const double blocks = blocks_for(w.value, sm_count);
    // Compute-bound; the bytes are the start values read and one float written per thread. No
    // compared_with: no benchmark measures this GPU's arithmetic ceiling, and its GB/s against a copy's
    // would say nothing.
    c.bytes = GlobalMemoryBytes().reads<int>(occupancy::kWaveThreads).writes<float>(blocks * occupancy::kWaveThreads);
    c.flops = 2.0 * blocks * occupancy::kWaveThreads * occupancy::kWaveChains * occupancy::kWaveIterations;
    c.make = [waves = w.value] { return std::make_unique<WaveInstance>(waves); };
    registry.add(std::move(c));
  }
}

}  // namespace gpuperf
