/* SPDX-License-Identifier: MIT */
/* stats.h: Student t distribution, confidence intervals, Welch's t-test and batch means. */
#ifndef FSLAB_STATS_H
#define FSLAB_STATS_H

#include <stddef.h>

/* Confidence level of every interval fslab prints, and the significance level of its tests. */
#define STATS_CONF 0.95
#define STATS_ALPHA 0.05
/* Power at which the minimum detectable difference is stated (stats_mde()). */
#define STATS_POWER 0.80

/*
 * Batch means (docs/COMPARE.md): a single run's per-second timeline is cut into
 * STATS_BATCHES batches of equal length (at least STATS_MIN_BATCH_LEN rows each).  Shorter
 * runs get fewer batches of STATS_MIN_BATCH_LEN rows, down to STATS_MIN_BATCHES; below that
 * there is no interval.  The rows left over by the integer division are dropped from the
 * start of the timeline (the seconds nearest to the warm-up).
 */
#define STATS_BATCHES 10
#define STATS_MIN_BATCH_LEN 2
#define STATS_MIN_BATCHES 3

/* A sample summary: n values, their mean and standard deviation, and the half width of the
 * STATS_CONF confidence interval of the mean (NAN when n < 2). */
struct sample {
	size_t n;
	double mean, sd, half;
};

/* Result of Welch's unequal-variances t-test. */
struct welch {
	double t;  /* (mean a - mean b) / standard error */
	double df; /* Welch-Satterthwaite degrees of freedom */
	double p;  /* two-sided p-value */
};

/* How a timeline of nrows rows is cut into batches. */
struct batch_plan {
	size_t k;    /* number of batches */
	size_t len;  /* rows per batch */
	size_t skip; /* rows dropped at the start */
};

/* stats_ibeta - regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1]
 * (continued fraction, Numerical Recipes 6.4, with lgamma from libm). */
double stats_ibeta(double a, double b, double x);
/* stats_t_cdf - P(T <= t) for Student's t with df > 0 degrees of freedom. */
double stats_t_cdf(double t, double df);
/* stats_t_quantile - the t with P(T <= t) = p, p in (0, 1), by bisection on stats_t_cdf(). */
double stats_t_quantile(double p, double df);
/* stats_t_sf - P(T > t), the upper tail, precise far out (no 1 - cdf cancellation). */
double stats_t_sf(double t, double df);
/*
 * stats_tost - the p-value of two one-sided tests (TOST, Schuirmann 1987) that an estimate
 * est, with standard error se on df degrees of freedom, lies inside the equivalence bounds
 * lo < hi: max(P(T > (est - lo) / se), P(T < (est - hi) / se)).  Below a, both one-sided
 * tests reject at level a, i.e. the (1 - 2a) interval est -+ t(1 - a, df) se lies inside
 * (lo, hi).  se 0: 0 when lo < est < hi, else 1.  NAN when df < 1 or se is not finite.
 */
double stats_tost(double est, double se, double df, double lo, double hi);
/* stats_norm_cdf - the standard normal P(Z <= z); stats_norm_quantile - its inverse, p in
 * (0, 1) (bisection on erfc: exact to 1e-12, fast enough for a boundary table). */
double stats_norm_cdf(double z);
double stats_norm_quantile(double p);
/* stats_chi2_cdf - P(X <= x) for chi-square with df > 0 degrees of freedom (regularized lower
 * incomplete gamma, NR 6.2); stats_chi2_quantile - its inverse, p in (0, 1). */
double stats_chi2_cdf(double x, double df);
double stats_chi2_quantile(double p, double df);

/* stats_sample - summarize x[0..n) (NaN values are skipped) into s, with the STATS_CONF
 * interval.  n = 0 gives mean NAN. */
void stats_sample(const double *x, size_t n, struct sample *s);
/* stats_ci_half - half width of the STATS_CONF interval for n values of standard deviation sd:
 * t(1 - (1 - STATS_CONF) / 2, n - 1) * sd / sqrt(n); NAN when n < 2. */
double stats_ci_half(size_t n, double sd);
/*
 * stats_welch - Welch's t-test of a against b.  Returns 0, or -EINVAL when either side has fewer
 * than 2 values.  Both standard deviations 0: p = 1 for equal means, else 0.
 */
int stats_welch(const struct sample *a, const struct sample *b, struct welch *w);

/*
 * stats_holm - Holm-Bonferroni step-down adjustment of n p-values (NaN entries are not tested
 * and stay NaN, and do not count in n).  adj[i] = max over the j-th smallest p up to p[i] of
 * min(1, (m - j + 1) p_(j)), m = number of tested values.  Reject hypothesis i at level alpha
 * when adj[i] < alpha: this controls the family-wise error rate at alpha.  adj may be p.
 */
void stats_holm(const double *p, size_t n, double *adj);

/*
 * stats_mde - minimum detectable difference of a two-sided Welch test between samples a and b
 * (each n >= 2) at level alpha with the given power, from their observed spread:
 * (t(1 - alpha/2, df) + t(power, df)) * sqrt(sd_a^2/n_a + sd_b^2/n_b), df by Welch-
 * Satterthwaite (n_a + n_b - 2 when both sd are 0, giving 0).  NAN when a side has n < 2.
 */
double stats_mde(const struct sample *a, const struct sample *b, double alpha, double power);

/* stats_batch_plan - the batch layout for a timeline of nrows rows (see STATS_BATCHES).
 * Returns 0, or -EINVAL when the timeline is too short for STATS_MIN_BATCHES batches. */
int stats_batch_plan(size_t nrows, struct batch_plan *bp);
/*
 * stats_batch_means - out[b] = sum(num) / sum(den) over the rows of batch b (den NULL: the
 * number of rows, i.e. a per-second rate).  Batches whose den sum is 0 are left out.  out has
 * room for bp->k values.  Returns the number of values stored.
 */
size_t stats_batch_means(const double *num, const double *den, const struct batch_plan *bp,
			 double *out);

#endif
