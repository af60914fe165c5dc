#pragma once
// A team's nvbench suite: the JSON its binary writes with --json FILE (--jsonbin FILE writes the same JSON
// and every state's sample times beside it), read into the ResultsFile the gate judges. The format is
// nvbench's nvbench/json_printer.cu (JSON file version 1.0.0), read at NVIDIA/nvbench commit 66212f1d
// (nvbench 0.1.0); docs/suites.md says what is read, for users.
//
// Per state (one benchmark at one point of its axes):
//   name     formats/foreign_names.h: <family>/<benchmark>/<axis>:<value>,... from its axis_values (from
//            its name, "Device=0 BlockSize=2^6 ...", where it has none); the device is not part of it.
//   samples  its cold GPU times [us]: every one, where nvbench wrote them (the summary
//            "nv/json/bin:nv/cold/sample_times" names a file of little-endian float32 seconds, relative to
//            the JSON's folder); else the mean "nv/cold/time/gpu/mean" as one sample, a summary: the process
//            is the unit of replication, and a process's median is what the gate uses.
//   skipped  a state nvbench skipped (is_skipped, skip_reason), and one with no cold GPU time (a CPU-only
//            benchmark): the gate judges cold GPU time, and says so.
//   clock    its mean SM clock ("nv/cold/sm_clock_rate/mean"), one value per state, in sm_clock_mhz.
// The GPU is the entry of "devices" the states ran on (name, slug by formats/names.h's rule, compute
// capability from sm_version, SM count, memory): a file holds one GPU's states.

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "formats/gpu_identity.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate {

// The summaries read, by their tags (nvbench/detail/measure_cold.cu, nvbench/json_printer.cu).
inline constexpr const char* kNvbenchSampleTimesTag = "nv/json/bin:nv/cold/sample_times";
inline constexpr const char* kNvbenchGpuMeanTag = "nv/cold/time/gpu/mean";               // [seconds]
inline constexpr const char* kNvbenchGpuNoiseTag = "nv/cold/time/gpu/stdev/relative";    // a fraction
inline constexpr const char* kNvbenchSampleCountTag = "nv/cold/sample_size";
inline constexpr const char* kNvbenchSmClockTag = "nv/cold/sm_clock_rate/mean";           // [Hz]

// The largest sample-times file read [bytes]: 16 million samples, far beyond what nvbench takes of a state
// (its default stops at 0.5% noise, or 15 s), and it keeps a wrong file from filling memory.
inline constexpr std::size_t kMaxNvbenchSampleTimesBytes = std::size_t{64} << 20;

// Where a state's samples came from.
enum class NvbenchSamplesFrom { kSampleTimes, kMean, kNone };

// What the reports may say of a state beside its samples.
struct NvbenchStateInfo {
  std::string state_name;  // "Device=0 BlockSize=2^6 T=I32", as nvbench named it
  long long device = 0;    // the id nvbench gave the GPU
  NvbenchSamplesFrom samples_from = NvbenchSamplesFrom::kNone;
  std::optional<double> noise_pct;           // nvbench's relative standard deviation of its times [percent]
  std::optional<long long> nvbench_samples;  // how many times nvbench took of it
};

struct NvbenchResults {
  ResultsFile results;                             // what the gate judges
  std::map<std::string, NvbenchStateInfo> states;  // by benchmark name, as results.benchmarks
  std::string nvbench_version;                     // meta.version.nvbench.string; "" where not written
};

// Parses the JSON `text` read from `json_path` (which names it in messages; its folder holds the sample
// times) as the suite `family` (a family name, formats/names.h). `gpu`, when given, is the GPU the caller
// started the suite on: InputError where its name is not the one nvbench names; it fills in what nvbench
// does not write (uuid, driver, CUDA runtime). InputError for anything malformed, in the message form of
// formats/json_fields.h: a JSON file version other than 1, a state that cannot be named or two that map
// onto one name, states of several devices, a time that is not a positive finite number of seconds, and a
// sample-times file that leaves the JSON's folder (a path with "..", an absolute one, or a link out of it),
// is missing, larger than kMaxNvbenchSampleTimesBytes or not the size its summary says.
NvbenchResults parse_nvbench_results(const std::string& text, const std::string& json_path, const std::string& family,
                                     const std::optional<formats::GpuIdentity>& gpu);
NvbenchResults load_nvbench_results(const std::string& json_path, const std::string& family,
                                    const std::optional<formats::GpuIdentity>& gpu);

}  // namespace gpuperf::gate
