#pragma once
// What the per-process medians of a benchmark say about its change. The process is the unit of
// replication: each process lands at its own offset (on H200s a standard deviation of 0.1-0.7% for most
// benchmarks, up to 3.4% for atomics-bound ones), while the samples inside one process vary far less and
// cannot show it. So a benchmark's evidence is its process medians, taken on a log scale (a ratio is a
// difference there, and offsets are multiplicative), and judged with Student's t on as many degrees of
// freedom as there are processes to estimate the spread from: with 3 processes the interval is as wide
// as 3 processes allow, never as narrow as 90 pooled samples would pretend.

#include <vector>

namespace gpuperf::gate {

// A process median further than this many robust standard deviations (1.4826 x the median absolute
// deviation) from its group's median is an outlier and left out: one process in 50 lands 5-30% slow
// (interference), and a single one among 10 recording processes would otherwise widen that benchmark's
// interval for as long as the baseline lives. A normal value is beyond 5 true sds once in 1.7 million,
// but the robust sd of a small group is itself noisy: with 8, 12, 24 values some normal value is cut in
// 4.7%, 2.8%, 1.0% of groups (simulated), and each cut shrinks the sd the t interval uses.
inline constexpr double kOutlierCutoffSd = 5.0;
// Groups smaller than this keep every value: in a small group two outliers can be the majority, and
// the normal value would be the one cut (simulated: 3 processes gave 0.1% false alarms per benchmark).
// The baseline's 10 processes qualify; a few current processes rely on their spread widening the
// interval instead.
inline constexpr int kMinProcessesForOutliers = 8;
// A/B pairs keep every value below this many. Their robust sd comes from the pairs alone (stored mode
// pools the baseline's 10 processes with the current ones), and dropping from 8 pairs made clean A/B runs
// fail 1.2% and 2.1% of the time at process sd 2% and 3% (10,000 simulated runs each): the cut normal
// pairs shrank the sd to a fraction of the true one, t reached 8-15. From 24 pairs (the 4th look of 6)
// 0.3% and 0.7% failed, detection within 1.5 points of before; the price is more rounds where an early
// outlier pair waits to be dropped (7.3 -> 9.9 pairs per benchmark at sd 0.1%).
inline constexpr int kMinPairsForOutliers = 24;

struct ProcessEvidence {
  bool judged = false;      // false: no spread can be estimated (one process on each side)
  double ratio = 0.0;       // geometric mean now / geometric mean before (A/B: of the pair ratios)
  double ci_low = 0.0;      // interval of the ratio at the requested confidence
  double ci_high = 0.0;
  double p_slower = 1.0;    // one-sided p of "now is slower" (H0: ratio <= 1)
  double p_faster = 1.0;    // one-sided p of "now is faster" (H0: ratio >= 1)
  double sd_pct = 0.0;      // process-to-process standard deviation assumed [percent, on the log scale]
  double df = 0.0;          // degrees of freedom of that estimate
  int outliers = 0;         // process medians (A/B: pair ratios) left out as outliers
  // Against a runner's history: the share of the estimate's variance that is the run's own level, which no
  // re-measurement shrinks (statistics/runner_history.h); 0 elsewhere.
  double run_level_share = 0.0;
  int history_runs = 0;     // against a runner's history: the runs its level was taken from
};

// Stored mode: two independent groups of process medians (all positive), one spread pooled from both
// (the processes of one GPU model share their noise); df = (n_before - 1) + (n_now - 1), counted after
// outliers are left out (the robust scale is pooled from both groups' deviations from their medians). `sd_floor` (log
// scale) stands for a timer's resolution, so that identical medians do not claim infinite certainty.
ProcessEvidence compare_process_medians(const std::vector<double>& before, const std::vector<double>& now,
                                        double confidence, double sd_floor);

// A/B mode: the ratios median(B_i) / median(A_i) of processes run side by side; df = pairs - 1, counted
// after outlier pairs are left out.
ProcessEvidence compare_paired_ratios(const std::vector<double>& ratios, double confidence, double sd_floor);

}  // namespace gpuperf::gate
