#include "gate/fleet/measurements.h"

#include <algorithm>
#include <optional>

#include "formats/input_error.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate {
namespace {

// A benchmark counts in a results file from its first valid sample: the report shows what was measured,
// the gate judges whether enough was.
constexpr int kMinSamplesForReport = 1;

std::string baseline_source(const Baseline& b) {
  std::string text = "baseline";
  if (!b.recorded.date.empty()) text += " recorded " + b.recorded.date;
  if (!b.recorded.commit.empty()) text += " at commit " + b.recorded.commit;
  if (b.recorded.runs > 0) text += ", " + std::to_string(b.recorded.runs) + " processes";
  return text;
}

std::string results_source(const std::vector<ResultsFile>& files) {
  std::string text = std::to_string(files.size()) + (files.size() == 1 ? " results file" : " results files");
  const std::string& commit = files.front().gpu.git_commit;
  if (!commit.empty()) text += " at commit " + commit;
  return text;
}

// The GPUs in input order while they are gathered: a baseline, or the results files of one slug.
struct GpuSlot {
  std::string slug;
  std::string first_source;  // the file that introduced the GPU, for messages
  std::optional<GpuMeasurements> from_baseline;
  std::vector<ResultsFile> results;
};

[[noreturn]] void given_twice(const GpuSlot& slot, const std::string& source) {
  throw formats::InputError("GPU '" + slot.slug + "' is given twice: by '" + slot.first_source + "' and by '" + source +
                   "' - give each GPU once, as its baseline or as its results files: each column is one GPU");
}

}  // namespace

GpuMeasurements measurements_from_baseline(const Baseline& baseline) {
  GpuMeasurements gpu{baseline.gpu.name, baseline.gpu.slug, baseline_source(baseline), {}};
  for (const auto& [name, entry] : baseline.benchmarks) {
    gpu.benchmarks[name] = Measurement{entry.unit, entry.median, entry.bytes, entry.flops};
  }
  return gpu;
}

GpuMeasurements measurements_from_results(const std::vector<ResultsFile>& files) {
  GpuMeasurements gpu;
  if (files.empty()) return gpu;
  gpu.slug = common_gpu_slug(files);
  gpu.name = files.front().gpu.name;
  gpu.source = results_source(files);
  std::map<std::string, BenchmarkSamples> pooled;  // for the unit, bytes and flops
  for (const ResultsFile& file : files) {
    for (const auto& [name, samples] : file.benchmarks) pool_into(pooled[name], samples, name, file.source);
  }
  for (const auto& [name, samples] : pooled) {
    const std::vector<double> medians = process_medians(files, name, kMinSamplesForReport);
    if (medians.empty()) continue;
    gpu.benchmarks[name] = Measurement{samples.unit, median(medians), samples.bytes, samples.flops};
  }
  return gpu;
}

std::vector<GpuMeasurements> fleet_gpus(std::vector<FleetInput> inputs) {
  std::vector<GpuSlot> slots;
  const auto find_slot = [&slots](const std::string& slug) {
    return std::find_if(slots.begin(), slots.end(), [&slug](const GpuSlot& s) { return s.slug == slug; });
  };
  for (FleetInput& input : inputs) {
    if (const auto* b = std::get_if<BaselineInput>(&input)) {
      const auto slot = find_slot(b->baseline.gpu.slug);
      if (slot != slots.end()) given_twice(*slot, b->path);
      slots.push_back(GpuSlot{b->baseline.gpu.slug, b->path, measurements_from_baseline(b->baseline), {}});
      continue;
    }
    ResultsFile& file = std::get<ResultsFile>(input);
    if (file.gpu.slug.empty()) {
      throw formats::InputError(file.source +
                       ": context has no gpu_slug, so its GPU is unknown - write the results with the project's "
                       "perf binary, which records it");
    }
    auto slot = find_slot(file.gpu.slug);
    if (slot == slots.end()) {
      slots.push_back(GpuSlot{file.gpu.slug, file.source, std::nullopt, {}});
      slot = slots.end() - 1;
    } else if (slot->from_baseline) {
      given_twice(*slot, file.source);
    }
    slot->results.push_back(std::move(file));
  }
  std::vector<GpuMeasurements> gpus;
  for (const GpuSlot& slot : slots) {
    gpus.push_back(slot.from_baseline ? *slot.from_baseline : measurements_from_results(slot.results));
  }
  return gpus;
}

}  // namespace gpuperf::gate
