// SPDX-License-Identifier: MIT
/*
 * test_blocked.c: the blocked model (value ~ label + round on the log scale) against numbers
 * computed independently with statsmodels 0.13.5 (Debian python3-statsmodels: ols('y ~
 * C(label) + C(rnd)'), t_test, conf_int, OLSInfluence.resid_studentized_internal, anova_lm
 * typ=1), complete and with a missing cell; what it refuses; the allocation advice on
 * synthetic variance components against scipy's t quantiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>

#include "lib/base.h"
#include "compare/blocked.h"
#include "compare/stats.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Three labels A, B, C in four rounds (raw values; the model sees their logs). */
static const double raw[4][3] = {
	{ 100, 110, 95 }, { 90, 104, 88 }, { 120, 126, 112 }, { 105, 118, 99 },
};

static size_t data(struct rcbd_obs *o, bool missing)
{
	size_t n = 0;

	for (size_t r = 0; r < 4; r++)
		for (size_t l = 0; l < 3; l++) {
			if (missing && r == 2 && l == 2)
				continue; /* C in round 3 aborted */
			o[n++] = (struct rcbd_obs){ .label = l, .block = r, .y = log(raw[r][l]) };
		}
	return n;
}

static void check_contrast(const struct rcbd_fit *f, size_t a, size_t b, double est, double se,
			   double t, double p, double lo, double hi)
{
	struct rcbd_contrast c;

	rcbd_contrast(f, a, b, &c);
	assert_near(c.est, est, 1e-10);
	assert_near(c.se, se, 1e-10);
	assert_near(c.t, t, 1e-8);
	assert_near(c.p, p, 1e-9 + 1e-6 * p);
	assert_near(c.lo, lo, 1e-8);
	assert_near(c.hi, hi, 1e-8);
	assert_near(c.df, f->df, 0);
}

static void test_complete(void **state)
{
	static const double stdres[12] = {
		0.1542607568, -0.2489001342, 0.0946393774, -1.582866885, 1.302042557,
		0.2808243271, 1.582811207, -1.924831655, 0.342020448, -0.1542050788,
		0.8716892313, -0.7174841526,
	};
	struct rcbd_obs o[12];
	struct rcbd_fit f;
	size_t n = data(o, false);

	(void)state;
	assert_int_equal(rcbd_fit(o, n, 3, 4, &f), 0);
	assert_int_equal(f.n, 12);
	assert_int_equal(f.p, 6);
	assert_near(f.df, 6, 0); /* (labels - 1)(rounds - 1) */
	assert_near(f.s2, 0.000449087964115, 1e-14);
	assert_near(f.label[1], 0.101351461773, 1e-11);
	assert_near(f.label[2], -0.0503998804374, 1e-11);
	assert_near(f.block[1], -0.0793300198104, 1e-11);
	assert_near(f.block[2], 0.160915025883, 1e-11);
	assert_near(f.block[3], 0.0534124604589, 1e-11);
	check_contrast(&f, 1, 0, 0.101351461773, 0.0149847916922, 6.76362166758, 0.000509930957582,
		       0.06468499743, 0.138017926116);
	check_contrast(&f, 2, 0, -0.0503998804374, 0.0149847916922, -3.3634021395,
		       0.0151656627824, -0.0870663447806, -0.0137334160942);
	check_contrast(&f, 2, 1, -0.151751342211, 0.0149847916922, -10.1270238071,
		       5.38949890317e-05, -0.188417806554, -0.115084877867);
	for (size_t i = 0; i < n; i++)
		assert_near(f.stdres[i], stdres[i], 1e-8);
	/* rounds after labels (anova_lm typ=1): mean square 0.0304837095377 on 3 df */
	assert_near(f.ms_block, 0.0304837095377, 1e-12);
	assert_near(f.n0, 3, 1e-12);
	/* the ratio: B delivered exp(0.10135) - 1 = 10.667 % more than A */
	assert_near(log_pct(f.label[1]), 10.6665, 1e-3);
	rcbd_release(&f);
}

/* C in round 3 missing: least squares on the unbalanced additive model (no round dropped). */
static void test_missing_cell(void **state)
{
	static const double stdres[11] = {
		0.09093360739, -0.2860134782, 0.2040194124, -1.53324477, 1.164085826,
		0.3860756648, 1.866979315, -1.866979315, -0.1974755621, 0.7617143769,
		-0.5900950772,
	};
	struct rcbd_obs o[12];
	struct rcbd_fit f;
	size_t n = data(o, true);

	(void)state;
	assert_int_equal(n, 11);
	assert_int_equal(rcbd_fit(o, n, 3, 4, &f), 0);
	assert_near(f.df, 5, 0);
	assert_near(f.s2, 0.000528398875743, 1e-14);
	assert_near(f.label[2], -0.0529624330215, 1e-11);
	assert_near(f.block[2], 0.157498289104, 1e-11);
	/* B - A keeps every round (A and B are complete); the contrasts with C lose precision */
	check_contrast(&f, 1, 0, 0.101351461773, 0.0162542129269, 6.23539646179, 0.00155302918316,
		       0.059568677255, 0.143134246292);
	check_contrast(&f, 2, 0, -0.0529624330215, 0.0181727625126, -2.91438536022,
		       0.0332298331175, -0.0996770062575, -0.00624785978546);
	check_contrast(&f, 2, 1, -0.154313894795, 0.0181727625126, -8.4914935023,
		       0.000372325894241, -0.201028468031, -0.107599321559);
	for (size_t i = 0; i < n; i++)
		assert_near(f.stdres[i], stdres[i], 1e-8);
	assert_near(f.ms_block, 0.0227230667396, 1e-12);
	rcbd_release(&f);
}

