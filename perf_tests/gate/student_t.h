#pragma once
// Student's t distribution (and the incomplete beta function beneath it): what turns a mean of few per-process medians, and the spread between them,
// into an interval and a p-value that mean what they say when only a handful of processes were run.
// Pure functions, no dependency beyond <cmath>.

namespace gpuperf::gate {

// I_x(a, b), the regularized incomplete beta function, for a, b > 0 and x in [0, 1] (a continued fraction of
// at most 300 terms: bounded time whatever the arguments). Student's t is built on it; so is the binomial
// distribution's: P(X <= k) = I_{1-p}(n - k, k + 1) for X ~ Binomial(n, p), k < n.
double regularized_incomplete_beta(double a, double b, double x);

// P(T <= t) for T ~ Student t with `df` degrees of freedom (df > 0; need not be an integer).
double student_t_cdf(double t, double df);

// P(T > t), computed directly so that tiny p-values keep their precision.
double student_t_upper_tail(double t, double df);

// The t with P(T <= t) = p, for p in (0, 1) and df > 0. Accurate to about 1e-10 relative.
double student_t_quantile(double p, double df);

}  // namespace gpuperf::gate
