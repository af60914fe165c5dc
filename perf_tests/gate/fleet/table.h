#pragma once
// The fleet report: every benchmark of the registry listing on every GPU given, the seeds' kind of table.
// Per GPU: time, throughput, % of that GPU's own ceiling, speedup over the seed's naive variant; across
// GPUs: the time ratio of the first GPU over each other one. Built by a pure function; rendered by
// fleet/render.h. The rules are documented for people in fleet/README.md.

#include <optional>
#include <string>
#include <vector>

#include "formats/case_listing.h"
#include "gate/fleet/measurements.h"

namespace gpuperf::gate {

// Bump when a field of the JSON fleet report changes meaning or disappears; an added field needs none
// (harness_version, added in 1 without a bump: readers of 1 ignore fields they do not know).
inline constexpr int kFleetReportSchemaVersion = 1;

// Below this many flops per byte a kernel is bound by memory on every GPU we measure (their ridge points,
// peak FP32 over memory bandwidth, lie between about 14 (H200) and 100 (L4) flops per byte), so its
// throughput is read in GB/s; at or above it, in TFLOP/s. Only for cases whose yardstick does not decide.
inline constexpr double kComputeBoundFlopsPerByte = 10.0;

enum class Throughput { kNone, kGbPerS, kTflopPerS };

// "GB/s", "TFLOP/s", "" for kNone.
const char* throughput_unit(Throughput throughput);

struct FleetGpu {
  std::string name;    // "NVIDIA H200"
  std::string slug;    // "nvidia-h200"
  // For headers and charts: the model alone ("H100" for "NVIDIA H100 80GB HBM3", "T4" for "Tesla T4")
  // where that tells the report's GPUs apart, else the name without "NVIDIA " ("H100 PCIe", "H100 80GB
  // HBM3"), else the slug.
  std::string label;
  std::string source;  // what the numbers are (GpuMeasurements::source)
};

// One benchmark on one GPU; empty optionals where it was not measured or the figure does not apply.
struct FleetCell {
  std::optional<double> time;            // typical process [FleetCell::unit]
  std::string unit;                      // "us" or "cycles": the measurement's own
  std::optional<double> throughput;      // [GB/s] or [TFLOP/s], as FleetRow::throughput says
  std::optional<double> pct_of_ceiling;  // throughput / the yardstick's on this GPU [percent]
  std::optional<double> speedup;         // the naive variant's time / this time on this GPU [x]
};

struct FleetRow {
  std::string name;     // "reduction/reduce9_shfl_down_last_warp/n:33554432"
  std::string family;   // "reduction"
  std::string variant;  // "reduce9_shfl_down_last_warp"
  std::string shape;    // "n:33554432"
  std::string unit;     // the listing's unit ("us" or "cycles"); for unlisted rows the first measurement's
  Throughput throughput = Throughput::kNone;
  std::string compared_with;  // the yardstick's benchmark name; "" when none
  std::string speedup_over;   // the naive variant's benchmark name; "" when none
  std::vector<FleetCell> cells;  // one per FleetReport::gpus, in order
  // time on gpus[0] / time on gpus[i + 1]: above 1, faster on that other GPU; empty optional when either is
  // missing or the units differ.
  std::vector<std::optional<double>> time_ratios;
};

struct FleetFamily {
  std::string name;
  std::vector<FleetRow> rows;  // registry order; rows measured on no GPU are left out
  // The family's chart: the shape of its largest measured case with a throughput (most bytes, then most
  // flops; the first in registry order among equals), and that case's throughput kind. Empty shape when no
  // row has a throughput on any GPU.
  std::string chart_shape;
  Throughput chart_throughput = Throughput::kNone;
};

struct FleetReport {
  std::vector<FleetGpu> gpus;        // in the order given; the first is the ratios' numerator
  std::vector<FleetFamily> families; // in registry order of their first case
  // Benchmarks measured on some GPU but absent from the listing (a stale listing, a renamed case):
  // by name, with time and throughput, no % of ceiling or speedup (their yardsticks are unknown).
  std::vector<FleetRow> unlisted;
  int unmeasured_cases = 0;  // perf cases of the listing that no GPU given measured (not shown)
};

// The throughput a case is read in: its yardstick's terms where it has one that both count (TFLOP/s
// against a flop-counted one such as cuBLAS, GB/s against a memory ceiling), else by its arithmetic
// intensity (kComputeBoundFlopsPerByte); kNone for cycle counts and for cases that count neither. The
// report passes the counts the inputs measured (the first GPU's that are not zero), else the listing's.
Throughput throughput_of(const std::string& unit, double bytes, double flops, const formats::ListedCase* yardstick);

// The GPUs' labels (FleetGpu::label), in the order of `gpus`.
std::vector<std::string> gpu_labels(const std::vector<GpuMeasurements>& gpus);

FleetReport build_fleet_report(const formats::CaseListing& listing, const std::vector<GpuMeasurements>& gpus);

}  // namespace gpuperf::gate
