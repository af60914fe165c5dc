#pragma once
// Student's t distribution (and Fisher's F): what turns a mean of few per-process medians, and the spread between them,
// into an interval and a p-value that mean what they say when only a handful of processes were run.
// Pure functions, no dependency beyond <cmath>.

namespace gpuperf::gate {

// P(T <= t) for T ~ Student t with `df` degrees of freedom (df > 0; need not be an integer).
double student_t_cdf(double t, double df);

// P(T > t), computed directly so that tiny p-values keep their precision.
double student_t_upper_tail(double t, double df);

// The t with P(T <= t) = p, for p in (0, 1) and df > 0. Accurate to about 1e-10 relative.
double student_t_quantile(double p, double df);

// P(F > f) for F ~ Fisher's F with (df1, df2) degrees of freedom (both > 0): whether one spread is larger
// than another estimated spread can explain (statistics/runner_history.h).
double f_upper_tail(double f, double df1, double df2);

}  // namespace gpuperf::gate
