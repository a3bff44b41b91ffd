// SPDX-License-Identifier: MIT
/*
 * test_precision.c: compare on one lab's rounds: when the analysis is blocked (and when it
 * keeps Welch's test), the blocked delta against a paired t-test on log ratios computed by
 * hand, a missing cell against the model itself, what the Method says about how the runs
 * were made; the stop rule looks at widths only (the same MDE whatever the effect's size,
 * sign or p-value).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "compare/compare.h"
#include "compare/precision.h"
#include "compare/report.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static char *fx(const char *name)
{
	const char *top = getenv("FSLAB_TOP");

	return xasprintf("%s/tests/fixtures/%s", top ? top : ".", name);
}

/* A copy of a fixture as a lab cell: label, lab id, round, position (id NULL: a hand run). */
static char *cell(const char *name, const char *label, const char *lab, unsigned int round,
		  unsigned int position)
{
	char *src = fx(name), path[] = "/tmp/fslab-test-precision.XXXXXX";
	json_t *root = json_load_file(src, 0, NULL);
	int fd = mkstemp(path);

	assert_non_null(root);
	assert_true(fd >= 0);
	close(fd);
	json_object_set_new(root, "label", json_string(label));
	if (lab)
		json_object_set_new(root, "lab", json_pack("{s:s, s:s, s:i, s:i, s:b, s:b}", "id", lab,
							   "cell", "c", "round", round, "position",
							   position, "volume_formatted", 1,
							   "database_created", 1));
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
	free(src);
	return xstrdup(path);
}

static void drop(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unlink(files[i]);
		free(files[i]);
	}
}

static const struct cmp_delta *delta(const struct compare *c, const char *id, size_t g)
{
	const struct cmp_row *row = compare_row(c, id);

	assert_non_null(row);
	return &row->deltas[g];
}

