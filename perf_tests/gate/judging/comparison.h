#pragma once
// The outcome of comparing a run with a baseline (or build B with build A): one row per benchmark, with
// every number a report shows. Filled by the comparators, read by the reports and by exit_code().

#include <optional>
#include <string>
#include <vector>

#include "gate/inputs/platform.h"
#include "gate/judging/code_change.h"
#include "gate/judging/memory_canary.h"
#include "gate/judging/row_reasons.h"
#include "gate/judging/tolerance.h"
#include "gate/judging/verdict.h"
#include "gate/statistics/error_budget.h"
#include "gate/statistics/runner_history.h"

namespace gpuperf::gate {

struct BenchmarkComparison {
  std::string name;
  Verdict verdict = Verdict::kSame;
  RowReason reason;              // why ERROR, NEW, MISSING, NOT_JUDGED, UNCHANGED; empty otherwise
  std::string unit;              // of the medians: "us" or "cycles"
  double baseline_median = 0.0;  // [unit]; 0 when there is no baseline side
  double current_median = 0.0;   // [unit]; 0 when there is no current side
  double ratio = 0.0;            // typical process now / before (A/B: geometric mean of the pair ratios)
  double ci_low = 0.0;           // confidence interval of ratio (Comparison::budget.interval_confidence())
  double ci_high = 0.0;
  double p_slower = 1.0;  // one-sided p of "now is slower"
  double p_faster = 1.0;
  double tolerance_pct = 0.0;    // the tolerance applied [percent]
  ToleranceSource tolerance_source;  // where tolerance_pct came from (worded by reports/row_words.h)
  int baseline_samples = 0;      // valid samples per side, all processes together
  int current_samples = 0;
  int baseline_processes = 0;    // processes whose medians were compared (A/B: A's runs in pairs)
  int current_processes = 0;
  double process_sd_pct = 0.0;   // the spread assumed: sd of log process medians (A/B: of pair ratios) [percent]
  double df = 0.0;               // degrees of freedom of that spread
  RowNotes notes;                // what limits or qualifies the evidence (few baseline processes, a runner offset)
  int throttled = 0;                   // samples discarded on the current side
  int repetitions = 0;                 // samples seen on the current side, discarded ones included
  int pairs = 0;                       // A/B: pairs of runs compared (0: unpaired samples)
  double bytes = 0.0;                  // per run [bytes]
  double flops = 0.0;                  // per run [floating-point operations]
  double injected_slowdown_pct = 0.0;  // fault injection during the run (informational) [percent]
  // When the memory canary moved and this benchmark is memory-bound (judging/memory_canary.h): the canary's change, which
  // the reports note beside the verdict (informational) [percent; + is slower]
  std::optional<double> machine_memory_change_pct;
  // What changed in the code the benchmark ran, against the baseline's (A/B: build A's), from both sides'
  // fingerprints (judging/code_check.h); nullopt when neither side holds any fingerprint. Informational.
  std::optional<CodeChange> code;
  // Stored mode: judged against this runner's own history of the baseline's code (statistics/
  // runner_history.h), whose level sits this far from the baseline; the ratio and interval are then against
  // that level. nullopt: judged against the baseline itself.
  std::optional<RunnerLevel> runner;
  // Stored mode, where the results' runner is in the runner history but its history did not judge this
  // benchmark: how many runs it holds (history_runs, fewer than kMinRunnerHistoryRuns) or how it drifts.
  std::optional<RunnerLevel> runner_too_young_or_drifting;

  bool judged() const { return ratio > 0.0; }  // a ratio and interval were computed
};

// Stored mode: the baseline and the results were measured with different versions of the timing method
// (formats/measuring_method.h), so a same-code change in time may be the method's (judging/same_code_rule.h).
struct MethodChange {
  int baseline = 0;  // the baseline's recorded.measuring_method
  int results = 0;   // the results' measuring_method
};

// Why the comparison compared no benchmark's code.
enum class CodeNotChecked {
  kChecked,            // it compared them
  kSuiteCapturesNone,  // the results come from a suite that captures no fingerprints
  kNeitherSide,        // neither side holds fingerprints
  kNoneNow,            // the results (build B's) hold none
  kNoneBefore,         // the baseline (build A's results) holds none
};

// What a comparison was made against, as data for the reports' headers (reports/wording.h, against_text);
// how many rows a runner's history judged, or could not, the rows themselves say.
struct ComparedWith {
  std::string baseline_recorded;  // stored mode: the baseline's recorded.date; "" in A/B mode
  std::string baseline_commit;    // stored mode: its recorded.commit
  std::string gpu_uuid;           // the results' one GPU; "" when they name none or several
  // Stored mode, where the results' GPU recorded the baseline and the baseline has a same-GPU default: that
  // default [percent], said where a row was judged with it.
  std::optional<double> same_gpu_tolerance_pct;
  // Stored mode, where a runner history of another recording of the baseline was given: the date of the
  // baseline whose code it holds ("" otherwise): it was not used.
  std::string runner_history_of_baseline;
  int ab_runs = 0;  // A/B mode: runs of each build, interleaved
};

struct Comparison {
  std::string mode;      // "compare" or "ab"
  std::string gpu_name;  // "NVIDIA H200"
  std::string gpu_slug;  // "nvidia-h200"
  ComparedWith against;  // what the run was compared with (the reports' headers word it)
  ErrorBudget budget;  // the run's false-alarm budget and how it was split
  bool strict = false;                          // MISSING fails
  bool fail_on_platform = false;                // PLATFORM fails (--fail-on-platform)
  std::vector<BenchmarkComparison> benchmarks;  // most severe first (Verdict order), then by name
  // How the platform (driver, clocks, ...) differs between the sides: baseline -> results, or A -> B.
  // Informational: it never changes a verdict.
  std::vector<PlatformChange> platform;
  // Stored mode: the ceiling family's change against the baseline (judging/memory_canary.h), or why there is none;
  // absent in A/B mode (both builds run on one machine, interleaved) and where the selection takes in the
  // ceiling family without any ceiling benchmark compared (its own rows say why). Informational: it never
  // changes a verdict or the exit code.
  std::optional<Canary> canary;
  // Why no benchmark's code could be compared (no side, or one side, holds fingerprints); kChecked when it
  // could. The reports word it (reports/code_lines.h, code_not_checked_text).
  CodeNotChecked code_not_checked = CodeNotChecked::kChecked;
  // kSuiteCapturesNone: what the results come from ("a Google Benchmark suite", inputs/results.h).
  std::string suite_without_fingerprints;
  // Stored mode: set when the baseline's measuring method differs from the results' (both recorded, i.e.
  // non-zero); every report's header says so once. nullopt: the same method, or a team suite's results.
  std::optional<MethodChange> method_change;
};

// Orders rows most severe first, then by name.
void sort_by_severity(std::vector<BenchmarkComparison>& rows);

}  // namespace gpuperf::gate
