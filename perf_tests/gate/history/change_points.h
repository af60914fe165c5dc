#pragma once
// Where a benchmark's history changed level: the change points of a series of values (oldest first).
//
// The per-pull-request gate judges one change against the baseline with a 2-4% tolerance and forgets it,
// so five merged changes of 1.5% each pass one by one; change points over the kept history find them.
//
// Method: E-Divisive means (Matteson & James 2014, "A nonparametric approach for multiple change point
// analysis of multivariate data", JASA 109(505)), as mongodb/signal-processing-algorithms implements it
// (energy_statistics.py: e_divisive, _get_next_significant_change_point) and Apache Otava (formerly
// datastax-labs/hunter) uses, then Otava's merge step (otava/analysis.py: merge) for the minimum effect:
// 1. the values are compared as logarithms, so distances are relative changes;
// 2. each segment between the change points found so far proposes the split tau that maximises the
//    energy statistic Q(tau) = m n / (m + n) * (2 E|X - Y| - E|X - X'| - E|Y - Y'|), with at least
//    min_segment points on each side; the best proposal over all segments is tested by permutation:
//    every segment's points are shuffled within it, the best Q over all segments recomputed, and
//    p = (1 + #{permuted best Q >= observed}) / (1 + permutations); it is kept when p <= alpha, and the
//    search goes on in the new segments (bisection) until a proposal is not significant;
// 3. change points whose relative change between the medians of their adjacent segments is below
//    min_effect_pct are removed, the smallest first, recomputing the neighbours' segments each time
//    (one removal merges two segments): a significant but irrelevant shift, or noise the permutation
//    test let through, is not reported.
// Runners of a GPU model differ in level: find change points in without_runner_offsets(series).values
// (change_points_runners.h), or a stretch of runs on a slower runner is a change point too.
//
// Windows: the search of step 2 sees at most `window` points at a time (500), so that its cost grows with
// the runs, not with their square. A series of at most one window is searched whole, as above. A longer
// one is searched window by window from its first point: a window's change points are kept unless they lie
// in its last quarter, and the next window starts at the last one kept (or half a window on, when none
// was), so every change is judged with points on both sides and a window starts on one level. Steps 1 and
// 3 and the ranges below are over the whole series. A window's permutations draw from a seed of their own
// (derived from its first point), so the change points of runs already followed by a window are the same
// at every later analysis: only the last windows change as runs are added.
// Cost: the statistic for every split of w points is O(w log w) (a rank tree gives each point's distances
// to the left part; its distances to all points are computed once per segment), per permutation; the
// permutation test stops as soon as its p-value can no longer reach alpha, so a last, non-significant
// test usually costs a few permutations. 108 benchmarks x 10,000 runs: tests/history/
// test_change_points_scale.cpp. O(n) memory. Deterministic: the shuffles draw from SplitMix64(seed).
//
// A change point's range good_index..bad_index is widened to hold the change: over the points next to it
// that are not yet at the level they are next to (a ramp's steps, or a split found a point early or late);
// over the splits nearly as likely as the one found under a step model in the segments' noise (in noise
// near the step's size the split found is often a point or two off); and over the whole segment next to
// it when that segment is only min_segment points long (the split was held at that bound: a step in the
// last runs of the series has a range that runs to the last run until min_segment runs follow it).
// Bisecting from points[good_index].commit to points[bad_index].commit then finds the commit: simulated
// steps of 2-5% are covered in 96-98% of series at a process sd of 0.44% (the range: the step's two
// commits) and 90-97% at 1.5% (median range 5, 2 and 1 commits for steps of 2, 3 and 5%;
// tests/history/test_history_simulation.cpp). A ramp (e.g. +1% per commit over 5 commits) is reported as
// ONE change point where Q peaks, near the ramp's middle, and its range holds at least one commit of the
// ramp (98-100% of simulated series), so bisecting it finds one of them, but covers every commit of it
// only where each step stands out of the noise: +1% a commit over 5 in 81% of series at a process sd of
// 0.44% and 7% at 1.5%; +0.3% a commit over 10 in 21% and 1%. Where a bisected commit explains only part
// of the change, the rest of the ramp lies next to it. A ramp longer than 2 * min_segment points may also
// be split into several change points, each with its own range.
//
// The p-value is the permutation test's when the change point was found (within the segment it split);
// the minimum effect, not the p-value, is re-judged after neighbours are removed.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuperf::gate::history {

struct ChangePointOptions {
  std::size_t min_segment = 5;   // the fewest points on either side of a change [points]
  double alpha = 0.01;           // significance level of the permutation test
  int permutations = 199;        // permutations per test; p can reach alpha only if 1 / (permutations + 1) <= alpha
  double min_effect_pct = 1.0;   // the smallest relative change between adjacent segments' medians reported [%]
  std::uint64_t seed = 0x5EEDC0DEull;  // of the permutations: the same input and seed give the same answer
  std::size_t window = 500;      // the most points one search sees (see "Windows" above) [points]
};

struct ChangePoint {
  std::size_t index = 0;   // the first point after the change: good = points[index - 1], bad = points[index]
  double before = 0.0;     // the median of the segment before [the values' unit]
  double after = 0.0;      // the median of the segment after [the values' unit]
  double change_pct = 0.0; // 100 * (after / before - 1) [%]; > 0: the values grew (a time: slower)
  double p_value = 1.0;    // of the permutation test that found it
  // The range the change built up over: points[good_index] is the last point at the `before` level,
  // points[bad_index] the first at the `after` level. A step: index - 1 and index; a ramp: wider.
  std::size_t good_index = 0;
  std::size_t bad_index = 0;
};

// The change points of `values` (oldest first), by index. Fewer than 2 * min_segment values: none.
// Throws formats::InputError when values is empty or holds a value that is not finite and positive, or
// when the options cannot work (min_segment below 2, alpha outside (0, 1), too few permutations for alpha,
// a window under 4 x min_segment).
std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options);

}  // namespace gpuperf::gate::history
