#include "gate/history/change_points.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "formats/input_error.h"
#include "gate/statistics/statistics.h"

namespace gpuperf::gate::history {
namespace {

// A half-open range of point indices [begin, end).
struct Segment {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
};

// How much less likely (in log-likelihood) a split may be than the one found and still be in a change
// point's range (widen_to_likely_splits). Simulated (tests/history/test_history_simulation.cpp), a 2% step
// at a process sd of 1.5%: its range held it in 58% of series without this widening, 82% at 2 (median
// range 4 commits), 90% at 3 (5 commits), 93% at 4.6 (8 commits); at a process sd of 0.44% the range is
// the step's two commits at all three.
constexpr double kLocationSupport = 3.0;

struct Split {
  std::size_t tau = 0;  // the first point of the right part [point index]
  double q = -1.0;      // the energy statistic there; < 0: the segment cannot be split
};

void validate(const std::vector<double>& values, const ChangePointOptions& options) {
  if (values.empty()) {
    throw formats::InputError("change points: the series has no values - a series needs at least one point");
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i]) || values[i] <= 0.0) {
      throw formats::InputError("change points: value " + std::to_string(i) + " of the series is " +
                                std::to_string(values[i]) +
                                " - every value must be a finite, positive measurement (a time or a count)");
    }
  }
  if (options.min_segment < 2) {
    throw formats::InputError("change points: min_segment must be at least 2 points (got " +
                              std::to_string(options.min_segment) + ")");
  }
  if (!(options.alpha > 0.0 && options.alpha < 1.0)) {
    throw formats::InputError("change points: alpha must lie in (0, 1) (got " + std::to_string(options.alpha) + ")");
  }
  if (options.permutations < 1 || options.alpha * (options.permutations + 1) < 1.0) {
    throw formats::InputError("change points: " + std::to_string(options.permutations) +
                              " permutations cannot give a p-value <= alpha " + std::to_string(options.alpha) +
                              " - use at least 1 / alpha - 1 permutations");
  }
  if (options.window < 4 * options.min_segment) {
    throw formats::InputError("change points: window must be at least 4 x min_segment = " +
                              std::to_string(4 * options.min_segment) + " points (got " +
                              std::to_string(options.window) + ")");
  }
  if (!(options.min_effect_pct >= 0.0) || !std::isfinite(options.min_effect_pct)) {
    throw formats::InputError("change points: min_effect_pct must be a finite number >= 0");
  }
}

// A segment's points by rank, for best_split: rank[i] is point i's rank among the segment's values, and
// distance_by_rank[r] the sum of |x_r - x_j| over every other point j of the segment. Shuffling a segment
// moves each point's rank with its value and leaves distance_by_rank as it is: computed once per segment,
// kept through its permutations.
void rank_segment(const double* x, std::size_t w, std::uint32_t* rank, double* distance_by_rank) {
  std::vector<std::uint32_t> order(w);
  for (std::size_t i = 0; i < w; ++i) order[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [x](std::uint32_t a, std::uint32_t b) { return x[a] < x[b]; });
  double total = 0.0;
  for (std::size_t i = 0; i < w; ++i) total += x[i];
  double below = 0.0;  // the sum of the values of lower rank
  for (std::size_t r = 0; r < w; ++r) {
    const double v = x[order[r]];
    rank[order[r]] = static_cast<std::uint32_t>(r);
    const double above = total - below - v;
    distance_by_rank[r] = (static_cast<double>(r) * v - below) + (above - static_cast<double>(w - 1 - r) * v);
    below += v;
  }
}

// Counts and sums of values by rank (a Fenwick tree): the points that crossed to the left part so far.
class RankTree {
 public:
  void reset(std::size_t w) {
    count_.assign(w + 1, 0);
    sum_.assign(w + 1, 0.0);
  }
  void add(std::uint32_t rank, double value) {
    for (std::size_t i = rank + 1; i < count_.size(); i += i & (~i + 1)) {
      ++count_[i];
      sum_[i] += value;
    }
  }
  // How many of the points added have a rank below `rank`, and the sum of their values.
  void below(std::uint32_t rank, std::size_t& count, double& sum) const {
    count = 0;
    sum = 0.0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) {
      count += count_[i];
      sum += sum_[i];
    }
  }

 private:
  std::vector<std::size_t> count_;
  std::vector<double> sum_;
};

