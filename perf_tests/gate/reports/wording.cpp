#include "gate/reports/wording.h"

#include <algorithm>
#include <cmath>

#include "formats/escape.h"
#include "gate/judging/outcome.h"
#include "gate/judging/stored_mode.h"
#include "gate/reports/numbers.h"
#include "gate/reports/row_words.h"

namespace gpuperf::gate {
namespace {

// What a side is called in the reports' words: the baseline and the results, or builds A and B.
struct SideNames {
  const char* before;
  const char* now;
};
SideNames side_names(const std::string& mode) {
  return mode == "ab" ? SideNames{"A", "B"} : SideNames{"the baseline", "the results"};
}

// "SM clock, memory clock (not in the baseline); driver (580.159.04 vs CUDA 13.0: ...)"
std::string not_compared_text(const std::vector<PlatformChange>& changes, const SideNames& sides) {
  struct Group {
    std::string why;
    std::string labels;
  };
  std::vector<Group> groups = {{std::string("not in ") + sides.before, ""},
                               {std::string("not in ") + sides.now, ""},
                               {"in neither", ""}};
  std::string incomparable;
  for (const PlatformChange& c : changes) {
    if (c.kind != PlatformChange::Kind::kUnknown) continue;
    if (!c.before.empty() && !c.now.empty()) {
      incomparable += (incomparable.empty() ? "" : "; ") + c.label + " (" + c.before + " vs " + c.now +
                      ": one from NVML, one from the CUDA driver API)";
      continue;
    }
    Group& group = groups[c.before.empty() ? (c.now.empty() ? 2 : 0) : 1];
    group.labels += (group.labels.empty() ? "" : ", ") + c.label;
  }
  std::string text;
  for (const Group& group : groups) {
    if (!group.labels.empty()) text += (text.empty() ? "" : "; ") + group.labels + " (" + group.why + ")";
  }
  if (!incomparable.empty()) text += (text.empty() ? "" : "; ") + incomparable;
  return text;
}

bool any_mixed(const std::vector<PlatformChange>& changes) {
  return std::any_of(changes.begin(), changes.end(),
                     [](const PlatformChange& c) { return c.kind == PlatformChange::Kind::kMixed; });
}

constexpr const char* kOnePlatformOnly = "pass results measured on one platform only";

}  // namespace

std::string format_noise(const BenchmarkComparison& row, const std::string& mode) {
  if (!row.judged()) return "";
  char text[128];
  if (mode == "ab") {
    std::snprintf(text, sizeof text, "pair sd %.2f%%, %d pairs", row.process_sd_pct, row.pairs);
  } else {
    std::snprintf(text, sizeof text, "process sd %.2f%%, %d process%s vs %d recorded", row.process_sd_pct,
                  row.current_processes, row.current_processes == 1 ? "" : "es", row.baseline_processes);
  }
  return text;
}

std::string format_error_control(const ErrorBudget& budget) {
  // The coverage claimed is kIntervalConfidence over all looks; a look's own level is only how its
  // interval is built (outliers keep one look's coverage a little under that level in the simulation).
  char intervals[100];
  if (budget.looks == 1) {
    std::snprintf(intervals, sizeof intervals, "intervals %g%%", 100.0 * kIntervalConfidence);
  } else {
    std::snprintf(intervals, sizeof intervals, "intervals %g%% over all looks, each built at %.4g%%",
                  100.0 * kIntervalConfidence, 100.0 * budget.interval_confidence());
  }
  char text[300];
  std::snprintf(text, sizeof text,
                "family-wise false-alarm rate %g%% per run (%d benchmarks x %d look%s: each test at p < %.2g; %s)",
                100.0 * budget.run_alpha, budget.benchmarks, budget.looks, budget.looks == 1 ? "" : "s",
                budget.test_alpha(), intervals);
  return text;
}

std::string markdown_cell(const std::string& text) { return formats::escape_markdown_text(text); }

std::optional<RunNotice> platform_warning(const Comparison& comparison) {
  if (!platform_changed(comparison.platform)) return std::nullopt;
  const bool ab = comparison.mode == "ab";
  RunNotice notice;
  notice.summary = ab ? "platform differs between A and B: " : "platform changed since the baseline: ";
  notice.summary += describe_changes(comparison.platform);
  const std::string not_compared = not_compared_text(comparison.platform, side_names(comparison.mode));
  if (!not_compared.empty()) notice.summary += "; not compared: " + not_compared;
  notice.summary += "; verdicts are judged as usual";
  notice.action = "a change may be the platform's, not the code's: ";
  if (any_mixed(comparison.platform)) {
    notice.action += std::string("the processes ran on different platforms: ") + kOnePlatformOnly;
  } else if (ab) {
    notice.action += "run A and B interleaved on one GPU and driver (scripts/ab_compare.sh)";
  } else {
    notice.action += "to tell, compare the baseline's commit with this one on this GPU (scripts/ab_compare.sh)";
  }
  return notice;
}

std::optional<RunNotice> moved_with_platform(const Comparison& comparison) {
  if (!platform_changed(comparison.platform)) return std::nullopt;
  const VerdictCounts counts = count_verdicts(comparison);
  const int slow = counts[static_cast<int>(Verdict::kSlow)];
  const int fast = counts[static_cast<int>(Verdict::kFast)];
  const int judged = static_cast<int>(std::count_if(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                                                    [](const BenchmarkComparison& row) { return row.judged(); }));
  if (!moved_together(slow + fast, judged)) return std::nullopt;
  RunNotice notice;
  std::string verdicts;
  if (slow > 0) verdicts = std::to_string(slow) + " SLOW";
  if (fast > 0) verdicts += (verdicts.empty() ? "" : ", ") + std::to_string(fast) + " FAST";
  notice.summary = std::to_string(slow + fast) + " of " + std::to_string(judged) +
                   " judged benchmarks moved beyond their tolerance with the platform (" + verdicts + ")";
  if (any_mixed(comparison.platform)) {
    notice.action = std::string(kOnePlatformOnly) + ", then judge again";
  } else if (comparison.mode == "ab") {
    notice.action =
        "A/B needs one platform for both builds: re-run A and B interleaved on one GPU (scripts/ab_compare.sh)";
  } else {
    notice.action = std::string("if the platform moved them (scripts/ab_compare.sh finds the baseline's commit and "
                                "this one alike on this GPU), re-record the baseline on this platform: ") +
                    kUpdateBaselineCommand;
  }
  return notice;
}

std::optional<RunNotice> method_change_notice(const Comparison& comparison) {
  if (!comparison.method_change) return std::nullopt;
  RunNotice notice;
  notice.summary = "the baseline was measured with method " + std::to_string(comparison.method_change->baseline) +
                   ", these results with method " + std::to_string(comparison.method_change->results) +
                   " (perf_tests/formats/measuring_method.h)";
  notice.action = std::string("same-code benchmarks beyond tolerance are PLATFORM; re-record the baseline: ") +
                  kUpdateBaselineCommand;
  return notice;
}

namespace {

std::string benchmarks_counted(int count) { return std::to_string(count) + " benchmark" + (count == 1 ? "" : "s"); }

// "; runner GPU-x: 9 of the 10 runs of the baseline's code its own level needs, for 108 benchmarks (judged
// against the baseline); drifting in 3 (judged as another machine)": the header's word on a runner in the
// history whose history judged none or not all of its benchmarks. "" when there is none.
std::string runner_not_judging(const Comparison& comparison) {
  int young = 0;
  int most_runs = 0;
  int drifting = 0;
  for (const BenchmarkComparison& row : comparison.benchmarks) {
    if (!row.runner_too_young_or_drifting) continue;
    if (row.runner_too_young_or_drifting->trend == RunnerTrend::kDrifting) {
      ++drifting;
    } else {
      ++young;
      most_runs = std::max(most_runs, row.runner_too_young_or_drifting->history_runs);
    }
  }
  std::string text;
  if (young > 0) {
    text += std::to_string(most_runs) + (young > 1 && most_runs > 0 ? " or fewer" : "") + " of the " +
            std::to_string(kMinRunnerHistoryRuns) + " runs of the baseline's code its own level needs, for " +
            benchmarks_counted(young) + " (judged against the baseline)";
  }
  if (drifting > 0) {
    text += std::string(text.empty() ? "" : "; ") + "drifting in " + benchmarks_counted(drifting) +
            " (judged against the baseline, as another machine)";
  }
  return text.empty() ? "" : "; runner " + comparison.against.gpu_uuid + ": " + text;
}

}  // namespace

std::string against_text(const Comparison& comparison) {
  const ComparedWith& against = comparison.against;
  if (comparison.mode == "ab") return "build A (" + std::to_string(against.ab_runs) + " runs interleaved with B)";
  std::string text = "baseline recorded " + against.baseline_recorded + " at commit " + against.baseline_commit;
  // Said only where it judged something, so that header and JSON agree with the rows' tolerances.
  const auto by_runner = std::count_if(comparison.benchmarks.begin(), comparison.benchmarks.end(),
                                       [](const BenchmarkComparison& row) { return row.runner.has_value(); });
  if (by_runner > 0) {
    text += "; " + benchmarks_counted(static_cast<int>(by_runner)) + " against this runner's (" + against.gpu_uuid +
            ") own history of the baseline's code, at the same-GPU tolerance";
  }
  text += runner_not_judging(comparison);
  if (against.same_gpu_tolerance_pct) {
    text += " on this GPU (" + against.gpu_uuid + "), same-GPU default tolerance " +
            format_pct(*against.same_gpu_tolerance_pct);
  }
  if (!against.runner_history_of_baseline.empty()) {
    text += "; runner history not used: it holds the code of the baseline recorded " +
            against.runner_history_of_baseline + " (write it again: perf_gate history-offsets)";
  }
  return text;
}

std::string outcome_text(const Comparison& comparison) {
  switch (outcome_of(comparison)) {
    case Outcome::kInvalid:
      return "INVALID: a benchmark reported an error";
    case Outcome::kRegression:
      return "FAIL: regression";
    case Outcome::kPlatformMoved:
      return "FAIL: the platform moved (--fail-on-platform)";
    case Outcome::kMissing:
      return "FAIL: benchmarks missing (--strict)";
    case Outcome::kSomeNotJudged:
      return "NOT JUDGED: some benchmarks could not be judged";
    case Outcome::kNothingJudged:
      return "NOT JUDGED: no benchmark was judged";
    case Outcome::kPass:
      break;
  }
  return "PASS";
}

std::string counts_text(const VerdictCounts& counts) {
  std::string text;
  for (int v = 0; v < kVerdictCount; ++v) {
    if (counts[v] == 0) continue;
    if (!text.empty()) text += ", ";
    text += std::to_string(counts[v]) + " " + verdict_name(static_cast<Verdict>(v));
  }
  return text.empty() ? "no benchmarks" : text;
}

std::string action_hint(const BenchmarkComparison& row, const std::string& mode) {
  const std::string refresh = std::string("refresh the baseline: ") + kUpdateBaselineCommand;
  const bool ab = mode == "ab";
  switch (row.verdict) {
    case Verdict::kError:
      return "the benchmark failed inside the perf binary (" + reason_text(row.reason, mode) +
             "): run its correctness test";
    case Verdict::kSlow:
      return ab ? "fix the slowdown in build B, or if intended say so in the review (A/B keeps no baseline)"
                : "fix the slowdown, or if intended " + refresh;
    case Verdict::kPlatform:
      return std::string("the baseline's own code runs ") + format_number("%.1f", std::abs(row.ratio - 1.0) * 100.0) +
             "% " + (row.ratio >= 1.0 ? "slower" : "faster") +
             " here: the machine, driver or harness changed, not the code; re-record the baseline on this GPU model (" +
             kUpdateBaselineCommand + ") or check the runner";
    case Verdict::kMissing:
      return ab ? "not run by build B: removed or renamed on purpose?"
                : "not in the results: if removed or renamed on purpose, " + refresh;
    case Verdict::kNotJudged:
      if (row.reason.code == ReasonCode::kSkippedBySuite) {
        return reason_text(row.reason, mode) + " (not judged; nothing the GPU did)";
      }
      return reason_text(row.reason, mode) + ": re-run on an idle GPU";
    case Verdict::kAmbiguous:
      return "not decided yet: re-measure in more processes (--remeasure-list)";
    case Verdict::kFast:
      return ab ? "improvement in build B" : "improvement: to keep it, " + refresh;
    case Verdict::kNew:
      return ab ? "only in build B" : "not in the baseline: to gate it, " + refresh;
    case Verdict::kUnchanged:
      return "not re-timed: the baseline's code on the same GPU model, driver and CUDA runtime";
    case Verdict::kSame:
      return "";
  }
  return "";
}

}  // namespace gpuperf::gate
