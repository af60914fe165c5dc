// The perf benchmarks: one Google Benchmark per registry case with the kPerf role. Each repetition is
// one sample (flush L2, time with CUDA events); the JSON written with --benchmark_out keeps every
// sample with the GPU's clocks beside it, and its context names the GPU, for the gate.
//
//   gpuperf_bench [FLAG]... [Google Benchmark flags, e.g. --benchmark_filter=^reduction/]
//   gpuperf_bench --help
//
// Its own flags, what each does and which exclude each other, are one table: harness/bench_flags.cpp, from
// which they are parsed and --help is printed (then Google Benchmark's flags). --help, --version and
// --list-cases come before any CUDA call and need no GPU.
//
// --list-cases writes one case a line:
//   {"schema_version": 1, "cases": [
//     {"name": "f/v/s", "family": "f", "variant": "v", "shape": "s", "unit": "us" or "cycles", "bytes": N,
//      "flops": N, "roles": ["correctness", "perf"], "compared_with": name or null, "speedup_over": name
//      or null, "min_compute_capability": 0}
//   ]}
// (Case in common/registry.h says what each field means.) A reference into a family this build leaves
// out (GPUPERF_ONLY_FAMILIES) is listed by name though its case is not. Change the format: bump
// formats::kCaseListingSchemaVersion (formats/case_listing.h, the reader).
//
// Fingerprints (formats/fingerprint.h): a process that checks references also captures, with
// CUPTI, the kernels each case's timed run launches, once per case before its warm-up, and adds them to
// the --benchmark_out file as "fingerprints": {benchmark name: fingerprint}.
//
// Cases the correctness test verified (harness/verified_cases.h; the folder GPUPERF_VERIFIED_CASES_DIR
// names, set on kernel families' tests by CMake): a checking process with a capture runs and fingerprints
// each such case and compares it with its reference only where its fingerprint or GPU model differ from
// the verified run's. Each case's setup line on stderr says which ("reference verified by the correctness
// test" or "reference checked here"), and the results' context counts them: reference_check_verified_cases
// and reference_check_checked_cases.
//
// Exits 77 when there is no CUDA device (but for --help, --version, --list-cases), 2 on bad usage; a case
// whose result is wrong is reported as a benchmark error (the gate fails on it), never timed.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/cuda_check.cuh"
#include "common/device_info.h"
#include "common/registry.h"
#include "formats/atomic_file.h"
#include "formats/case_listing.h"
#include "formats/exit_codes.h"
#include "formats/json_input.h"
#include "formats/results_context.h"
#include "formats/version.h"
#include "harness/bench_flags.h"
#include "harness/fingerprint/cupti_capture.h"
#include "harness/gpu_info.h"
#include "harness/library_versions.h"
#include "harness/sampler.cuh"
#include "harness/timed_cases.h"
#include "harness/verified_cases.h"