// The split of x[0, w) that maximises the energy statistic (Matteson & James 2014, eq. 5, with the
// U-statistic means of the paper: within-sample sums over C(m, 2) pairs), with at least min_segment
// points on each side. The sums are updated as the split moves right, one point crossing from the right
// part to the left, as mongodb/signal-processing-algorithms' e_divisive.c (t_stat_values) does; the
// crossing point's distances to the left part come from the rank tree in O(log w), and to the right part
// as its distance to every point less those: O(w log w) for the whole search, not O(w^2).
Split best_split(const double* x, const std::uint32_t* rank, const double* distance_by_rank, std::size_t w,
                 std::size_t min_segment, RankTree& tree) {
  Split best;
  if (w < 2 * min_segment) return best;
  tree.reset(w);
  double cross = 0.0;     // sum |x_i - x_j|, i left, j right
  double left = 0.0;      // sum |x_i - x_j|, i < j, both left
  double right = 0.0;     // sum |x_i - x_j|, i < j, both right
  double left_sum = 0.0;  // sum x_i, i left
  for (std::size_t i = 0; i < w; ++i) right += distance_by_rank[i];
  right /= 2.0;  // each pair counted from both ends
  for (std::size_t tau = 1; tau + min_segment <= w; ++tau) {
    const std::size_t k = tau - 1;  // the point that crosses to the left part
    std::size_t lower = 0;
    double lower_sum = 0.0;
    tree.below(rank[k], lower, lower_sum);
    const double to_left = (static_cast<double>(lower) * x[k] - lower_sum) +
                           ((left_sum - lower_sum) - static_cast<double>(k - lower) * x[k]);
    const double to_right = distance_by_rank[rank[k]] - to_left;
    cross += to_right - to_left;
    left += to_left;
    right -= to_right;
    tree.add(rank[k], x[k]);
    left_sum += x[k];
    if (tau < min_segment) continue;
    const double m = static_cast<double>(tau);
    const double n = static_cast<double>(w - tau);
    const double q = m * n / (m + n) *
                     (2.0 * cross / (m * n) - left / (m * (m - 1.0) / 2.0) - right / (n * (n - 1.0) / 2.0));
    if (q > best.q) best = Split{tau, q};
  }
  return best;
}

std::vector<Segment> segments_between(const std::vector<std::size_t>& cuts, std::size_t n) {
  std::vector<Segment> segments;
  std::size_t begin = 0;
  for (std::size_t cut : cuts) {
    segments.push_back({begin, cut});
    begin = cut;
  }
  segments.push_back({begin, n});
  return segments;
}

struct Found {
  std::size_t index;
  double p_value;
};

// Step 2 of the header: the sequential E-Divisive search with its permutation test, over x (one window).
std::vector<Found> significant_splits(const std::vector<double>& window, const ChangePointOptions& options,
                                      std::uint64_t seed) {
  // Centred: distances do not change, and the rank tree's sums lose no digits to the values' magnitude.
  std::vector<double> x(window.size());
  std::transform(window.begin(), window.end(), x.begin(), [&](double v) { return v - window.front(); });
  std::vector<Found> found;
  std::vector<std::size_t> cuts;
  std::vector<std::uint32_t> rank(x.size());
  std::vector<double> distance_by_rank(x.size());
  std::vector<double> shuffled(x.size());
  std::vector<std::uint32_t> shuffled_rank(x.size());
  RankTree tree;
  SplitMix64 rng(seed);
  // Not significant as soon as more than this many permutations reach the observed statistic.
  const int max_exceeding =
      static_cast<int>(std::floor(options.alpha * (options.permutations + 1) - 1.0 + 1e-9));
  for (;;) {
    const std::vector<Segment> segments = segments_between(cuts, x.size());
    Split best;
    std::size_t best_begin = 0;
    for (const Segment& s : segments) {
      if (s.size() < 2 * options.min_segment) continue;
      rank_segment(x.data() + s.begin, s.size(), rank.data() + s.begin, distance_by_rank.data() + s.begin);
      const Split split = best_split(x.data() + s.begin, rank.data() + s.begin, distance_by_rank.data() + s.begin,
                                     s.size(), options.min_segment, tree);
      if (split.q > best.q) {
        best = split;
        best_begin = s.begin;
      }
    }
    if (best.q < 0.0) break;  // no segment is long enough to split
    shuffled = x;
    shuffled_rank = rank;
    int exceeding = 0;
    int run = 0;
    for (; run < options.permutations && exceeding <= max_exceeding; ++run) {
      double permuted_best = -1.0;
      for (const Segment& s : segments) {
        if (s.size() < 2 * options.min_segment) continue;
        // Fisher-Yates within the segment; shuffling an already shuffled segment is still uniform.
        for (std::size_t i = s.size() - 1; i > 0; --i) {
          const std::size_t j = rng.below(static_cast<std::uint32_t>(i + 1));
          std::swap(shuffled[s.begin + i], shuffled[s.begin + j]);
          std::swap(shuffled_rank[s.begin + i], shuffled_rank[s.begin + j]);
        }
        permuted_best = std::max(permuted_best, best_split(shuffled.data() + s.begin, shuffled_rank.data() + s.begin,
                                                           distance_by_rank.data() + s.begin, s.size(),
                                                           options.min_segment, tree)
                                                    .q);
      }
      exceeding += permuted_best >= best.q ? 1 : 0;
    }
    if (exceeding > max_exceeding) break;
    const double p_value = (1.0 + exceeding) / (1.0 + options.permutations);
    const std::size_t index = best_begin + best.tau;
    found.push_back({index, p_value});
    cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), index), index);
  }
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.index < b.index; });
  return found;
}

