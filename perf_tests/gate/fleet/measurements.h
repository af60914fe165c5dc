#pragma once
// What each GPU of the fleet report measured: per benchmark the time of a typical process, with the bytes
// and flops one run does. A GPU's numbers come from its baseline, or from results files of its slug.

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate {

struct Measurement {
  std::string unit;    // "us" or "cycles"
  double time = 0.0;   // typical process (see GpuMeasurements) [unit]
  double bytes = 0.0;  // per run, as the input says; 0 where it does not [bytes]
  double flops = 0.0;  // per run, as the input says; 0 where it does not [floating-point operations]
};

struct GpuMeasurements {
  std::string name;    // "NVIDIA H200"
  std::string slug;    // "nvidia-h200"
  std::string source;  // what the numbers are, for people: "baseline recorded ... at commit ..., 3 processes"
  std::map<std::string, Measurement> benchmarks;  // by benchmark name
};

// A baseline given to the report, with the path it was read from.
struct BaselineInput {
  std::string path;
  Baseline baseline;
};

// One input file, in command-line order.
using FleetInput = std::variant<BaselineInput, ResultsFile>;

// A baseline's medians (the geometric mean of its process medians, as the gate judges).
GpuMeasurements measurements_from_baseline(const Baseline& baseline);

// Results files of one GPU (each file one process): a benchmark's time is the median over the files of
// each file's median of valid samples, as the gate takes it; a benchmark without a valid sample anywhere
// (errors, skips, all throttled) is left out. InputError when the files name different GPU slugs or a
// benchmark is in cycles in one file and microseconds in another.
GpuMeasurements measurements_from_results(const std::vector<ResultsFile>& files);

// One GPU per baseline, and one per GPU slug of the results files, in the order the inputs were given
// (a GPU's results are placed where its first file was). InputError for results without a gpu_slug, and
// for a GPU given twice (two baselines, or a baseline and results of one slug): each column is one GPU.
std::vector<GpuMeasurements> fleet_gpus(std::vector<FleetInput> inputs);

}  // namespace gpuperf::gate