namespace gpuperf {
namespace {

constexpr const char* kDefaultRepetitions = "--benchmark_repetitions=30";

// The registry as JSON (--list-cases), spaced as the header comment shows: one case a line.
void print_case_listing(const Registry& registry) {
  using nlohmann::json;
  const auto field = [](const char* key, const json& value) { return json(key).dump() + ": " + value.dump(); };
  const auto name_or_null = [](const std::string& name) { return name.empty() ? json(nullptr) : json(name); };
  // Byte and flop counts are whole numbers: written as integers, "134217728" rather than "134217728.0".
  const auto count = [](double value) {
    constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
    const bool whole = value >= 0.0 && value < kExactIntegers && value == std::floor(value);
    return whole ? json(static_cast<std::int64_t>(value)) : json(value);
  };
  std::printf("{\"schema_version\": %d, \"cases\": [", formats::kCaseListingSchemaVersion);
  const char* separator = "\n";
  for (const Case& c : registry.cases()) {
    std::string roles;
    if ((c.roles & kCorrectness) != 0) roles += "\"correctness\"";
    if ((c.roles & kPerf) != 0) roles += std::string(roles.empty() ? "" : ", ") + "\"perf\"";
    const std::string fields[] = {
        field("name", c.name()),
        field("family", c.family),
        field("variant", c.variant),
        field("shape", c.shape),
        field("unit", c.metric == Metric::kCycles ? "cycles" : "us"),
        field("bytes", count(c.bytes)),
        field("flops", count(c.flops)),
        "\"roles\": [" + roles + "]",
        field("compared_with", name_or_null(c.compared_with)),
        field("speedup_over", name_or_null(c.speedup_over)),
        field("min_compute_capability", c.needs.min_compute_capability),
    };
    std::string line;
    for (const std::string& f : fields) line += (line.empty() ? "" : ", ") + f;
    std::printf("%s  {%s}", separator, line.c_str());
    separator = ",\n";
  }
  std::printf("\n]}\n");
}

std::string pci_bus_id() {
  char id[32] = {};
  int device = 0;
  GPUPERF_CUDA_CHECK(cudaGetDevice(&device));
  GPUPERF_CUDA_CHECK(cudaDeviceGetPCIBusId(id, sizeof id, device));
  return id;
}

void print_gpu_json(const GpuInfo& gpu) {
  std::printf(
      "{\"name\": \"%s\", \"slug\": \"%s\", \"uuid\": \"%s\", \"compute_capability\": \"%s\", \"sm_count\": %lld, "
      "\"memory_mib\": %lld, \"driver\": \"%s\", \"cuda_runtime\": \"%s\"}\n",
      gpu.name.c_str(), gpu.slug.c_str(), gpu.uuid.c_str(), gpu.compute_capability.c_str(), gpu.sm_count.value_or(0),
      gpu.memory_mib.value_or(0), gpu.driver.c_str(), gpu.cuda_runtime.c_str());
}

// The results' context: which GPU, driver and runtime measured them, how, and with which release of the
// harness (the gate reads these keys).
std::vector<std::pair<std::string, std::string>> context_entries(const GpuInfo& gpu, const Sampler& sampler,
                                                                 bool check_reference) {
  formats::ContextEntries entries = formats::gpu_context_entries(gpu);
  entries.emplace_back(formats::kContextGpuL2Bytes, std::to_string(gpu.l2_bytes));
  entries.emplace_back(formats::kContextHardwareGuard,
                       sampler.nvml().available() ? "nvml" : "off: " + sampler.nvml().unavailable_reason());
  entries.emplace_back(formats::kContextReferenceCheck, check_reference ? "on" : "off");
  entries.emplace_back(formats::kContextHarnessVersion, formats::kHarnessVersion);
  entries.push_back(formats::measuring_method_context_entry());
  if (const char* commit = std::getenv("GPUPERF_GIT_COMMIT")) entries.emplace_back(formats::kContextGitCommit, commit);
  return entries;
}

// The value of a Google Benchmark flag given as --name=value; `fallback` when absent.
std::string flag_value(const std::vector<char*>& args, const std::string& name, const std::string& fallback) {
  const std::string prefix = "--" + name + "=";
  std::string value = fallback;
  for (const char* arg : args) {
    if (std::string(arg).rfind(prefix, 0) == 0) value = std::string(arg).substr(prefix.size());  // the last wins
  }
  return value;
}

using Fingerprints = std::map<std::string, formats::Fingerprint>;

// How many cases of a checking process were compared with their reference here, and how many were not as
// the correctness test verified them (Sampler::reference_check()).
struct ReferenceCheckCounts {
  int checked = 0;
  int verified = 0;

  void count(const Sampler& sampler) {
    if (sampler.reference_check() == ReferenceCheck::kChecked) ++checked;
    if (sampler.reference_check() == ReferenceCheck::kVerifiedByCorrectness) ++verified;
  }
  // The results' context keys, counted once every case is prepared (the rest of the context is written first).
  void add_to_context(nlohmann::json& context) const {
    context["reference_check_checked_cases"] = std::to_string(checked);
    context["reference_check_verified_cases"] = std::to_string(verified);
  }
  void print_summary() const {
    std::fprintf(stderr, "reference check: %d case(s) checked here, %d verified by the correctness test\n", checked,
                 verified);
  }
};

// The setup line's note on the current case's reference check.
std::string reference_note(const Sampler& sampler) {
  switch (sampler.reference_check()) {
    case ReferenceCheck::kVerifiedByCorrectness: return "  [reference verified by the correctness test]";
    case ReferenceCheck::kChecked:
      return sampler.why_checked_here().empty() ? "  [reference checked here]"
                                                : "  [reference checked here: " + sampler.why_checked_here() + "]";
    case ReferenceCheck::kOff: break;
  }
  return "";
}

// Adds the fingerprints and, from a checking process, the reference check's counts to the results file
// Google Benchmark wrote, rewritten whole (formats/atomic_file.h).
void complete_results(const std::string& results_path, const Fingerprints& fingerprints,
                      const std::optional<ReferenceCheckCounts>& counts) {
  nlohmann::json doc = formats::parse_json_document(formats::read_text_file(results_path, "rerun the benchmark"), results_path);
  if (!fingerprints.empty()) doc["fingerprints"] = fingerprints;
  if (counts && doc.contains("context") && doc["context"].is_object()) counts->add_to_context(doc["context"]);
  formats::write_file_atomically(results_path, doc.dump(1) + "\n");
}

// GPUPERF_VERIFIED_CASES_DIR's records of the families of `cases`, for a checking process with a capture;
// nullopt (every case checked) otherwise. A record that cannot be read is a warning on stderr.
std::optional<VerifiedCasesIndex> verified_cases_of(const std::vector<const Case*>& cases,
                                                    const std::string& gpu_slug) {
  const char* folder = std::getenv(kVerifiedCasesDirVariable);
  if (folder == nullptr || *folder == '\0') return std::nullopt;
  std::vector<std::string> families;
  for (const Case* c : cases) families.push_back(c->family);
  std::vector<std::string> warnings;
  std::optional<VerifiedCasesIndex> index(std::in_place, folder, families, gpu_slug, warnings);
  for (const std::string& warning : warnings) std::fprintf(stderr, "warning: %s\n", warning.c_str());
  return index;
}

class CaseBenchmarks {
 public:
  explicit CaseBenchmarks(Sampler& sampler) : sampler_(sampler) {}
  const Fingerprints& fingerprints() const { return fingerprints_; }
  const ReferenceCheckCounts& reference_checks() const { return reference_checks_; }