// The search over the whole series, a window of at most options.window points at a time (the header's
// "Windows"). A window's change points closer than a quarter window to its end are left to the next
// window, which starts at the last change point kept (or half a window on, when none was): each change is
// judged with the points on both sides of it. Each window's permutations draw from a seed of their own,
// the series' seed for the first: a series of at most one window is searched exactly as a whole.
std::vector<Found> windowed_splits(const std::vector<double>& x, const ChangePointOptions& options) {
  std::vector<Found> found;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = std::min(x.size(), start + options.window);
    const std::vector<double> window(x.begin() + static_cast<std::ptrdiff_t>(start),
                                     x.begin() + static_cast<std::ptrdiff_t>(end));
    const std::vector<Found> in_window =
        significant_splits(window, options, options.seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(start));
    if (end == x.size()) {
      for (const Found& f : in_window) found.push_back({start + f.index, f.p_value});
      return found;
    }
    const std::size_t settled_end = end - options.window / 4;
    std::size_t next = end - options.window / 2;
    for (const Found& f : in_window) {  // by index
      if (start + f.index >= settled_end) break;
      found.push_back({start + f.index, f.p_value});
      next = start + f.index;
    }
    start = next;  // > start: a change point lies at least min_segment points into its window
  }
}

double segment_median(const std::vector<double>& values, Segment s) {
  return median(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(s.begin),
                                    values.begin() + static_cast<std::ptrdiff_t>(s.end)));
}

ChangePoint describe(const std::vector<double>& values, Segment before, Segment after, double p_value) {
  ChangePoint cp;
  cp.index = after.begin;
  cp.before = segment_median(values, before);
  cp.after = segment_median(values, after);
  cp.change_pct = 100.0 * (cp.after / cp.before - 1.0);
  cp.p_value = p_value;
  cp.good_index = cp.index - 1;
  cp.bad_index = cp.index;
  return cp;
}

// Step 3 of the header (Otava's merge with medians): the change point of the smallest effect goes while
// it is below the minimum; its neighbours' segments are then recomputed.
std::vector<ChangePoint> drop_small_effects(const std::vector<double>& values, const std::vector<Found>& found,
                                            double min_effect_pct) {
  std::vector<Found> kept = found;
  for (;;) {
    std::vector<std::size_t> cuts;
    for (const Found& f : kept) cuts.push_back(f.index);
    const std::vector<Segment> segments = segments_between(cuts, values.size());
    std::vector<ChangePoint> points;
    for (std::size_t i = 0; i < kept.size(); ++i) {
      points.push_back(describe(values, segments[i], segments[i + 1], kept[i].p_value));
    }
    std::size_t weakest = points.size();
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (std::fabs(points[i].change_pct) < min_effect_pct &&
          (weakest == points.size() || std::fabs(points[i].change_pct) < std::fabs(points[weakest].change_pct))) {
        weakest = i;
      }
    }
    if (weakest == points.size()) return points;
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(weakest));
  }
}

// The noise of x[s] as a standard deviation, from successive differences (a level change moves one
// difference only): 1.4826 * median |d| / sqrt(2).
double robust_noise_sd(const std::vector<double>& x, Segment s) {
  std::vector<double> differences;
  for (std::size_t i = s.begin + 1; i < s.end; ++i) differences.push_back(std::fabs(x[i] - x[i - 1]));
  if (differences.empty()) return 0.0;
  return 1.4826 * median(std::move(differences)) / std::sqrt(2.0);
}

