// The perf benchmarks: one Google Benchmark per registry case with the kPerf role. Each repetition is
// one sample (flush L2, time with CUDA events); the JSON written with --benchmark_out keeps every
// sample with the GPU's clocks beside it, and its context names the GPU, for the gate.
//
//   gpuperf_bench [--gpu-info] [--no-reference-check] [Google Benchmark flags, e.g. --benchmark_filter=^reduction/]
//
// --no-reference-check: time without comparing each case with its reference first; for repeat runs of
// a binary whose first run checked them, as the check is most of the setup. Only compare such a run with
// runs made the same way: unchecked processes timed some 2^25-element memory-bound kernels 7-16% slower
// than checked ones, in the first samples after a 1 GiB case freed its memory (docs/results.md; the
// sampler now pauses after such frees, not yet measured). A/B rounds pair the two builds run alike, so it
// cancels there; stored baselines and their checks never use it.
//
// Exits 77 when there is no CUDA device, 2 on bad usage; a case whose result is wrong is reported as
// a benchmark error (the gate fails on it), never timed.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/device_info.h"
#include "common/registry.h"
#include "gate/exit_codes.h"
#include "harness/gpu_info.h"
#include "harness/sampler.cuh"

namespace gpuperf {
namespace {

constexpr const char* kDefaultRepetitions = "--benchmark_repetitions=30";

std::string pci_bus_id() {
  char id[32] = {};
  int device = 0;
  GPUPERF_CUDA_CHECK(cudaGetDevice(&device));
  GPUPERF_CUDA_CHECK(cudaDeviceGetPCIBusId(id, sizeof id, device));
  return id;
}

void print_gpu_json(const GpuInfo& gpu) {
  std::printf(
      "{\"name\": \"%s\", \"slug\": \"%s\", \"uuid\": \"%s\", \"compute_capability\": \"%s\", \"sm_count\": %d, "
      "\"memory_mib\": %ld, \"driver\": \"%s\", \"cuda_runtime\": \"%s\"}\n",
      gpu.name.c_str(), gpu.slug.c_str(), gpu.uuid.c_str(), gpu.compute_capability.c_str(), gpu.sm_count,
      gpu.memory_mib, gpu.driver_version.c_str(), gpu.cuda_runtime.c_str());
}

void add_context(const GpuInfo& gpu, const Sampler& sampler, bool check_reference) {
  benchmark::AddCustomContext("gpu_name", gpu.name);
  benchmark::AddCustomContext("gpu_slug", gpu.slug);
  benchmark::AddCustomContext("gpu_uuid", gpu.uuid);
  benchmark::AddCustomContext("gpu_compute_capability", gpu.compute_capability);
  benchmark::AddCustomContext("gpu_sm_count", std::to_string(gpu.sm_count));
  benchmark::AddCustomContext("gpu_memory_mib", std::to_string(gpu.memory_mib));
  benchmark::AddCustomContext("gpu_l2_bytes", std::to_string(gpu.l2_bytes));
  benchmark::AddCustomContext("driver_version", gpu.driver_version);
  benchmark::AddCustomContext("cuda_runtime", gpu.cuda_runtime);
  benchmark::AddCustomContext("hardware_guard", sampler.nvml().available() ? "nvml"
                                                                             : "off: " + sampler.nvml().unavailable_reason());
  benchmark::AddCustomContext("reference_check", check_reference ? "on" : "off");
  if (const char* commit = std::getenv("GPUPERF_GIT_COMMIT")) benchmark::AddCustomContext("git_commit", commit);
}

class CaseBenchmarks {
 public:
  explicit CaseBenchmarks(Sampler& sampler) : sampler_(sampler) {}

  void run(benchmark::State& state, const Case& c) {
    const auto failed = failures_.find(&c);
    if (failed != failures_.end()) return state.SkipWithError(failed->second.c_str());
    try {
      const bool first_sample = !sampler_.is_current(c);
      const auto setup_start = std::chrono::steady_clock::now();
      const CheckResult prepared = sampler_.prepare(c);
      if (!prepared.ok) return fail(state, c, prepared.message);
      // Setup (inputs, reference check, warm-up) is most of a run's wall time: show where it goes.
      if (first_sample) {
        const std::chrono::duration<double> setup = std::chrono::steady_clock::now() - setup_start;
        std::fprintf(stderr, "setup %.3f s  %s\n", setup.count(), c.name().c_str());
      }
      Sample sample;
      for (auto _ : state) {
        sample = sampler_.measure();
        state.SetIterationTime(sample.time_us * 1e-6);
      }
      // Once per case, the outputs of a timed run (injected spin and all) are checked again.
      if (first_sample) {
        const CheckResult after = sampler_.verify_last_run();
        if (!after.ok) return fail(state, c, after.message);
      }
      report(state, c, sample);
    } catch (const std::exception& e) {
      fail(state, c, e.what());
    }
  }