static void test_refusals(void **state)
{
	struct rcbd_obs o[12];
	struct rcbd_fit f;
	size_t n = data(o, false);
	/* A only in rounds 1-2, B only in rounds 3-4: no round holds both, not connected */
	struct rcbd_obs apart[] = {
		{ 0, 0, 1.0 }, { 0, 1, 1.1 }, { 0, 0, 1.2 }, { 1, 2, 2.0 }, { 1, 3, 2.1 }, { 1, 2, 1.9 },
	};
	/* one round: no residual degree of freedom */
	struct rcbd_obs one[] = { { 0, 0, 1.0 }, { 1, 0, 2.0 } };

	(void)state;
	assert_int_equal(rcbd_fit(o, n, 4, 4, &f), -EINVAL); /* label 3 has no observation */
	assert_int_equal(rcbd_fit(apart, ARRAY_SIZE(apart), 2, 4, &f), -EDOM);
	assert_int_equal(rcbd_fit(one, ARRAY_SIZE(one), 2, 1, &f), -EDOM);
	o[0].y = NAN;
	assert_int_equal(rcbd_fit(o, n, 3, 4, &f), -EINVAL);
	/* a round without any cell is no parameter: the same fit as without it */
	o[0].y = log(raw[0][0]);
	for (size_t i = 0; i < n; i++)
		o[i].block = o[i].block * 2; /* blocks 0, 2, 4, 6 of 8 */
	assert_int_equal(rcbd_fit(o, n, 3, 8, &f), 0);
	assert_int_equal(f.nblocks, 4);
	assert_near(f.df, 6, 0);
	assert_near(f.s2, 0.000449087964115, 1e-14);
	assert_true(isnan(f.block[1]) && isnan(f.block[7]));
	rcbd_release(&f);
}

/*
 * Kalibera and Jones on synthetic components.  Expected numbers from scipy.stats.t.ppf:
 * MDE% = expm1((t(1 - 0.05/(2m), df) + t(0.8, df)) * sqrt(2 v / r)) * 100, v = between +
 * within-per-second / t, df = (cells - 1)(r - 1).
 */
static void test_allocation(void **state)
{
	/* within-run noise dominates: longer cells pay, t* = sqrt(25 * 0.036 / 0.0001) = 94.9 */
	struct noise quiet = { .between = 0.0001, .within = 0.0036, .t_s = 10, .fixed_s = 25 };
	/* between-run noise dominates (this machine): t* = 1.9 s, clamped to the 10 s minimum */
	struct noise shared = { .between = 0.0064, .within = 0.0001, .t_s = 12, .fixed_s = 20 };
	struct noise unknown = shared;
	struct allocation a;

	(void)state;
	assert_near(noise_mde_pct(&quiet, 3, 4, 95, 2), 24.248908987823317, 1e-6);
	assert_near(noise_mde_pct(&quiet, 3, 4, 95, 3), 9.846335837342123, 1e-6);
	assert_int_equal(noise_allocate(&quiet, 3, 4, 10, 10, 600, 100, &a), 0);
	assert_near(a.t_s, 95, 0);
	assert_int_equal(a.rounds, 3);
	assert_near(a.mde_pct, 9.846335837342123, 1e-6);
	assert_near(a.minutes, 3 * 3 * (95 + 25) / 60.0, 1e-9);

	assert_int_equal(noise_allocate(&shared, 5, 12, 15, 10, 600, 100, &a), 0);
	assert_near(a.t_s, 10, 0);
	assert_int_equal(a.rounds, 11);
	assert_near(a.mde_pct, 14.331964840116084, 1e-6);
	assert_near(noise_mde_pct(&shared, 5, 12, 10, 10), 15.171406600927556, 1e-6);
	assert_near(a.minutes, 11 * 5 * (10 + 20) / 60.0, 1e-9);
	/* no target: as many rounds as allowed */
	assert_int_equal(noise_allocate(&shared, 5, 12, 0, 10, 600, 8, &a), 0);
	assert_int_equal(a.rounds, 8);
	assert_near(a.mde_pct, 17.40572324742376, 1e-6);

	unknown.fixed_s = NAN;
	assert_int_equal(noise_allocate(&unknown, 5, 12, 15, 10, 600, 100, &a), -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_complete),
		cmocka_unit_test(test_missing_cell),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_allocation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
