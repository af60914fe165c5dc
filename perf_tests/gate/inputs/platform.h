#pragma once
// What a run measured on besides the GPU model: driver, CUDA runtime, compute capability, SM count,
// memory and clocks. A change of any of them can move many benchmarks at once with no change of code, so
// every report names it; the verdicts stay as judged. Pure functions: tests/test_platform.cpp.

#include <optional>
#include <string>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate {

// GPU Boost moves the SM clock between runs of one idle GPU in steps of about 15 MHz (0.8% of an H200's
// 1980 MHz) with temperature and power: a median clock counts as changed only beyond this, about two
// such steps. Not measured here; a clock locked lower (nvidia-smi -lgc) or a different memory clock
// moves far more [percent]
inline constexpr double kClockChangeThresholdPct = 2.0;

// The clock of one side's samples.
struct ClockReading {
  double median_mhz = 0.0;           // over every valid sample that reported it [MHz]; 0: none did
  double lowest_process_mhz = 0.0;   // the lowest and highest process median [MHz]: more than the
  double highest_process_mhz = 0.0;  // threshold apart, the processes ran at different clocks
  bool known() const { return median_mhz > 0.0; }
};

// One side of a comparison: a baseline, or the processes of one set of results (A/B: A or B). A text
// field lists the distinct values its processes reported, in the order first seen: none when no process
// said, two or more when they disagree (processes pooled from several platforms).
struct PlatformSide {
  std::vector<std::string> driver;              // "580.159.04" (NVML); "CUDA 13.0" without NVML
  std::vector<std::string> cuda_runtime;        // "13.0"
  std::vector<std::string> compute_capability;  // "9.0"
  std::vector<std::string> sm_count;            // "132"; a MIG slice shows fewer SMs and less memory
  std::vector<std::string> memory_mib;          // [MiB]
  ClockReading sm_clock;
  ClockReading mem_clock;
};

PlatformSide platform_of(const Baseline& baseline);
// Each file is one process; a process that does not name a field adds nothing to it.
PlatformSide platform_of(const std::vector<ResultsFile>& processes);

struct PlatformChange {
  enum class Kind {
    kChanged,  // both sides say, and differ (a clock: beyond the threshold)
    kMixed,    // a side's processes disagree among themselves
    kUnknown,  // a side does not say, or the two say it in forms that do not compare: not a change
  };
  std::string field;  // as in the baseline: "driver", "cuda_runtime", ..., "sm_clock_mhz", "mem_clock_mhz"
  std::string label;  // for people: "driver", "CUDA runtime", ..., "SM clock", "memory clock"
  Kind kind = Kind::kChanged;
  // What each side says: one value, several joined by ", " (mixed text), "lowest-highest" (mixed
  // clocks [MHz]); empty where the side does not say.
  std::string before;
  std::string now;
  bool before_mixed = false;  // kMixed: which side's processes disagree (one side or both)
  bool now_mixed = false;
  std::optional<double> change_pct;  // clocks: the median now / before - 1 [percent]
};

// Every field that is not the same on both sides, in the order of PlatformSide's fields. A driver
// version from NVML and one from the CUDA driver API ("CUDA 13.0", where NVML was missing) do not
// compare: unknown.
std::vector<PlatformChange> platform_changes(const PlatformSide& before, const PlatformSide& now,
                                             double clock_threshold_pct = kClockChangeThresholdPct);

// Whether any of `changes` is a change or a mix (unknown fields are not).
bool platform_changed(const std::vector<PlatformChange>& changes);

// "driver 580.159.04 -> 590.44.01", "SM clock 1980 -> 1782 MHz (-10.0%)",
// "driver 580.159.04 -> mixed (580.159.04, 590.44.01)"; an unknown field: its label.
std::string describe_change(const PlatformChange& change);
// The changes and mixes of `changes`, described and joined by ", "; empty when there are none.
std::string describe_changes(const std::vector<PlatformChange>& changes);

// When the platform changed, whether benchmarks moved with it: at least kMovedTogetherFraction of the
// judged ones (SAME, SLOW, FAST, AMBIGUOUS) were decided SLOW or FAST, and at least kMinMovedTogether.
// Then the reports suggest re-recording once the move is confirmed to be the platform's. Why a quarter:
// a pull request usually changes one variant, 2-3 shapes of a family of 3-20 (nvidia-h200.json: 108
// benchmarks, 42 variants, 9 families, and a perf test judges one family), about a tenth; a driver or
// clock change reaches every kernel bound by what changed, and an SM clock change leaves memory-bound
// kernels alone, so "most" (a median change beyond the tolerance) would miss it. SLOW and FAST only:
// they are decided beyond the tolerance, AMBIGUOUS ones may be noise. At least two: one benchmark's move
// is what a code change looks like, and re-recording would hide it.
inline constexpr double kMovedTogetherFraction = 0.25;
inline constexpr int kMinMovedTogether = 2;
bool moved_together(int moved, int judged);

}  // namespace gpuperf::gate
