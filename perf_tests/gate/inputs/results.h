#pragma once
// Benchmark results: what one Google Benchmark JSON file (--benchmark_out_format=json) written by a perf
// binary says, reduced to what the gate judges: per benchmark, the valid samples of every repetition. A
// team's Google Benchmark or nvbench suite is read into the same (gbench_results.h, nvbench_results.h).

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "formats/fingerprint.h"
#include "formats/gpu_identity.h"
#include "formats/names.h"
#include "formats/sample_units.h"

namespace gpuperf::gate {

// The GPU a results file was measured on, from the context the perf binary wrote (formats/
// results_context.h): empty where the context does not say. The uuid picks the baseline's same-GPU
// tolerance.
struct GpuContext : formats::GpuIdentity {
  std::string git_commit;  // the commit the binary was built from, when the run said
};

// `gpu` as a results file's GPU, for a file that does not say (another tool's, which the caller knows the
// GPU of): its slug made from its name where it has none. InputError (naming `source`) when its name or
// slug breaks the name rule.
GpuContext gpu_context_of(const formats::GpuIdentity& gpu, const std::string& source);

// The longest benchmark name the gate reads is formats/names.h's: a --filter regular expression is matched
// against every name, and std::regex matches recursively: a 30,000-character name overflowed the stack (a
// crash, not an error). Names are refused beyond it where they are read (formats::name_error).
using formats::kMaxBenchmarkNameLength;

// One benchmark in one results file (or pooled over several).
struct BenchmarkSamples {
  std::string unit;             // formats::kUnitMicroseconds or formats::kUnitCycles
  std::vector<double> samples;  // valid (unthrottled) repetitions [unit]
  int throttled = 0;            // repetitions discarded: clock throttling or another process on the GPU
  int power_capped = 0;         // of those, with a power-cap throttle reason (counter power_capped)
  int shared_gpu = 0;           // of those, with another process on the GPU (counter other_processes)
  int repetitions = 0;          // every repetition seen, throttled ones included
  bool error = false;           // the benchmark reported error_occurred: never a pass
  std::string error_message;
  bool skipped = false;  // skipped by the binary itself (Google Benchmark >= 1.8 SkipWithMessage)
  std::string skip_message;
  double bytes = 0.0;                  // moved through device memory by one run [bytes]
  double flops = 0.0;                  // arithmetic of one run [floating-point operations]
  double injected_slowdown_pct = 0.0;  // fault injection active during the run (informational) [percent]
  // Each sample is the suite's own summary of many timings (nvbench's mean of a state; a row of another
  // suite's Google Benchmark output, the mean of its iterations), where our perf binary's are one timed run
  // each: one such sample is a process's median, and process_median asks for no more.
  bool samples_are_summaries = false;
};

struct ResultsFile {
  std::string source;  // the file it came from, for messages
  GpuContext gpu;
  // by benchmark name: benchmark_name_from_run_name(run_name), or another tool's name mapped onto the rule
  // (formats/foreign_names.h)
  std::map<std::string, BenchmarkSamples> benchmarks;
  // The clocks NVML read at each valid sample of every benchmark (counters sm_clock_mhz, mem_clock_mhz);
  // empty when the perf binary had no NVML [MHz]
  std::vector<double> sm_clock_mhz;
  std::vector<double> mem_clock_mhz;
  // The top-level "fingerprints" a checking process of the perf binary adds (harness/fingerprint/): what
  // each benchmark's timed run launched, by benchmark name. One that cannot be read is kept as not captured,
  // its capture_status saying why: a warning in the reports, never an error. Empty in other files.
  std::map<std::string, formats::Fingerprint> fingerprints;
  // How the perf binary measured (formats/measuring_method.h): context.measuring_method, or
  // kMeasuringMethodUnrecorded for a file of our perf binary that does not say; 0 for another tool's suite
  // (a team's Google Benchmark or nvbench binary), whose method is its own.
  int measuring_method = 0;
  // Why a file of a suite that cannot capture fingerprints holds none: "a Google Benchmark suite"; "" in
  // our perf binary's files (their absence has other reasons: judging/code_check.h).
  std::string no_fingerprints_because;
};

// The registry name of a benchmark ("reduction/reduce9/n:1024") from the run_name Google Benchmark writes:
// it appends the settings of the registration ("reduction/reduce9/n:1024/iterations:1/manual_time"), which
// are stripped so that names match the baseline whatever the harness's registration options.
std::string benchmark_name_from_run_name(const std::string& run_name);

// Parses one results document; `source` names it in messages. InputError for anything malformed: corrupt
// or truncated JSON, no benchmarks (unless it holds fingerprints: gpuperf_bench --fingerprint-only), missing or mistyped fields, a time that is NaN, zero or negative.
ResultsFile parse_results(const std::string& text, const std::string& source);

// Whose Google Benchmark output a file is. Our perf binary's (the default): names by
// benchmark_name_from_run_name, and its context, fingerprints and counters (cycles, throttled, clocks,
// bytes, flops) read. Another suite's (gbench_results.h): names mapped onto the rule by
// formats/foreign_names.h in the family `suite_family`, two runs that map onto one name refused, samples
// that are summaries (the mean of a run's iterations), and nothing of the harness's read: that suite's
// own counters may have the same names ("throttled", "cycles") and mean something else.
struct ResultsDialect {
  std::string suite_family;  // "": our perf binary's file; else the family of another suite's benchmarks
};
ResultsFile parse_results(const std::string& text, const std::string& source, const ResultsDialect& dialect);
ResultsFile load_results(const std::string& path);
std::vector<ResultsFile> load_results_files(const std::vector<std::string>& paths);

// Adds `more` to `into` (the same benchmark in another file): samples pooled, counts summed, an error
// anywhere is an error. InputError when the units differ.
void pool_into(BenchmarkSamples& into, const BenchmarkSamples& more, const std::string& name,
               const std::string& source);

// Every benchmark of every file, samples pooled by run_name (the orchestrator re-measures ambiguous
// benchmarks into a second file). InputError when the files come from different GPUs.
std::map<std::string, BenchmarkSamples> pool_results(const std::vector<ResultsFile>& files);

// The median of one file's (one process's) valid samples of benchmark `name`; nullopt when it has fewer
// than `min_samples` of them (fewer than one, where its samples are summaries: BenchmarkSamples).
std::optional<double> process_median(const ResultsFile& file, const std::string& name, int min_samples);

// The median of each file's valid samples of benchmark `name`, in file order (a file is one process);
// files where it has fewer than `min_samples` valid samples are left out.
std::vector<double> process_medians(const std::vector<ResultsFile>& files, const std::string& name, int min_samples);

// Each benchmark's fingerprint from the first file that captured it (else the first file that has one
// at all, for its capture_status).
std::map<std::string, formats::Fingerprint> pool_fingerprints(const std::vector<ResultsFile>& files);

// The GPU slug shared by all files. InputError when they differ.
std::string common_gpu_slug(const std::vector<ResultsFile>& files);

// The measuring method shared by all files of our perf binary (those of a team's suite, 0, left out); 0
// when there are none. InputError when two differ: their samples were not timed alike.
int common_measuring_method(const std::vector<ResultsFile>& files);

// The GPU UUID shared by all files; empty when any file lacks one or they differ (several GPUs of one
// model are fine to pool, but then no single GPU measured the results).
std::string common_gpu_uuid(const std::vector<ResultsFile>& files);

}  // namespace gpuperf::gate
