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
  if (!(options.min_effect_pct >= 0.0) || !std::isfinite(options.min_effect_pct)) {
    throw formats::InputError("change points: min_effect_pct must be a finite number >= 0");
  }
}

// The split of x[0, w) that maximises the energy statistic (Matteson & James 2014, eq. 5, with the
// U-statistic means of the paper: within-sample sums over C(m, 2) pairs), with at least min_segment
// points on each side. The sums are updated as the split moves right, one point crossing from the right
// part to the left: O(w^2), as mongodb/signal-processing-algorithms' e_divisive.c (t_stat_values).
Split best_split(const double* x, std::size_t w, std::size_t min_segment) {
  Split best;
  if (w < 2 * min_segment) return best;
  double cross = 0.0;  // sum |x_i - x_j|, i left, j right
  double left = 0.0;   // sum |x_i - x_j|, i < j, both left
  double right = 0.0;  // sum |x_i - x_j|, i < j, both right
  for (std::size_t i = 0; i < w; ++i) {
    for (std::size_t j = i + 1; j < w; ++j) right += std::fabs(x[i] - x[j]);
  }
  for (std::size_t tau = 1; tau + min_segment <= w; ++tau) {
    const std::size_t k = tau - 1;  // the point that crosses to the left part
    double to_left = 0.0;
    double to_right = 0.0;
    for (std::size_t i = 0; i < k; ++i) to_left += std::fabs(x[i] - x[k]);
    for (std::size_t j = k + 1; j < w; ++j) to_right += std::fabs(x[k] - x[j]);
    cross += to_right - to_left;
    left += to_left;
    right -= to_right;
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

// Step 2 of the header: the sequential E-Divisive search with its permutation test.
std::vector<Found> significant_splits(const std::vector<double>& x, const ChangePointOptions& options) {
  std::vector<Found> found;
  std::vector<std::size_t> cuts;
  std::vector<double> shuffled(x.size());
  SplitMix64 rng(options.seed);
  // Not significant as soon as more than this many permutations reach the observed statistic.
  const int max_exceeding =
      static_cast<int>(std::floor(options.alpha * (options.permutations + 1) - 1.0 + 1e-9));
  for (;;) {
    const std::vector<Segment> segments = segments_between(cuts, x.size());
    Split best;
    std::size_t best_begin = 0;
    for (const Segment& s : segments) {
      const Split split = best_split(x.data() + s.begin, s.size(), options.min_segment);
      if (split.q > best.q) {
        best = split;
        best_begin = s.begin;
      }
    }
    if (best.q < 0.0) break;  // no segment is long enough to split
    shuffled = x;
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
        }
        permuted_best = std::max(permuted_best, best_split(shuffled.data() + s.begin, s.size(), options.min_segment).q);
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

// Widens each change point's good..bad range over the neighbouring points that lie between the two
// levels by more than the noise's sd (or a tenth of the change, whichever is larger): a ramp's points.
// One sd, not two: a range a point too wide costs one more bisection step, a commit of a ramp left out of
// it is never looked at (simulated ramps of 5 x 1%: covered 81% of the time at one sd, 62% at two).
void widen_ranges(const std::vector<double>& x, std::vector<ChangePoint>& points) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    ChangePoint& cp = points[i];
    const Segment around{i == 0 ? 0 : points[i - 1].index, i + 1 == points.size() ? x.size() : points[i + 1].index};
    const double from = std::log(cp.before);
    const double to = std::log(cp.after);
    const double margin = std::max(1.0 * robust_noise_sd(x, around), 0.1 * std::fabs(to - from));
    const double low = std::min(from, to) + margin;
    const double high = std::max(from, to) - margin;
    const auto between = [&](std::size_t k) { return low < x[k] && x[k] < high; };
    while (cp.good_index > around.begin && between(cp.good_index)) --cp.good_index;
    while (cp.bad_index + 1 < around.end && between(cp.bad_index)) ++cp.bad_index;
  }
}

}  // namespace

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options) {
  validate(values, options);
  if (values.size() < 2 * options.min_segment) return {};
  std::vector<double> x(values.size());
  std::transform(values.begin(), values.end(), x.begin(), [](double v) { return std::log(v); });
  std::vector<ChangePoint> points = drop_small_effects(values, significant_splits(x, options), options.min_effect_pct);
  widen_ranges(x, points);
  return points;
}

}  // namespace gpuperf::gate::history
