// SPDX-License-Identifier: MIT
/* test_stats.c: t quantiles against tables, Welch's t-test against hand-computed cases,
 * confidence interval width and batch means of a known series. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>

#include "lib/base.h"
#include "compare/stats.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Two-sided 95 % quantiles from any printed t table. */
static void test_t_quantiles(void **state)
{
	static const struct {
		double df, q;
	} tab[] = {
		{ 1, 12.706 }, { 2, 4.303 }, { 4, 2.776 }, { 9, 2.262 }, { 30, 2.042 }, { 1000, 1.962 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(tab); i++)
		assert_near(stats_t_quantile(0.975, tab[i].df), tab[i].q, 0.0005);
	assert_near(stats_t_quantile(0.025, 9), -2.262, 0.0005);
	assert_near(stats_t_quantile(0.5, 5), 0, 1e-9);
	/* df = 1 is the Cauchy distribution: F(t) = 1/2 + atan(t) / pi */
	assert_near(stats_t_cdf(3, 1), 0.5 + atan(3) / M_PI, 1e-12);
	assert_near(stats_t_cdf(-3, 1), 0.5 - atan(3) / M_PI, 1e-12);
	/* incomplete beta edge cases and a closed form: I_x(1, 1) = x, I_x(a, 1) = x^a */
	assert_near(stats_ibeta(1, 1, 0.3), 0.3, 1e-12);
	assert_near(stats_ibeta(2.5, 1, 0.4), pow(0.4, 2.5), 1e-12);
	assert_true(stats_ibeta(2, 3, 0) == 0 && stats_ibeta(2, 3, 1) == 1);
}

static void sample_of(const double *x, size_t n, struct sample *s)
{
	stats_sample(x, n, s);
}

/*
 * Holm-Bonferroni by hand: p = {0.01, 0.04, 0.03, 0.005}, m = 4.  Sorted: 0.005 (x4 = 0.02),
 * 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04, raised to the running maximum 0.06).
 * At alpha 0.05 the first two are rejected, 0.04 is not although it is below 0.05 on its own.
 */
static void test_holm_hand_computed(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double q[] = { 0.02, NAN, 0.5 }, qa[3];
	double r[] = { 0.6, 0.7 };

	(void)state;
	stats_holm(p, 4, adj);
	assert_near(adj[0], 0.03, 1e-12);
	assert_near(adj[1], 0.06, 1e-12);
	assert_near(adj[2], 0.06, 1e-12);
	assert_near(adj[3], 0.02, 1e-12);
	/* NaN is "not tested": it stays NaN and does not count in m (m = 2) */
	stats_holm(q, 3, qa);
	assert_near(qa[0], 0.04, 1e-12);
	assert_true(isnan(qa[1]));
	assert_near(qa[2], 0.5, 1e-12);
	/* capped at 1, in place */
	stats_holm(r, 2, r);
	assert_near(r[0], 1, 1e-12);
	assert_near(r[1], 1, 1e-12);
	/* one test: unchanged */
	stats_holm((double[]){ 0.04 }, 1, adj);
	assert_near(adj[0], 0.04, 1e-12);
}

/*
 * Minimum detectable difference, 95 % confidence and 80 % power, by hand:
 * a = {1, 2, 3}, b = {2, 3, 4}: sd 1 each, se = sqrt(1/3 + 1/3) = 0.816497, df = 4,
 * t(0.975, 4) = 2.776445, t(0.80, 4) = 0.940965: MDE = 3.717410 * 0.816497 = 3.035255.
 * {10, 10.2} vs {20, 20.2}: se = 0.141421, df = 2, t(0.975, 2) = 4.302653,
 * t(0.80, 2) = 1.060660: MDE = 5.363313 * 0.141421 = 0.758483.
 */
static void test_mde_hand_computed(void **state)
{
	struct sample a, b, one;

	(void)state;
	sample_of((const double[]){ 1, 2, 3 }, 3, &a);
	sample_of((const double[]){ 2, 3, 4 }, 3, &b);
	assert_near(stats_mde(&a, &b, 0.05, 0.80), 3.035255, 2e-5);
	sample_of((const double[]){ 10, 10.2 }, 2, &a);
	sample_of((const double[]){ 20, 20.2 }, 2, &b);
	assert_near(stats_mde(&a, &b, 0.05, 0.80), 0.758483, 2e-5);
	/* more power or more confidence needs a larger difference */
	assert_true(stats_mde(&a, &b, 0.05, 0.90) > stats_mde(&a, &b, 0.05, 0.80));
	assert_true(stats_mde(&a, &b, 0.01, 0.80) > stats_mde(&a, &b, 0.05, 0.80));
	/* no spread: everything is detectable; one run: nothing can be said */
	sample_of((const double[]){ 5, 5 }, 2, &a);
	sample_of((const double[]){ 7, 7, 7 }, 3, &b);
	assert_near(stats_mde(&a, &b, 0.05, 0.80), 0, 1e-12);
	sample_of((const double[]){ 5 }, 1, &one);
	assert_true(isnan(stats_mde(&one, &b, 0.05, 0.80)));
}

static void test_welch_hand_computed(void **state)
{
	struct sample a, b;
	struct welch w;

	(void)state;
	/*
	 * Clearly different: a = {10, 10.2}, b = {20, 20.2}.  Means 10.1 and 20.1, variances 0.02,
	 * standard error sqrt(0.02/2 + 0.02/2) = 0.141421, t = -10 / 0.141421 = -70.7107,
	 * df = (0.02)^2 / (2 * 0.01^2 / 1) = 2.  With 2 degrees of freedom the two-sided p-value
	 * has a closed form, p = 1 - |t| / sqrt(2 + t^2) = 1 - 70.7107 / 70.7248 = 1.9994e-4.
	 */
	sample_of((const double[]){ 10, 10.2 }, 2, &a);
	sample_of((const double[]){ 20, 20.2 }, 2, &b);
	assert_int_equal(stats_welch(&a, &b, &w), 0);
	assert_near(w.t, -70.7107, 1e-4);
	assert_near(w.df, 2, 1e-9);
	assert_near(w.p, 1.9994e-4, 1e-8);
	assert_true(w.p < STATS_ALPHA);

	/*
	 * Overlapping: a = {1, 3}, b = {5, 7}: means 2 and 6, variances 2, se = sqrt(1 + 1),
	 * t = -4 / 1.41421 = -2.8284, df = 2, p = 1 - 2.8284 / sqrt(10) = 0.10557: not significant
	 * (two runs each cannot separate them).
	 */
	sample_of((const double[]){ 1, 3 }, 2, &a);
	sample_of((const double[]){ 5, 7 }, 2, &b);
	assert_int_equal(stats_welch(&a, &b, &w), 0);
	assert_near(w.t, -2.8284, 1e-4);
	assert_near(w.p, 0.105573, 1e-6);
	assert_false(w.p < STATS_ALPHA);

	/*
	 * Overlapping, df = 4: a = {10, 12, 14}, b = {11, 13, 15}: variances 4, se = sqrt(8/3),
	 * t = -0.61237, df = (8/3)^2 / (2 * (4/3)^2 / 2) = 4, p = 0.573392 (t table, df 4).
	 */
	sample_of((const double[]){ 10, 12, 14 }, 3, &a);
	sample_of((const double[]){ 11, 13, 15 }, 3, &b);
	assert_int_equal(stats_welch(&a, &b, &w), 0);
	assert_near(w.df, 4, 1e-9);
	assert_near(w.p, 0.573392, 1e-6);

	/*
	 * Different, df = 8: a = 10..14, b = 20..24: variances 2.5, se = 1, t = -10, df = 8,
	 * p = 8.488e-6.
	 */
	sample_of((const double[]){ 10, 11, 12, 13, 14 }, 5, &a);
	sample_of((const double[]){ 20, 21, 22, 23, 24 }, 5, &b);
	assert_int_equal(stats_welch(&a, &b, &w), 0);
	assert_near(w.t, -10, 1e-12);
	assert_near(w.df, 8, 1e-9);
	assert_near(w.p, 8.48818e-6, 1e-10);

	/* Unequal variances and sizes: symmetric in its arguments except for the sign of t. */
	sample_of((const double[]){ 5.1, 4.9, 5.3, 5.0, 4.8, 5.2 }, 6, &a);
	sample_of((const double[]){ 5.6, 4.2, 6.1, 5.9 }, 4, &b);
	{
		struct welch w2;

		assert_int_equal(stats_welch(&a, &b, &w), 0);
		assert_int_equal(stats_welch(&b, &a, &w2), 0);
		assert_near(w.t, -w2.t, 1e-12);
		assert_near(w.p, w2.p, 1e-12);
		assert_true(w.df > 3 && w.df < 8);
	}

	/* Zero spread on both sides. */
	sample_of((const double[]){ 3, 3 }, 2, &a);
	sample_of((const double[]){ 3, 3 }, 2, &b);
	assert_int_equal(stats_welch(&a, &b, &w), 0);
	assert_true(w.p == 1);
	sample_of((const double[]){ 4, 4 }, 2, &b);
	assert_int_equal(stats_welch(&a, &b, &w), 0);
	assert_true(w.p == 0);

	/* A single value has no variance: no test. */
	sample_of((const double[]){ 3 }, 1, &a);
	assert_int_equal(stats_welch(&a, &b, &w), -EINVAL);
}

static void test_ci(void **state)
{
	const double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct sample s;

	(void)state;
	/* mean 5.5, sd 3.02765, half = t(0.975, 9) * sd / sqrt(10) = 2.26216 * 0.957427 = 2.16585 */
	stats_sample(x, ARRAY_SIZE(x), &s);
	assert_int_equal(s.n, 10);
	assert_near(s.mean, 5.5, 1e-12);
	assert_near(s.sd, 3.0276504, 1e-6);
	assert_near(s.half, 2.1658506, 1e-6);
	/* NaN values are skipped; one value has no interval */
	stats_sample((const double[]){ NAN, 4, NAN }, 3, &s);
	assert_int_equal(s.n, 1);
	assert_near(s.mean, 4, 0);
	assert_true(isnan(s.half));
	/* With two values the interval is wide: t(0.975, 1) = 12.706 */
	stats_sample((const double[]){ 99, 101 }, 2, &s);
	assert_near(s.half, 12.7062 * sqrt(2) / sqrt(2), 1e-3);
}

static void test_batch_means(void **state)
{
	double num[65], den[65], out[STATS_BATCHES];
	struct batch_plan bp;
	size_t n;

	(void)state;
	/* 60 rows: 10 batches of 6 s; row i (1-based) has value i, so batch b averages
	 * 6b+1 .. 6b+6, i.e. 6b + 3.5. */
	for (int i = 0; i < 65; i++) {
		num[i] = i + 1;
		den[i] = 2;
	}
	assert_int_equal(stats_batch_plan(60, &bp), 0);
	assert_int_equal(bp.k, 10);
	assert_int_equal(bp.len, 6);
	assert_int_equal(bp.skip, 0);
	n = stats_batch_means(num, NULL, &bp, out);
	assert_int_equal(n, 10);
	for (size_t b = 0; b < n; b++)
		assert_near(out[b], 6.0 * b + 3.5, 1e-12);
	/* Weighted by den: sum(num) / sum(den) = half of the above */
	n = stats_batch_means(num, den, &bp, out);
	assert_near(out[3], (6.0 * 3 + 3.5) / 2, 1e-12);

	/* 65 rows: 10 batches of 6, the first 5 rows dropped */
	assert_int_equal(stats_batch_plan(65, &bp), 0);
	assert_int_equal(bp.skip, 5);
	n = stats_batch_means(num, NULL, &bp, out);
	assert_near(out[0], 8.5, 1e-12);

	/* Short runs: fewer batches of 2 rows, none below 6 rows */
	assert_int_equal(stats_batch_plan(20, &bp), 0);
	assert_int_equal(bp.k, 10);
	assert_int_equal(bp.len, 2);
	assert_int_equal(stats_batch_plan(13, &bp), 0);
	assert_int_equal(bp.k, 6);
	assert_int_equal(bp.len, 2);
	assert_int_equal(bp.skip, 1);
	assert_int_equal(stats_batch_plan(6, &bp), 0);
	assert_int_equal(bp.k, 3);
	assert_int_equal(stats_batch_plan(5, &bp), -EINVAL);
	assert_int_equal(stats_batch_plan(0, &bp), -EINVAL);
	/* Long runs keep 10 batches: 2 h = 10 x 720 s */
	assert_int_equal(stats_batch_plan(7200, &bp), 0);
	assert_int_equal(bp.k, 10);
	assert_int_equal(bp.len, 720);

	/* A batch with no operations (den 0) is left out */
	for (int i = 0; i < 12; i++)
		den[i] = 0;
	assert_int_equal(stats_batch_plan(60, &bp), 0);
	n = stats_batch_means(num, den, &bp, out);
	assert_int_equal(n, 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_quantiles),
		cmocka_unit_test(test_welch_hand_computed),
		cmocka_unit_test(test_holm_hand_computed),
		cmocka_unit_test(test_mde_hand_computed),
		cmocka_unit_test(test_ci),
		cmocka_unit_test(test_batch_means),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
