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
// Cost: O(w^2) per segment of w points per permutation (no distance matrix is kept: O(n) memory); the
// permutation test stops as soon as its p-value can no longer reach alpha, so a last, non-significant
// test usually costs a few permutations. Deterministic: the shuffles draw from SplitMix64(seed).
//
// A ramp (e.g. +1% per commit over 5 commits) is reported as ONE change point where Q peaks, near the
// ramp's middle, whose good_index..bad_index span the ramp: the points next to the change that lie
// between the two levels (by more than the noise's sd) widen the range, so bisecting from
// points[good_index].commit to points[bad_index].commit covers every commit of the ramp. A ramp longer
// than 2 * min_segment points may also be split into several change points, each with its own range.
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
// when the options cannot work (min_segment 0, alpha outside (0, 1), too few permutations for alpha).
std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options);

}  // namespace gpuperf::gate::history