 private:
  void fail(benchmark::State& state, const Case& c, const std::string& why) {
    failures_[&c] = c.name() + ": " + why;
    std::fprintf(stderr, "ERROR %s\n", failures_[&c].c_str());
    state.SkipWithError(failures_[&c].c_str());
  }

  void report(benchmark::State& state, const Case& c, const Sample& sample) {
    state.counters["bytes"] = c.bytes;
    state.counters["flops"] = c.flops;
    if (c.bytes > 0) state.SetBytesProcessed(static_cast<int64_t>(c.bytes));
    if (c.flops > 0) state.counters["FLOP/s"] = benchmark::Counter(c.flops, benchmark::Counter::kIsIterationInvariantRate);
    if (c.metric == Metric::kCycles) state.counters["cycles"] = sample.value;
    if (sample.clocks) {
      state.counters["sm_clock_mhz"] = sample.clocks->sm_clock_mhz;
      state.counters["mem_clock_mhz"] = sample.clocks->mem_clock_mhz;
      state.counters["throttle_reasons"] = static_cast<double>(sample.clocks->reasons);
      state.counters["power_capped"] = Nvml::is_power_capped(sample.clocks->reasons) ? 1 : 0;
      state.counters["other_processes"] = sample.clocks->other_processes;
      state.counters["throttled"] =
          Nvml::is_throttled(sample.clocks->reasons) || sample.clocks->other_processes > 0 ? 1 : 0;
    }
    if (const auto injected = sampler_.injected_percent()) state.counters["injected_slowdown_pct"] = *injected;
    for (const auto& [name, value] : sampler_.counters()) state.counters[name] = value;
  }

  Sampler& sampler_;
  std::map<const Case*, std::string> failures_;
};

}  // namespace
}  // namespace gpuperf

int main(int argc, char** argv) {
  using namespace gpuperf;
  using namespace gpuperf::gate;
  std::string why;
  const std::optional<GpuInfo> gpu = query_gpu(why);
  const bool info_only = argc > 1 && std::string(argv[1]) == "--gpu-info";
  if (!gpu) {
    std::fprintf(stderr, "SKIPPED: %s\n", why.c_str());
    return kExitNotJudged;
  }
  try {
    std::vector<SlowdownRule> rules;
    if (const char* spec = std::getenv("GPUPERF_INJECT_SLOWDOWN")) rules = parse_slowdown_rules(spec);
    // Our own flag, taken out before Google Benchmark sees the rest.
    char** const args_end = std::remove_if(argv + 1, argv + argc, [](const char* arg) {
      return std::string(arg) == "--no-reference-check";
    });
    const bool check_reference = args_end == argv + argc;
    argc = static_cast<int>(args_end - argv);
    Sampler sampler(pci_bus_id(), std::move(rules), check_reference);
    GpuInfo info = *gpu;
    if (const std::string driver = sampler.nvml().driver_version(); !driver.empty()) info.driver_version = driver;
    if (info_only) {
      print_gpu_json(info);
      return kExitPass;
    }

    // Defaults first, so that the caller's own flags (parsed later) win.
    std::vector<char*> args{argv[0], const_cast<char*>(kDefaultRepetitions),
                            const_cast<char*>("--benchmark_display_aggregates_only=true")};
    args.insert(args.end(), argv + 1, argv + argc);
    int args_count = static_cast<int>(args.size());
    benchmark::Initialize(&args_count, args.data());
    if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return kExitInvalidInput;

    if (const std::string missing = missing_kernel_image(); !missing.empty()) {
      std::fprintf(stderr, "error: %s\n", missing.c_str());
      return kExitInvalidInput;
    }
    Registry registry;
    register_all_families(registry);
    CaseBenchmarks benchmarks(sampler);
    const DeviceCapabilities device = device_capabilities();
    std::string not_applicable;  // "name (why); ...", in the results' context
    for (const Case& c : registry.cases()) {
      if ((c.roles & kPerf) == 0) continue;
      if (const std::string why = not_applicable_reason(c.needs, device); !why.empty()) {
        std::fprintf(stderr, "not applicable on this GPU: %s (%s)\n", c.name().c_str(), why.c_str());
        not_applicable += (not_applicable.empty() ? "" : "; ") + c.name() + " (" + why + ")";
        continue;
      }
      benchmark::RegisterBenchmark(c.name().c_str(), [&benchmarks, &c](benchmark::State& state) {
        benchmarks.run(state, c);
      })->UseManualTime()->Iterations(1)->Unit(benchmark::kMicrosecond);
    }
    add_context(info, sampler, check_reference);
    if (!not_applicable.empty()) benchmark::AddCustomContext("not_applicable", not_applicable);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return kExitPass;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitInvalidInput;
  }
}