  // set_up_before: the cases of the process's history to set up before c (--time-filter), not timed.
  void run(benchmark::State& state, const Case& c, const std::vector<const Case*>& set_up_before = {}) {
    const auto failed = failures_.find(&c);
    if (failed != failures_.end()) return state.SkipWithError(failed->second.c_str());
    try {
      const bool first_sample = !sampler_.is_current(c);
      if (first_sample) {
        for (const Case* earlier : set_up_before) {
          const auto start = std::chrono::steady_clock::now();
          const CheckResult set_up = sampler_.prepare(*earlier);
          if (!set_up.ok) {
            return fail(state, c, "could not set up " + earlier->name() + ", which runs before it: " + set_up.message);
          }
          const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
          std::fprintf(stderr, "setup %.3f s  %s  [not timed: runs before %s]\n", took.count(), earlier->name().c_str(),
                       c.name().c_str());
        }
      }
      const auto setup_start = std::chrono::steady_clock::now();
      const CheckResult prepared = sampler_.prepare(c);
      if (!prepared.ok) return fail(state, c, prepared.message);
      // Setup (inputs, reference check, warm-up) is most of a run's wall time: show where it goes.
      if (first_sample) {
        const std::chrono::duration<double> setup = std::chrono::steady_clock::now() - setup_start;
        std::fprintf(stderr, "setup %.3f s  %s%s\n", setup.count(), c.name().c_str(), reference_note(sampler_).c_str());
        if (sampler_.fingerprint()) fingerprints_[c.name()] = *sampler_.fingerprint();
        reference_checks_.count(sampler_);
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
  Fingerprints fingerprints_;
  ReferenceCheckCounts reference_checks_;
};

// --fingerprint-only: each case checked and captured, none timed; the results file holds the fingerprints
// of the cases that passed. A case whose check fails is named on stderr and fails the run (exit 1).
int check_and_fingerprint(Sampler& sampler, const std::vector<const Case*>& cases, const std::string& filter,
                          const std::vector<std::pair<std::string, std::string>>& context, const std::string& out) {
  if (out.empty()) {
    std::fprintf(stderr, "error: --fingerprint-only writes its fingerprints to --benchmark_out=FILE: give one\n");
    return formats::kExitInvalidInput;
  }
  const std::regex selected(filter);
  Fingerprints fingerprints;
  ReferenceCheckCounts counts;
  int failed = 0;
  for (const Case* c : cases) {
    if (!std::regex_search(c->name(), selected)) continue;
    const auto setup_start = std::chrono::steady_clock::now();
    const CheckResult checked = sampler.prepare(*c, Sampler::Readiness::kCheckedOnly);
    if (checked.ok) {
      const std::chrono::duration<double> setup = std::chrono::steady_clock::now() - setup_start;
      std::fprintf(stderr, "setup %.3f s  %s%s\n", setup.count(), c->name().c_str(), reference_note(sampler).c_str());
      counts.count(sampler);
    }
    if (checked.ok && sampler.fingerprint()) {
      fingerprints[c->name()] = *sampler.fingerprint();
    } else if (!checked.ok) {
      ++failed;
      std::fprintf(stderr, "ERROR %s: %s\n", c->name().c_str(), checked.message.c_str());
    }
  }
  nlohmann::json doc = {{"context", nlohmann::json::object()}, {"benchmarks", nlohmann::json::array()}};
  for (const auto& [key, value] : context) doc["context"][key] = value;
  counts.add_to_context(doc["context"]);
  counts.print_summary();
  doc["fingerprints"] = fingerprints;
  formats::write_file_atomically(out, doc.dump(1) + "\n");
  std::fprintf(stderr, "%zu fingerprints written to %s\n", fingerprints.size(), out.c_str());
  return failed == 0 ? formats::kExitPass : formats::kExitRegression;
}

// --profiler-window: one profiler range a selected case, its name appended to `order_path` (if any) once
// the range closed.
int run_profiler_windows(Sampler& sampler, const std::vector<const Case*>& cases, const std::string& filter,
                         const std::string& order_path) {
  std::FILE* order = nullptr;
  if (!order_path.empty() && (order = std::fopen(order_path.c_str(), "w")) == nullptr) {
    std::fprintf(stderr, "error: cannot write the order file %s (--profiler-window-order)\n", order_path.c_str());
    return formats::kExitInvalidInput;
  }
  const std::regex selected(filter);
  int failed = 0, windows = 0;
  for (const Case* c : cases) {
    if (!std::regex_search(c->name(), selected)) continue;
    try {
      const CheckResult prepared = sampler.prepare(*c);
      if (!prepared.ok) throw std::runtime_error(prepared.message);
      sampler.profiler_window();
    } catch (const std::exception& e) {
      ++failed;
      std::fprintf(stderr, "ERROR %s: %s\n", c->name().c_str(), e.what());
      continue;
    }
    ++windows;
    std::fprintf(stderr, "profiler window %d: %s\n", windows, c->name().c_str());
    if (order != nullptr) {
      std::fprintf(order, "%s\n", c->name().c_str());
      std::fflush(order);
    }
  }
  if (order != nullptr) std::fclose(order);
  return failed == 0 ? formats::kExitPass : formats::kExitRegression;
}

}  // namespace
}  // namespace gpuperf

int main(int argc, char** argv) {
  using namespace gpuperf;
  // The harness's flags (bench_flags.cpp's table), taken out before Google Benchmark sees the rest; before
  // anything else, so that --help, --version and --list-cases need no GPU.
  BenchOptions options;
  try {
    options = take_bench_flags(argc, argv);
  } catch (const FlagError& e) {
    std::fprintf(stderr, "error: %s (see --help)\n", e.what());
    return formats::kExitInvalidInput;
  }
  if (options.help) {
    const std::string program = argv[0];
    std::printf("%s\n", bench_help(program.substr(program.find_last_of('/') + 1)).c_str());
    std::fflush(stdout);
    benchmark::PrintDefaultHelp();  // Google Benchmark's flags, from Google Benchmark
    return formats::kExitPass;
  }
  if (options.version) {
    std::printf("%s\n", formats::kHarnessVersionLine);
    return formats::kExitPass;
  }
  // Before the GPU is looked for: registering cases makes nothing on a device.
  if (options.list_cases) {
    try {
      Registry registry;
      register_all_families(registry);
      print_case_listing(registry);
      return formats::kExitPass;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "error: %s\n", e.what());
      return formats::kExitInvalidInput;
    }
  }
  const bool profiler_window = options.profiler_window;
  const std::string& window_order = options.profiler_window_order;
  // A profiled process neither checks nor captures: CUPTI's capture and the profiler would both record.
  const bool check_reference = !options.no_reference_check && !profiler_window;
  const bool reverse_order = options.reverse_order;
  const bool fingerprint_only = options.fingerprint_only;
  const bool no_fingerprint = options.no_fingerprint || profiler_window;
  const std::string& time_filter = options.time_filter;
  const bool info_only = options.gpu_info;
  // Before the first CUDA call, so that CUPTI sees every module load (cupti_capture.h); only in a process
  // that checks, as the others only time.
  fingerprint::LaunchCapture* capture = nullptr;
  if ((check_reference || fingerprint_only) && !no_fingerprint && !info_only) {
    capture = &fingerprint::LaunchCapture::instance();
  }
  std::string why;
  const std::optional<GpuInfo> gpu = query_gpu(why);
  if (!gpu) {
    std::fprintf(stderr, "SKIPPED: %s\n", why.c_str());
    return formats::kExitNotJudged;
  }
  try {
    std::vector<SlowdownRule> rules;
    if (const char* spec = std::getenv("GPUPERF_INJECT_SLOWDOWN")) rules = parse_slowdown_rules(spec);
    Sampler sampler(pci_bus_id(), std::move(rules), check_reference || fingerprint_only, capture);
    GpuInfo info = *gpu;
    if (const std::string driver = sampler.nvml().driver_version(); !driver.empty()) info.driver = driver;
    if (capture != nullptr) capture->set_libraries(library_versions(info.cuda_runtime));
    if (info_only) {
      print_gpu_json(info);
      return formats::kExitPass;
    }

    // Defaults first, so that the caller's own flags (parsed later) win.
    std::vector<char*> args{argv[0], const_cast<char*>(kDefaultRepetitions),
                            const_cast<char*>("--benchmark_display_aggregates_only=true")};
    args.insert(args.end(), argv + 1, argv + argc);
    // Read before benchmark::Initialize, which takes its flags out of the list.
    const std::string results_path = flag_value(args, "benchmark_out", "");
    const std::string filter = flag_value(args, "benchmark_filter", ".");
    int args_count = static_cast<int>(args.size());
    benchmark::Initialize(&args_count, args.data());
    if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return formats::kExitInvalidInput;

    if (const std::string missing = missing_kernel_image(); !missing.empty()) {
      std::fprintf(stderr, "error: %s\n", missing.c_str());
      return formats::kExitInvalidInput;
    }
    Registry registry;
    register_all_families(registry);
    CaseBenchmarks benchmarks(sampler);
    const DeviceCapabilities device = device_capabilities();
    std::string not_applicable;  // "name (why); ...", in the results' context
    std::vector<const Case*> cases, perf_cases;
    for (const Case& c : registry.cases()) cases.push_back(&c);
    if (reverse_order) std::reverse(cases.begin(), cases.end());
    for (const Case* perf_case : cases) {
      const Case& c = *perf_case;
      if ((c.roles & kPerf) == 0) continue;
      if (const std::string why = not_applicable_reason(c.needs, device); !why.empty()) {
        std::fprintf(stderr, "not applicable on this GPU: %s (%s)\n", c.name().c_str(), why.c_str());
        not_applicable += (not_applicable.empty() ? "" : "; ") + c.name() + " (" + why + ")";
        continue;
      }
      perf_cases.push_back(&c);
    }
    const auto register_benchmark = [&benchmarks](const Case& c, std::vector<const Case*> set_up_before) {
      benchmark::RegisterBenchmark(c.name().c_str(), [&benchmarks, &c, set_up_before](benchmark::State& state) {
        benchmarks.run(state, c, set_up_before);
      })->UseManualTime()->Iterations(1)->Unit(benchmark::kMicrosecond);
    };
    if (time_filter.empty()) {
      for (const Case* c : perf_cases) register_benchmark(*c, {});
    } else {
      for (TimedCase& t : timed_cases(perf_cases, filter, time_filter)) register_benchmark(*t.timed, std::move(t.set_up_before));
    }
    // Only a process that checks and captures can tell a verified case's code from another's.
    std::optional<VerifiedCasesIndex> verified;
    if ((check_reference || fingerprint_only) && capture != nullptr && capture->available()) {
      verified = verified_cases_of(perf_cases, info.slug);
      if (verified) sampler.use_verified_cases(&*verified);
    }
    auto context = context_entries(info, sampler, check_reference || fingerprint_only);
    if (reverse_order) context.emplace_back("case_order", "reverse");
    if (!not_applicable.empty()) context.emplace_back("not_applicable", not_applicable);
    if (fingerprint_only) return check_and_fingerprint(sampler, perf_cases, filter, context, results_path);
    if (profiler_window) return run_profiler_windows(sampler, perf_cases, filter, window_order);
    for (const auto& [key, value] : context) benchmark::AddCustomContext(key, value);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::optional<ReferenceCheckCounts> counts;
    if (check_reference) {
      counts = benchmarks.reference_checks();
      counts->print_summary();
    }
    // Counted only where a case was prepared: with no case run, Google Benchmark may write no file.
    const bool any_prepared = counts && counts->checked + counts->verified > 0;
    if (!results_path.empty() && (any_prepared || !benchmarks.fingerprints().empty())) {
      complete_results(results_path, benchmarks.fingerprints(), counts);
    }
    return formats::kExitPass;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return formats::kExitInvalidInput;
  }
}