// Widens each change point's good..bad range so that it holds the change:
// - over the neighbouring points not yet at the level they are next to, by more than the noise's sd (or
//   a tenth of the change, whichever is larger): before the change, points already off the level before
//   (a ramp's first steps, or a split found a point late); after it, points not yet at the level after (a
//   ramp's last steps, points still at the old level when the split was found early). One sd, not two: a
//   range a point too wide costs one more bisection step, a commit of a ramp left out of it is never
//   looked at (simulated ramps of 5 x 1%: covered 81% of the time at one sd, 62% at two);
// - over the whole segment next to it when that segment is min_segment points long: there the split was
//   held at the bound, and the change may lie anywhere in it. A step in the last few runs is a change
//   point whose range runs to the last run until min_segment runs have followed it: a step at run 60 seen
//   after run 62 was split at 58 and reported between runs 57 and 58, a range without the change.
// The splits nearly as likely as the one found, under the model of a step from `from` to `to` in Gaussian
// noise of sd `sd`: moving the split over a point changes the log-likelihood by (to - from) (x - mid) / sd^2
// (mid: halfway between the levels), x clamped to the levels so that one outlier counts as one point at a
// level, not more. The range grows over the splits whose log-likelihood is within kLocationSupport of the
// found one's: in noise a few times smaller than the step that is the split itself, in noise near the
// step's size a few points either side (where the split found is often a point or two off).
void widen_to_likely_splits(const std::vector<double>& x, Segment around, double from, double to, double sd,
                            ChangePoint& cp) {
  if (!(sd > 0.0) || from == to) return;
  const double low = std::min(from, to);
  const double high = std::max(from, to);
  const double mid = 0.5 * (from + to);
  // The log-likelihood lost by moving point k to the other side of the split: to the level after when
  // `to_after`, else to the level before.
  const auto cost = [&](std::size_t k, bool to_after) {
    const double gain = (to - from) * (std::clamp(x[k], low, high) - mid) / (sd * sd);
    return to_after ? -gain : gain;
  };
  double lost = 0.0;
  std::size_t split = cp.index;
  while (split > around.begin + 1 && (lost += cost(split - 1, true)) <= kLocationSupport) --split;
  cp.good_index = std::min(cp.good_index, split - 1);
  lost = 0.0;
  split = cp.index;
  while (split + 1 < around.end && (lost += cost(split, false)) <= kLocationSupport) ++split;
  cp.bad_index = std::max(cp.bad_index, split);
}

void widen_ranges(const std::vector<double>& x, std::vector<ChangePoint>& points, std::size_t min_segment) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    ChangePoint& cp = points[i];
    const Segment around{i == 0 ? 0 : points[i - 1].index, i + 1 == points.size() ? x.size() : points[i + 1].index};
    const double from = std::log(cp.before);
    const double to = std::log(cp.after);
    const double margin = std::max(1.0 * robust_noise_sd(x, around), 0.1 * std::fabs(to - from));
    const double sign = to > from ? 1.0 : -1.0;  // the values measured along the change's direction
    const auto off_the_level_before = [&](std::size_t k) { return sign * (x[k] - from) > margin; };
    const auto short_of_the_level_after = [&](std::size_t k) { return sign * (to - x[k]) > margin; };
    while (cp.good_index > around.begin && off_the_level_before(cp.good_index)) --cp.good_index;
    while (cp.bad_index + 1 < around.end && short_of_the_level_after(cp.bad_index)) ++cp.bad_index;
    widen_to_likely_splits(x, around, from, to, robust_noise_sd(x, around), cp);
    if (cp.index - around.begin <= min_segment) cp.good_index = around.begin;
    if (around.end - cp.index <= min_segment) cp.bad_index = around.end - 1;
  }
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options) {
  validate(values, options);
  if (values.size() < 2 * options.min_segment) return {};
  std::vector<double> x(values.size());
  std::transform(values.begin(), values.end(), x.begin(), [](double v) { return std::log(v); });
  std::vector<ChangePoint> points = drop_small_effects(values, windowed_splits(x, options), options.min_effect_pct);
  widen_ranges(x, points, options.min_segment);
  return points;
}

}  // namespace gpuperf::gate::history
