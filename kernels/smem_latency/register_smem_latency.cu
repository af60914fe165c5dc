// The smem_latency family's registry: its variants, its (i, w, c) points, and how one case is checked.
// Written by hand, not with common/family.h: its metric is SM cycles (Instance::cycles()), which the
// builders' instances do not report, its points are a list rather than a product of axes, and its fit case
// sweeps inside one instance.
//
// Every case's metric is SM clock cycles (Metric::kCycles): Instance::cycles() is the seed's T of the
// last run(). run() only enqueues the launch; cycles() copies the per-warp clocks back (a synchronous
// cudaMemcpy) and is only called after the harness has synchronised. bytes = flops = 0: the work is
// on-chip, and one launch's global traffic (a 4 KiB table in, the loaded values out) is outside the
// measured bracket. No compared_with or speedup_over: a latency has no throughput ceiling to be a % of,
// and the family has one variant.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "common/case_shape.h"
#include "common/compare.h"
#include "common/poison.cuh"
#include "common/random_fill.cuh"
#include "common/registry.h"
#include "common/variant_cases.h"
#include "smem_latency/smem_latency.cuh"

namespace gpuperf {
namespace {

using smem_latency::Config;
using smem_latency::Launcher;

struct Variant {
  const char* name;
  Launcher launch;
};

// The variants in variants.def's order. Adding a variant: its file <name>.cu with its launcher, and one
// line in variants.def.
const Variant kVariants[] = {
#define GPUPERF_VARIANT(name) {#name, smem_latency::name},
#include "smem_latency/variants.def"
#undef GPUPERF_VARIANT
};

struct Point {
  Config config;
  unsigned roles;
};

// Perf (and correctness): the minimum latency (1,1,1); bank congestion c = 1..32 at i = w = 1; warps
// w = 1, 4, 16, 32 at i = c = 1; loads i = 1, 8, 32 at w = c = 1. Correctness only: odd points (the
// dispatch over i, partial rows of banks) and the largest one (1024 threads, 32 loads, 32-way conflicts).
const Point kPoints[] = {
    {{1, 1, 1}, kBoth},         {{1, 1, 2}, kBoth},        {{1, 1, 4}, kBoth},  {{1, 1, 8}, kBoth},
    {{1, 1, 16}, kBoth},        {{1, 1, 32}, kBoth},       {{1, 4, 1}, kBoth},  {{1, 16, 1}, kBoth},
    {{1, 32, 1}, kBoth},        {{8, 1, 1}, kBoth},        {{32, 1, 1}, kBoth}, {{3, 5, 7}, kCorrectness},
    {{17, 3, 31}, kCorrectness}, {{32, 32, 32}, kCorrectness},
};

// Sanity relations the fitted sweep must satisfy (latency_model_fit).
constexpr double kMinRSquared = 0.9;        // the seed's linear model explains the sweep
constexpr double kMinLatencyLow = 10.0;     // [cycles] below: the bracket is not around the loads
constexpr double kMinLatencyHigh = 200.0;   // [cycles] above: not an on-chip access
// [cycles] how much more T must be at a row's largest congestion c than at its smallest. A row is not
// checked step by step: one step may add as little as C1, about a cycle per load (c=1 -> 2 at i=1), and at
// two warps the median of runs moved by up to 3 cycles between neighbours on an H200 (T(i=1,w=2): 52 cycles
// at c=1, 49 at c=2; T(i=32,w=2): 179, 177): a rise checked step by step failed unchanged code in the
// README's main command on two hosts of four, and the correctness tests within 12 repeats on one of them.
constexpr double kRowRiseCycles = 1.0;

std::string shape_of(const Config& config) {
  return shape({{"i", config.loads}, {"w", config.warps}, {"c", config.congestion}});
}

// Buffers of one launch and its checks, shared by both instance kinds.
class Launch {
 public:
  Launch(Launcher launch, Config config)
      : launch_(launch),
        config_(config),
        table_(smem_latency::kTableWords),
        values_(static_cast<std::size_t>(config.loads) * config.warps * smem_latency::kWarpSize),
        clocks_(smem_latency::kClockWords) {}

