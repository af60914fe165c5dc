#pragma once
// The Nsight Compute diagnosis of a SLOW verdict as data: one entry per SLOW benchmark looked at (the
// kNcuDiagnosedBenchmarks slowest), each either diagnosed (the metric table of its profile before and
// after) or skipped with the reason as a code and its fields. The driver fills the entries
// (driver/ncu_diagnosis.h), reports/ncu_diagnosis_text.h words them; the diagnosis never changes a verdict.
// Pure functions: tests/ncu/test_ncu_diagnosis.cpp.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "gate/inputs/results.h"
#include "gate/judging/comparison.h"
#include "gate/ncu/profile.h"

namespace gpuperf::gate {

// How many SLOW benchmarks are profiled: each costs a profiling pass of its kernels (tens of replays per
// kernel for the metric set), and the slowest few say what a regression is about.
inline constexpr std::size_t kNcuDiagnosedBenchmarks = 3;

// Which profile a side of the diagnosis is: stored mode profiles the build now, A/B mode both builds.
enum class NcuSide { kNow, kBuildA, kBuildB };

// What the two profiles of a table are: the one stored beside the baseline and now, or build A and B.
enum class NcuPair { kBaselineNow, kBuildAB };

// Why a benchmark was not diagnosed. The fields of NcuSkipped each reason fills are listed beside it.
enum class NcuSkip {
  kNcuNotFound,            // path: the ncu looked for (a name looked up in PATH, or a path)
  kProfileScriptMissing,   // path: where ncu_profile.sh was looked for, ", "-separated
  kNoStoredProfiles,       // path: the stored profiles file that does not exist
  kNoStoredProfile,        // path: the stored profiles file; detail: the --filter that records the benchmark
  kNoFingerprint,          // side; path: the results without its fingerprint; detail: why unreadable, or ""
  kNoGpuNamed,             // side; path: the results; detail: what is wrong with them
  kNotProfiled,            // side; detail: ncu's or the bench's first error line, or why its rows were left out
  kNoDiagnosis,            // detail: why the two profiles could not be read or set side by side
};

struct NcuSkipped {
  NcuSkip reason = NcuSkip::kNcuNotFound;
  NcuSide side = NcuSide::kNow;
  std::string path;
  std::string detail;
};

bool operator==(const NcuSkipped& a, const NcuSkipped& b);

struct NcuDiagnosis {
  std::string benchmark;
  std::optional<NcuSkipped> skipped;  // set: not diagnosed, and why
  // Diagnosed: the table (diff_profiles) of the pair's first profile (before) against its second (after).
  NcuPair pair = NcuPair::kBaselineNow;
  std::vector<MetricDiff> rows;
  std::string profiles_path;  // the two profiles of the table, side by side: {"before", "after"} (JSON)

  bool diagnosed() const { return !skipped; }
};

// The SLOW benchmarks of `comparison`, largest change first (a stable sort: equal changes keep the
// comparison's order), at most `top`.
std::vector<std::string> slowest_slow(const Comparison& comparison, std::size_t top = kNcuDiagnosedBenchmarks);

// Whether ncu's rows of `benchmark` can be attributed and checked: its fingerprint in `results` was
// captured by CUPTI with at least one kernel (ncu/window_attribution.h counts the rows by it).
bool profilable(const ResultsFile& results, const std::string& benchmark);

// `benchmarks`, each skipped for `why`: a cause that stops every one of them.
std::vector<NcuDiagnosis> all_skipped(const std::vector<std::string>& benchmarks, const NcuSkipped& why);

}  // namespace gpuperf::gate
