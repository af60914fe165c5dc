#include "harness/bench_flags.h"

#include <utility>

namespace gpuperf {

const std::vector<ProgramFlag<BenchOptions>>& bench_flags() {
  using Flag = ProgramFlag<BenchOptions>;
  static const std::vector<Flag> flags = {
      {"--help", nullptr,
       "Print this help (the harness's flags, then Google Benchmark's) and exit 0. Needs no GPU.",
       &BenchOptions::help},
      {"--version", nullptr,
       "Print the harness's version (\"gpuperf 0.1.0\", formats/version.h) and exit 0. Needs no GPU. The "
       "results' context names it too (harness_version).",
       &BenchOptions::version},
      {"--list-cases", nullptr,
       "Print every registry case (correctness-only ones too, in registry order) as JSON on stdout, one case a "
       "line, and exit 0. Needs no GPU. The format is in bench_main.cpp's header; formats/case_listing.h reads "
       "it.",
       &BenchOptions::list_cases},
      {"--gpu-info", nullptr,
       "Print the GPU this process sees as one line of JSON (name, slug, uuid, compute_capability, sm_count, "
       "memory_mib, driver, cuda_runtime) and exit 0.",
       &BenchOptions::gpu_info},
      {"--no-reference-check", nullptr,
       "Time without comparing each case with its reference first: for the processes after the first of a "
       "perf test, a recording or an A/B round, as the check is most of the setup. They time as checking "
       "processes do (docs/results.md, \"Timings that depended on history\").",
       &BenchOptions::no_reference_check},
      {"--no-fingerprint", nullptr,
       "Leave CUPTI out: a checking process captures no fingerprint of the kernels each case's timed run "
       "launches (formats/fingerprint.h).",
       &BenchOptions::no_fingerprint},
      {"--fingerprint-only", nullptr,
       "Check and capture every case --benchmark_filter selects, time none, and write the --benchmark_out=FILE "
       "(required) with the context, no benchmarks and the fingerprints. A case whose check fails is named on "
       "stderr, and the exit is 1. A perf test that skips unchanged benchmarks starts with it.",
       &BenchOptions::fingerprint_only},
      {"--reverse-order", nullptr,
       "Run the cases last to first, to check that a benchmark's time does not depend on the cases that ran "
       "before it (docs/results.md, \"Timings that depended on history\").",
       &BenchOptions::reverse_order},
      {"--time-filter", "REGEX",
       "Of the cases --benchmark_filter selects, time only those whose name REGEX matches too "
       "(std::regex_search); the others are still set up in their turn (inputs, one run, the pause after freed "
       "memory, warm-up) and released, never timed or reported, so that each timed case follows the history it "
       "has in a process that times them all (harness/timed_cases.h). A re-measurement uses it. Not with "
       "--fingerprint-only or --profiler-window.",
       nullptr, [](BenchOptions& options, std::string value) { options.time_filter = std::move(value); }},
      {"--profiler-window", nullptr,
       "For a profiler that records only between cudaProfilerStart and cudaProfilerStop (ncu "
       "--profile-from-start off, nsys --capture-range=cudaProfilerApi): each case --benchmark_filter selects "
       "is set up, warmed up and the L2 flushed outside that range, then exactly the kernels of one timed "
       "sample run inside it, the device synchronised on both sides: one range a case. Nothing is timed or "
       "written as results, no reference checked, nothing captured. A case that cannot be set up is named on "
       "stderr, and the exit is 1.",
       &BenchOptions::profiler_window},
      {"--profiler-window-order", "FILE",
       "With --profiler-window: each case's name, one a line, appended to FILE once its range closed (flushed "
       "then, so that a run cut short names the ranges it completed): the order in which a profiler's results "
       "are attributed to cases (scripts/lib/ncu.sh).",
       nullptr, [](BenchOptions& options, std::string value) { options.profiler_window_order = std::move(value); }},
  };
  return flags;
}

std::string bench_flags_conflict(const BenchOptions& options) {
  if (!options.time_filter.empty() && (options.fingerprint_only || options.profiler_window)) {
    return "--time-filter chooses what a timing process times: --fingerprint-only and --profiler-window time "
           "nothing, leave it out";
  }
  if (options.profiler_window && options.fingerprint_only) {
    return "--profiler-window and --fingerprint-only exclude each other: run them as two processes";
  }
  if (!options.profiler_window_order.empty() && !options.profiler_window) {
    return "--profiler-window-order names the order of --profiler-window's ranges: give both";
  }
  return "";
}

BenchOptions take_bench_flags(int& argc, char** argv) {
  const BenchOptions options = take_flags(bench_flags(), argc, argv);
  if (const std::string conflict = bench_flags_conflict(options); !conflict.empty()) throw FlagError(conflict);
  return options;
}

std::string bench_help(const std::string& program) {
  const std::string before =
      "usage: " + program + " [FLAG]... [--benchmark_FLAG]...\n" +
      wrapped("The perf benchmarks: one Google Benchmark per registry case with the perf role. Each repetition "
              "is one sample (L2 flushed, timed with CUDA events); the JSON written with --benchmark_out=FILE "
              "keeps every sample with the GPU's clocks beside it, and its context names the GPU, for perf_gate.",
              0, 100) +
      wrapped("Exit: 0 done (a case whose result is wrong is reported as a benchmark error, which the gate fails "
              "on, never timed); 1 a case failed (--fingerprint-only, --profiler-window); 2 bad usage; 77 no CUDA "
              "GPU (--help, --version and --list-cases need none).",
              0, 100) +
      "\nflags of the harness:\n";
  const std::string after =
      "\n" + wrapped("Google Benchmark's flags: every --benchmark_* flag is Google Benchmark's, listed below; "
                     "this program's defaults are --benchmark_repetitions=30 and "
                     "--benchmark_display_aggregates_only=true. Any other flag is refused.",
                     0, 100);
  return flags_help(before, bench_flags(), after);
}

}  // namespace gpuperf