  void generate(std::uint64_t seed) { fill_uniform(table_, smem_latency::kTableMin, smem_latency::kTableMax, seed); }
  void poison() {
    gpuperf::poison(values_);
    gpuperf::poison(clocks_);
  }
  void run(cudaStream_t stream) { launch_({table_.get(), config_, values_.get(), clocks_.get()}, stream); }
  double cycles() const {
    return smem_latency::block_interval_cycles(smem_latency::copy_block_clocks(clocks_.get(), config_.warps));
  }

  // The loaded values equal the table words (exact), and T is positive and finite.
  CheckResult verify() const {
    const std::vector<std::int64_t> expected = smem_latency::expected_values(table_.to_host(), config_);
    const std::vector<int> got = values_.to_host();
    const CheckResult values = compare_exact(expected, std::vector<std::int64_t>(got.begin(), got.end()));
    if (!values.ok) return CheckResult::fail("loaded values differ from shared memory: " + values.message);
    // Every warp wrote its clocks (poisoned ones read end - start = 0 and a negative overhead).
    const smem_latency::BlockClocks clocks = smem_latency::copy_block_clocks(clocks_.get(), config_.warps);
    for (int w = 0; w < config_.warps; ++w) {
      const auto span = static_cast<std::int32_t>(clocks.end[w] - clocks.start[w]);
      const auto overhead = static_cast<std::int32_t>(clocks.overhead[w]);
      if (span <= 0 || overhead < 0) {
        return CheckResult::fail("warp " + std::to_string(w) + ": end - start = " + std::to_string(span) +
                                 ", bracket overhead = " + std::to_string(overhead) +
                                 " cycles (clocks not written, or the end clock not read)");
      }
    }
    const double t = smem_latency::block_interval_cycles(clocks);
    if (!(std::isfinite(t) && t > 0.0)) {
      return CheckResult::fail("cycle figure T = " + std::to_string(t) + " is not positive (the bracket does not "
                               "hold the loads)");
    }
    return CheckResult::pass();
  }

  Counters counters() const {
    return {{"loads_per_thread", config_.loads},
            {"warps", config_.warps},
            {"congestion", config_.congestion},
            {"bank_wavefronts", static_cast<double>(config_.loads) * config_.warps * config_.congestion}};
  }

 private:
  Launcher launch_;
  Config config_;
  DeviceBuffer<int> table_;
  DeviceBuffer<int> values_;
  DeviceBuffer<std::uint32_t> clocks_;
};

// One (i, w, c) point: T of one launch.
class LoadLatencyInstance final : public Instance {
 public:
  LoadLatencyInstance(Launcher launch, Config config) : launch_(launch, config) {}
  void generate(std::uint64_t seed) override { launch_.generate(seed); }
  void poison() override { launch_.poison(); }
  void run(cudaStream_t stream) override { launch_.run(stream); }
  CheckResult verify() override { return launch_.verify(); }
  double cycles() const override { return launch_.cycles(); }
  Counters counters() const override { return launch_.counters(); }

 private:
  Launch launch_;
};

// The seed's experiment as a correctness case. run() enqueues the minimum-latency launch (1, 1, 1);
// verify() checks it, then runs the whole sweep and fit (measure_smem_latency_fit(), synchronous),
// prints the figures and checks relations that a bracket not holding the loads, or a wrong
// congestion pattern, would break.
class LatencyModelFitInstance final : public Instance {
 public:
  explicit LatencyModelFitInstance(Launcher launch) : launch_(launch, Config{1, 1, 1}) {}
  void generate(std::uint64_t seed) override { launch_.generate(seed); }
  void poison() override { launch_.poison(); }
  void run(cudaStream_t stream) override { launch_.run(stream); }
  double cycles() const override { return min_latency_; }