static char *article(const struct compare *c)
{
	struct report_opts o = { .generated = -1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	report_article(f, DOC_MD, c, &o);
	report_tables(f, DOC_TEXT, c, &o);
	fclose(f);
	return buf;
}

/*
 * Two labels in two rounds: the blocked t-test is the paired t-test on the log ratios of
 * each round, d_k = ln(xfs_k / ext4_k): estimate mean(d), se = sd(d) / sqrt(2), df 1.
 */
static void test_blocked_two_rounds(void **state)
{
	char *files[4] = {
		cell("ext4-1.json", "ext4", "L1", 1, 1), cell("xfs-1.json", "xfs", "L1", 1, 2),
		cell("xfs-2.json", "xfs", "L1", 2, 3), cell("ext4-2.json", "ext4", "L1", 2, 4),
	};
	struct compare_opts o = { 0 };
	struct compare c;
	const struct cmp_delta *d;
	double d1, d2, est, se, t, lo, hi;

	(void)state;
	assert_int_equal(compare_build(&c, files, 4, &o), 0);
	assert_true(c.blocked);
	assert_string_equal(c.design, "one lab's rounds");
	assert_string_equal(c.lab_id, "L1");
	assert_int_equal(c.nrounds, 2);
	d1 = log(c.results[1].transactional_iops / c.results[0].transactional_iops);
	d2 = log(c.results[2].transactional_iops / c.results[3].transactional_iops);
	est = (d1 + d2) / 2;
	se = fabs(d1 - d2) / 2;
	t = est / se;
	lo = est - 12.706204736 * se; /* t(0.975, 1) */
	hi = est + 12.706204736 * se;
	d = delta(&c, "trans_iops", 1);
	assert_true(d->blocked);
	assert_near(d->pct, expm1(est) * 100, 1e-9);
	assert_near(d->lo_pct, expm1(lo) * 100, 1e-5);
	assert_near(d->hi_pct, expm1(hi) * 100, 1e-5);
	assert_near(d->df, 1, 0);
	assert_near(d->se, se, 1e-12);
	/* df 1 is Cauchy: p = 1 - 2 atan(|t|) / pi */
	assert_near(d->p, 1 - 2 * atan(fabs(t)) / M_PI, 1e-9);
	assert_true(d->corrected);
	/* the ratio applied to the base's mean */
	assert_near(d->abs, compare_mean(&c, "trans_iops", 0) * expm1(est), 1e-6);
	/* the claim's MDE at Holm's first step, alpha / 4 */
	assert_near(d->mde_pct, expm1(stats_mde_t(se, 1, 0.05 / 4, 0.8)) * 100, 1e-9);
	{
		char *text = article(&c);

		assert_non_null(strstr(text, "blocked t-test"));
		assert_non_null(strstr(text, "one lab's rounds (lab L1, 2 rounds"));
		assert_non_null(strstr(text, "Runs, ext4: 2 lab runs (lab L1, rounds 1-2), each on a "
					     "volume the lab formatted for it, a database created by "
					     "each run"));
		assert_non_null(strstr(text, "Noise and precision"));
		assert_null(strstr(text, "freshly formatted"));
		free(text);
	}
	compare_release(&c);
	drop(files, 4);
}

/* Hand runs and results of two labs keep Welch's test, and the Method says what happened. */
static void test_unblocked(void **state)
{
	char *hand[4] = {
		cell("ext4-1.json", "ext4", NULL, 0, 0), cell("xfs-1.json", "xfs", NULL, 0, 0),
		cell("ext4-2.json", "ext4", NULL, 0, 0), cell("xfs-2.json", "xfs", NULL, 0, 0),
	};
	char *two[4] = {
		cell("ext4-1.json", "ext4", "L1", 1, 1), cell("xfs-1.json", "xfs", "L1", 1, 2),
		cell("ext4-2.json", "ext4", "L2", 1, 1), cell("xfs-2.json", "xfs", "L2", 1, 2),
	};
	struct compare_opts o = { 0 };
	struct compare c;
	char *text;

	(void)state;
	assert_int_equal(compare_build(&c, hand, 4, &o), 0);
	assert_false(c.blocked);
	assert_string_equal(c.design, "hand runs: no lab recorded its rounds");
	assert_false(delta(&c, "trans_iops", 1)->blocked);
	assert_false(c.have_noise);
	text = article(&c);
	assert_non_null(strstr(text, "Welch's t-test"));
	assert_non_null(strstr(text, "Runs, ext4: 2 hand runs (fslab run by itself: no lab "
				     "recorded a round or a fresh volume), all 2 on one and the same "
				     "filesystem (one UUID): the volume was reused, a database created "
				     "by each run"));
	/* the old claim, false for these runs */
	assert_null(strstr(text, "freshly formatted"));
	assert_null(strstr(text, "Noise and precision"));
	free(text);
	compare_release(&c);

	assert_int_equal(compare_build(&c, two, 4, &o), 0);
	assert_false(c.blocked);
	assert_non_null(strstr(c.design, "several labs"));
	compare_release(&c);
	drop(hand, 4);
	drop(two, 4);
}

/*
 * Three labels in three rounds, B's cell in round 3 missing: the delta is the model's own
 * contrast on the same observations (the glue: labels, rounds, logs), every other cell used.
 */
static void test_missing_cell(void **state)
{
	char *files[8] = {
		cell("ext4-1.json", "A", "L", 1, 1), cell("xfs-1.json", "B", "L", 1, 2),
		cell("xfs-2.json", "C", "L", 1, 3), cell("ext4-2.json", "A", "L", 2, 4),
		cell("xfs-2.json", "B", "L", 2, 5), cell("xfs-1.json", "C", "L", 2, 6),
		cell("ext4-1.json", "A", "L", 3, 7), cell("xfs-1.json", "C", "L", 3, 8),
	};
	struct compare_opts o = { 0 };
	struct rcbd_obs obs[8];
	struct rcbd_contrast k;
	struct rcbd_fit f;
	struct compare c;
	const struct cmp_delta *d;
	static const size_t lab[8] = { 0, 1, 2, 0, 1, 2, 0, 2 }, rnd[8] = { 0, 0, 0, 1, 1, 1, 2, 2 };

	(void)state;
	assert_int_equal(compare_build(&c, files, 8, &o), 0);
	assert_true(c.blocked);
	for (size_t i = 0; i < 8; i++)
		obs[i] = (struct rcbd_obs){ lab[i], rnd[i], log(c.results[i].transactional_iops) };
	assert_int_equal(rcbd_fit(obs, 8, 3, 3, &f), 0);
	assert_near(f.df, 8 - 5, 0);
	rcbd_contrast(&f, 1, 0, &k);
	d = delta(&c, "trans_iops", 1);
	assert_near(d->pct, expm1(k.est) * 100, 1e-9);
	assert_near(d->se, k.se, 1e-12);
	assert_near(d->p, k.p, 1e-12);
	assert_near(compare_row(&c, "trans_iops")->df, 3, 0);
	rcbd_contrast(&f, 2, 0, &k);
	assert_near(delta(&c, "trans_iops", 2)->pct, expm1(k.est) * 100, 1e-9);
	rcbd_release(&f);
	compare_release(&c);
	drop(files, 8);
}

/* ---- the stop rule ---- */

/* In-memory results: label, round, and a value for every headline metric. */
static void make(struct fslab_result *r, const char *label, unsigned int round, double v)
{
	result_init(r);
	r->label = xstrdup(label);
	r->fslab_version = xstrdup("t");
	r->config.workload = xstrdup("jetstress");
	r->config.threads = 4;
	r->config.duration_s = 12;
	r->duration_s = 12;
	r->lab.id = xstrdup("S");
	r->lab.round = round;
	r->lab.position = round;
	r->transactional_iops = v;
	r->classes[CLS_DB_READ].ops = r->classes[CLS_LOG_WRITE].ops = 1;
	r->classes[CLS_DB_READ].iops = v;
	r->classes[CLS_DB_READ].lat_us.mean = 1e6 / v;
	r->classes[CLS_LOG_WRITE].lat_us.mean = 2e6 / v;
	r->classes[CLS_DB_READ].mbps = v / 30;
}

/* A lab of A and B over rounds: B = A x effect x the same round-to-round noise. */
static void lab(double effect, unsigned int rounds, struct compare *c)
{
	static const double noise[] = { 1.00, 1.07, 0.95, 1.02, 0.97, 1.04, 0.99, 1.06 };
	static const double drift[] = { 1.00, 0.80, 1.10, 0.90, 1.20, 0.85, 1.05, 0.95 };
	struct fslab_result r[16];
	struct compare_opts o = { .baseline = "A" };

	for (unsigned int k = 0; k < rounds; k++) {
		make(&r[2 * k], "A", k + 1, 4000 * drift[k]);
		make(&r[2 * k + 1], "B", k + 1, 4000 * drift[k] * effect * noise[k]);
	}
	assert_int_equal(compare_build_results(c, r, 2 * rounds, &o), 0);
}

static void test_stop_rule_widths_only(void **state)
{
	static const double effects[] = { 1.0, 1.5, 0.6, 1.02 };
	struct precision_check pc[ARRAY_SIZE(effects)], more;
	double p[ARRAY_SIZE(effects)];
	struct compare c;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(effects); i++) {
		lab(effects[i], 5, &c);
		assert_int_equal(compare_precision(&c, &pc[i]), 0);
		p[i] = delta(&c, "trans_iops", 1)->p;
		assert_int_equal(pc[i].npairs, 1);
		assert_int_equal(pc[i].group, 1);
		compare_release(&c);
	}
	/* a 50 % gain, a 40 % loss and nothing: very different p-values and signs ... */
	assert_true(p[1] < 0.001 && p[2] < 0.001 && p[0] > 0.05);
	/* ... and the very same widths: the rule cannot tell them apart */
	for (size_t i = 1; i < ARRAY_SIZE(effects); i++)
		assert_near(pc[i].worst_pct, pc[0].worst_pct, 1e-9);
	/* more rounds of the same noise: narrower */
	lab(1.0, 8, &c);
	assert_int_equal(compare_precision(&c, &more), 0);
	assert_true(more.worst_pct < pc[0].worst_pct);
	compare_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocked_two_rounds),
		cmocka_unit_test(test_unblocked),
		cmocka_unit_test(test_missing_cell),
		cmocka_unit_test(test_stop_rule_widths_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
