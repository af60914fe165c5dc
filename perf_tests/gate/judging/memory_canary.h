#pragma once
// The memory canary: whether this machine streams memory measurably slower or faster than the machine
// that recorded the baseline. The ceiling family (copy, read, memset of 1 GiB) is timed in every perf
// test's first processes (scripts/perf_test.sh); its change against the baseline tells an infrastructure
// shift (another runner, memory clocks, ECC, a neighbour on the host) from a code regression beside the
// verdicts of memory-bound benchmarks. Informational: it never changes a verdict or an exit code.
// Pure functions: tests/test_canary.cpp.

#include <string>
#include <vector>

#include "gate/inputs/baseline.h"
#include "gate/inputs/results.h"

namespace gpuperf::gate {

// The family whose benchmarks are the canary: nothing but streaming through device memory.
inline constexpr const char* kCanaryFamily = "ceiling";

// The canary has moved when every ceiling benchmark's interval lies wholly beyond this, in one direction.
// Why 1%: on one H100 or H200 a ceiling benchmark's process medians have a standard deviation of about
// 0.1% (0.03-0.08% in both baselines' 10 processes), so the interval of 3 processes against 10 is a few
// tenths of a percent wide; between machines of one model memory-bound medians differed by up to ~1.5%
// (docs/results.md, baselines/README.md). A shift beyond 1% in all three at once is what a machine
// change looks like, not what a process's offset does [percent]
inline constexpr double kCanaryShiftPct = 1.0;

// Which benchmarks a moved canary may explain: a time benchmark that moves bytes and does less than this
// much arithmetic per byte. The registry's compared_with (which ceiling a case is measured against) is
// not in the results, so this is the proxy. Why 1 flop/byte: below any GPU's ridge point (an H200 does
// about 14 fp32 flops per byte of bandwidth), and it splits our registry cleanly: fusion's elementwise
// kernels and occupancy's sweeps count 0.17-0.25 flop/byte and are compared with the copy ceiling, while
// matmul (166+) and the wave sweep (8000+) are bound by arithmetic. Latency- and atomics-bound kernels
// with no flops pass too: the note beside them says "may" [flops per byte]
inline constexpr double kMemoryBoundMaxFlopsPerByte = 1.0;

enum class CanaryShift { kNone, kSlower, kFaster };

// One ceiling benchmark, compared like a verdict: the current processes' medians against the baseline's.
struct CanaryBenchmark {
  std::string name;          // "ceiling/device_copy/n:268435456"
  double change_pct = 0.0;   // typical process now / before - 1 [percent]; + is slower
  double ci_low_pct = 0.0;   // its interval at the run's per-look level [percent]
  double ci_high_pct = 0.0;
};

// Why a ceiling benchmark was left out of the canary.
enum class CanaryLeftOutReason {
  kNotInBaseline,
  kNotInResults,
  kReportedError,
  kSkipped,
  kUnitDiffers,       // from the baseline's
  kTooFewSamples,     // no process with kMinSamples valid samples
  kOneProcessEachSide,
};

struct CanaryLeftOut {
  std::string name;  // "ceiling/memset/n:268435456"
  CanaryLeftOutReason reason = CanaryLeftOutReason::kNotInResults;
};

// Why there is no canary at all (Canary::benchmarks empty).
enum class NoCanaryReason {
  kNoneInResults,   // the results hold no ceiling benchmark
  kNoneInBaseline,  // the baseline holds none
  kNoneCompares,    // both hold some, but each was left out (left_out says why)
};

// What the canary found, as data; the reports word it (reports/canary_words.h).
struct Canary {
  std::vector<CanaryBenchmark> benchmarks;  // by name; empty: no canary (no_canary says why)
  std::vector<CanaryLeftOut> left_out;      // in name order
  double change_pct = 0.0;                  // the median of the benchmarks' change_pct [percent]
  CanaryShift shift = CanaryShift::kNone;
  double threshold_pct = kCanaryShiftPct;   // the shift it was judged against [percent]
  NoCanaryReason no_canary = NoCanaryReason::kNoneInResults;  // read only where benchmarks is empty

  bool measured() const { return !benchmarks.empty(); }
  bool moved() const { return shift != CanaryShift::kNone; }
};

// Slower when every interval lies wholly above +threshold, faster when every one lies wholly below
// -threshold; none otherwise (mixed directions, one straddling, or no benchmark).
CanaryShift canary_shift(const std::vector<CanaryBenchmark>& benchmarks, double threshold_pct = kCanaryShiftPct);

// Every benchmark of kCanaryFamily in both `results` (each file one process; whatever family the run
// judges) and `baseline`, compared with compare_process_medians at `confidence` (the run's per-look
// interval level). One present in one side only, or not judgeable there, is left out and listed.
Canary memory_canary(const Baseline& baseline, const std::vector<ResultsFile>& results, double confidence,
                     double threshold_pct = kCanaryShiftPct);

// Whether a benchmark with these fields is one a moved canary may explain (kMemoryBoundMaxFlopsPerByte).
bool memory_bound(const std::string& unit, double bytes, double flops);

}  // namespace gpuperf::gate