  CheckResult verify() override {
    if (CheckResult single = launch_.verify(); !single.ok) return single;
    const smem_latency::SmemLatencyFit fit = smem_latency::measure_smem_latency_fit();
    min_latency_ = fit.min_latency;
    print(fit);

    std::ostringstream why;
    if (fit.value_mismatches != 0) why << " " << fit.value_mismatches << " loaded values differ from shared memory;";
    if (!(fit.r_squared >= kMinRSquared)) why << " R^2 = " << fit.r_squared << " < " << kMinRSquared << ";";
    if (!(fit.c1 > 0.0)) why << " C1 = " << fit.c1 << " is not positive;";
    if (!(fit.min_latency >= kMinLatencyLow && fit.min_latency <= kMinLatencyHigh)) {
      why << " minimum latency " << fit.min_latency << " cycles outside [" << kMinLatencyLow << ", "
          << kMinLatencyHigh << "];";
    }
    // Bank conflicts serialise: at every (i, w), T rises from the row's smallest c to its largest. Points
    // are c-ascending in a row.
    std::size_t row_start = 0;
    for (std::size_t k = 1; k <= fit.points.size(); ++k) {
      const auto& first = fit.points[row_start];
      if (k < fit.points.size() && fit.points[k].config.loads == first.config.loads &&
          fit.points[k].config.warps == first.config.warps) {
        continue;
      }
      const auto& last = fit.points[k - 1];
      if (k - 1 > row_start && !(last.cycles > first.cycles + kRowRiseCycles)) {
        why << " T(i=" << first.config.loads << ",w=" << first.config.warps << ") does not rise with c: c="
            << first.config.congestion << " " << first.cycles << " cycles, c=" << last.config.congestion << " "
            << last.cycles << " cycles;";
      }
      row_start = k;
    }
    if (why.str().empty()) return CheckResult::pass();
    return CheckResult::fail("latency model fit:" + why.str());
  }

 private:
  static void print(const smem_latency::SmemLatencyFit& fit) {
    std::string grid;
    for (int v : smem_latency::fit_grid_values()) grid += (grid.empty() ? "" : ",") + std::to_string(v);
    std::printf(
        "smem_latency fit: C1=%.4f cycles per bank access, C2=%.2f cycles, R^2=%.5f, min latency=%.1f cycles "
        "(T at i=w=c=1), clock-read overhead %.1f cycles subtracted; %zu points (i,w,c in {%s}), median of %d runs "
        "each\n",
        fit.c1, fit.c2, fit.r_squared, fit.min_latency, fit.bracket_overhead, fit.points.size(), grid.c_str(),
        fit.runs_per_point);
    std::printf("smem_latency fit: T(i=1,w=1,c) for c=%s:", grid.c_str());
    for (const auto& point : fit.points) {
      if (point.config.loads == 1 && point.config.warps == 1) std::printf(" %.1f", point.cycles);
    }
    std::printf(" cycles\n");
    std::fflush(stdout);
  }

  Launch launch_;
  double min_latency_ = 0.0;
};

}  // namespace

void register_smem_latency(Registry& registry) {
  add_variant_cases(registry, kVariants, kPoints, [](Case& c, const Variant& variant, const Point& point) {
    c.shape = shape_of(point.config);
    c.metric = Metric::kCycles;
    c.make = [launch = variant.launch, config = point.config] {
      return std::make_unique<LoadLatencyInstance>(launch, config);
    };
  });

  Case fit;
  fit.variant = "latency_model_fit";
  fit.shape = shape({{"i", "pow2_1..32"}, {"w", "pow2_1..32"}, {"c", "pow2_1..32"}});
  fit.roles = kCorrectness;
  fit.metric = Metric::kCycles;
  fit.make = [] { return std::make_unique<LatencyModelFitInstance>(smem_latency::ld_volatile_shared_u32); };
  registry.add(std::move(fit));
}

}  // namespace gpuperf
