// SPDX-License-Identifier: MIT
/*
 * test_decide.c: deciding against an equivalence margin (src/compare/decide.c): the two
 * one-sided tests against statsmodels 0.13.5 (ttost_ind for Welch's hand runs, ttost_paired
 * for two labels in rounds, Holm by multipletests: the numbers are written in here, computed
 * once with Debian's python3-statsmodels); the four outcomes at their boundaries; the rounds
 * an undecided claim still needs; the group-sequential boundaries (src/compare/sequential.c)
 * against published ones and scipy's multivariate normal; a claim judged at the boundary of
 * a lab's look; the advice's upper bound of a variance from 4 degrees of freedom; the A/A
 * alarm naming what fired.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compare.h"
#include "compare/precision.h"
#include "compare/report.h"
#include "compare/sequential.h"

#define assert_near(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* One run's four headline values: transactional IOPS, database read and log write average
 * latency (ms; 0: no such I/O), total throughput (MB/s). */
struct run {
	double iops, rd, lw, mb;
};

static void make(struct fslab_result *r, const char *label, const char *lab, unsigned int round,
		 unsigned int position, const struct run *v)
{
	result_init(r);
	r->label = xstrdup(label);
	r->fslab_version = xstrdup("test");
	r->config.workload = xstrdup("jetstress");
	r->config.threads = 4;
	r->config.databases = 1;
	r->config.duration_s = 10;
	r->config.db_size = 256 * MiB;
	r->duration_s = 10;
	if (lab) {
		r->lab.id = xstrdup(lab);
		r->lab.round = round;
		r->lab.position = position;
		r->lab.volume_formatted = r->lab.database_created = true;
	}
	r->transactional_iops = v->iops;
	r->classes[CLS_DB_READ].mbps = v->mb;
	if (v->rd > 0) {
		r->classes[CLS_DB_READ].iops = v->iops;
		r->classes[CLS_DB_READ].ops = 1;
		r->classes[CLS_DB_READ].lat_us.mean = v->rd * 1000;
	}
	if (v->lw > 0) {
		r->classes[CLS_LOG_WRITE].ops = 1;
		r->classes[CLS_LOG_WRITE].iops = 1;
		r->classes[CLS_LOG_WRITE].lat_us.mean = v->lw * 1000;
	}
	for (int k = 0; k < CLS_NR; k++)
		r->classes[k].lat_us.max = r->classes[k].lat_us.p99 = r->classes[k].lat_us.p99_9 = 1;
}

/* compare_build_results() leaves each r[i] freshly initialised: released here. */
static int build_results(struct compare *c, struct fslab_result *r, size_t n,
			 const struct compare_opts *o)
{
	int ret = compare_build_results(c, r, n, o);

	for (size_t i = 0; i < n; i++)
		result_release(&r[i]);
	return ret;
}

static const struct cmp_delta *delta(const struct compare *c, const char *id, size_t g)
{
	const struct cmp_row *row = compare_row(c, id);

	assert_non_null(row);
	return &row->deltas[g];
}

/* Welch's hand runs: each headline metric's TOST p against ±5 % of the base's mean, and the
 * Holm adjustment over the four claims (statsmodels ttost_ind(usevar='unequal'), holm). */
static void test_tost_welch(void **state)
{
	static const struct run a[4] = {
		{ 5000, 1.20, 0.90, 170.0 }, { 5150, 1.18, 0.95, 175.5 },
		{ 4900, 1.25, 0.92, 166.0 }, { 5080, 1.21, 0.88, 173.0 },
	}, b[4] = {
		{ 5120, 1.19, 1.02, 174.0 }, { 5050, 1.24, 1.05, 172.0 },
		{ 5210, 1.16, 0.99, 177.5 }, { 5000, 1.22, 1.04, 170.5 },
	};
	static const struct {
		const char *id;
		double p, df, holm;
	} want[] = {
		{ "trans_iops", 0.0186472288929021, 5.84270342292042, 0.0745889155716086 },
		{ "db_read_lat_avg", 0.0304455107627231, 5.82892829606785, 0.0820351454670321 },
		{ "log_write_lat_avg", 0.992145307869122, 5.91423939475818, 0.992145307869122 },
		{ "total_mbps", 0.0273450484890107, 5.52850339154279, 0.0820351454670321 },
	};
	struct fslab_result r[8];
	struct compare_opts o = { 0 };
	struct compare c;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		make(&r[2 * i], "A", NULL, 0, 0, &a[i]);
		make(&r[2 * i + 1], "B", NULL, 0, 0, &b[i]);
	}
	assert_int_equal(build_results(&c, r, 8, &o), 0);
	assert_false(c.blocked);
	assert_near(c.margin_pct, 5, 0);
	assert_true(c.margin_default);
	for (size_t k = 0; k < ARRAY_SIZE(want); k++) {
		const struct cmp_delta *d = delta(&c, want[k].id, 1);

		assert_near(d->df, want[k].df, 1e-9);
		assert_near(d->p_eq, want[k].p, 1e-9);
		assert_near(d->p_eq_holm, want[k].holm, 1e-9);
		/* none equivalent after Holm; log write latency differs (+12 %: Welch p 0.0014,
		 * Holm 0.0056, scipy), the others are undecided */
		assert_int_equal(d->outcome, k == 2 ? OUT_DIFFERENT : OUT_UNDECIDED);
	}
	compare_release(&c);
}

/* Two labels in rounds: the blocked contrast is the paired t-test on the log ratios, and its
 * TOST the paired one (statsmodels ttost_paired on the logs, bounds log 0.95 and log 1.05). */
static void test_tost_blocked(void **state)
{
	static const double a[6] = { 5000, 5300, 4700, 5150, 4950, 5400 };
	static const double b[6] = { 5100, 5350, 4850, 5150, 5050, 5450 };
	struct fslab_result r[12];
	struct compare_opts o = { 0 };
	struct compare c;
	const struct cmp_delta *d;

	(void)state;
	for (unsigned int i = 0; i < 6; i++) {
		struct run x = { a[i], 0, 0, a[i] / 32 }, y = { b[i], 0, 0, b[i] / 32 };

		make(&r[2 * i], "A", "L", i + 1, 2 * i + 1, &x);
		make(&r[2 * i + 1], "B", "L", i + 1, 2 * i + 2, &y);
	}
	assert_int_equal(build_results(&c, r, 12, &o), 0);
	assert_true(c.blocked);
	d = delta(&c, "trans_iops", 1);
	assert_true(d->blocked);
	assert_near(d->df, 5, 0);
	assert_near(d->p_eq, 0.00032994498438866, 1e-12);
	/* throughput has the same ratios: two equal p in the family, each doubled by Holm */
	assert_near(d->p_eq_holm, 2 * 0.00032994498438866, 1e-12);
	/* +1.6 %, significant too (paired p 0.0208, Holm 0.0417, scipy): a negligible
	 * difference, real and inside the margin */
	assert_near(d->p_holm, 2 * 0.0208489, 1e-6);
	assert_int_equal(d->outcome, OUT_NEGLIGIBLE);
	/* the interval TOST looks at: est -+ t(0.95, 5) se, as ratios */
	assert_near(d->eq_lo_pct, log_pct(log1p(d->pct / 100) - stats_t_quantile(0.95, 5) * d->se),
		    1e-9);
	compare_release(&c);
}

/*
 * Two labels in 4 rounds, B's log ratio to A est + (+s, -s, +s, -s): est exactly e, se =
 * s / sqrt(3), df 3; throughput carries the same ratios (a family of two equal claims, so
 * Holm doubles each p: the claims are decided at 0.025).  Database read and log write
 * latency are left out (no such I/O).
 */
static void lab(struct compare *c, double e, double s, double margin)
{
	static const double round_fx[4] = { 0, 0.07, -0.05, 0.11 };
	struct fslab_result r[8];
	struct compare_opts o = { .equivalence_pct = margin };

	for (unsigned int i = 0; i < 4; i++) {
		double va = 5000 * exp(round_fx[i]), vb = va * exp(e + (i % 2 ? -s : s));
		struct run x = { va, 0, 0, va / 32 }, y = { vb, 0, 0, vb / 32 };

		make(&r[2 * i], "A", "L", i + 1, 2 * i + 1, &x);
		make(&r[2 * i + 1], "B", "L", i + 1, 2 * i + 2, &y);
	}
	assert_int_equal(build_results(c, r, 8, &o), 0);
	assert_int_equal(c->nclaims, 2);
}

static enum cmp_outcome outcome_at(double e, double s, double margin)
{
	struct compare c;
	enum cmp_outcome out;

	lab(&c, e, s, margin);
	out = delta(&c, "trans_iops", 1)->outcome;
	compare_release(&c);
	return out;
}

static void test_outcome_boundaries(void **state)
{
	const double q = stats_t_quantile(1 - 0.025, 3), eps = 1e-7;
	double se, s, e;

	(void)state;
	/* equivalent | undecided: e + t(0.975, 3) se = log 1.05, with e far from significant */
	e = 0.01;
	se = (log(1.05) - e) / q;
	s = se * sqrt(3);
	assert_int_equal(outcome_at(e - eps, s, 5), OUT_EQUIVALENT);
	assert_int_equal(outcome_at(e + eps, s, 5), OUT_UNDECIDED);
	/* negligible | different: the same edge with a tight, significant estimate */
	s = 0.004 * sqrt(3);
	e = log(1.05) - q * 0.004;
	assert_int_equal(outcome_at(e - eps, s, 5), OUT_NEGLIGIBLE);
	assert_int_equal(outcome_at(e + eps, s, 5), OUT_DIFFERENT);
	/* and at the lower edge, a loss */
	e = log(0.95) + q * 0.004;
	assert_int_equal(outcome_at(e + eps, s, 5), OUT_NEGLIGIBLE);
	assert_int_equal(outcome_at(e - eps, s, 5), OUT_DIFFERENT);
	/* different | undecided: |e| / se = t(1 - 0.025 / 2, 3) (Holm over the two claims) */
	se = 0.02;
	e = stats_t_quantile(1 - 0.0125, 3) * se;
	assert_int_equal(outcome_at(e + eps, se * sqrt(3), 5), OUT_DIFFERENT);
	assert_int_equal(outcome_at(e - eps, se * sqrt(3), 5), OUT_UNDECIDED);
	/* without a margin: never equivalent; a significant difference inside the 1 % floor is
	 * negligible (never bold, never a triangle), just outside it different */
	assert_int_equal(outcome_at(0, 0.001, -1), OUT_UNDECIDED);
	s = 0.0004 * sqrt(3);
	e = log(1.01) - q * 0.0004;
	assert_int_equal(outcome_at(e - eps, s, -1), OUT_NEGLIGIBLE);
	assert_int_equal(outcome_at(e + eps, s, -1), OUT_DIFFERENT);
	{
		struct compare c;

		lab(&c, e - eps, s, -1);
		assert_false(compare_delta_marked(delta(&c, "trans_iops", 1)));
		assert_int_equal(delta(&c, "trans_iops", 1)->sig, SIG_YES);
		assert_int_equal(delta(&c, "trans_iops", 1)->better, 0);
		compare_release(&c);
		lab(&c, e + eps, s, -1);
		assert_true(compare_delta_marked(delta(&c, "trans_iops", 1)));
		compare_release(&c);
	}
}

/* An undecided claim: the rounds a decision needs if the estimate and the noise stay
 * (scipy: e 0.01, se 0.02 after 4 rounds, df n - 1, level 0.05 / 2: 3 more rounds). */
static void test_more(void **state)
{
	struct compare c;
	const struct cmp_delta *d;
	struct decided_check dc;

	(void)state;
	lab(&c, 0.01, 0.02 * sqrt(3), 5);
	d = delta(&c, "trans_iops", 1);
	assert_int_equal(d->outcome, OUT_UNDECIDED);
	assert_near(d->se, 0.02, 1e-12);
	assert_near(d->more, 3, 0);
	assert_int_equal(compare_decided(&c, &dc, false), 0);
	assert_int_equal(dc.claims, 2);
	assert_int_equal(dc.decided, 0);
	assert_near(dc.more, 3, 0);
	compare_release(&c);
}

/*
 * The boundaries: Lan-DeMets O'Brien-Fleming type, 5 equally spaced looks, two-sided 0.05
 * (the published values, as ldbounds and gsDesign give them: 4.877, 3.357, 2.680, 2.290,
 * 2.031), and unequal looks with a final look spending what is left, against scipy's
 * multivariate normal (Genz; its own error about 1e-5 in probability).
 */
static void test_sequential(void **state)
{
	static const double ld5[5] = { 4.8769, 3.3569, 2.6803, 2.2898, 2.0310 };
	static const double two[4] = { 2.9626, 2.5381, 2.2520, 2.0448 };
	static const double one[4] = { 2.5380, 2.1784, 1.9329, 1.7548 };
	static const double two3[3] = { 3.2817, 2.5194, 1.9936 };
	static const double one3[3] = { 2.8209, 2.1542, 1.6961 };
	double info[5] = { 1, 2, 3, 4, 5 }, spent[5], z[5];
	struct seq_plan p = { 3, 6, 6, true };

	(void)state;
	for (size_t j = 0; j < 5; j++)
		spent[j] = 2 * seq_spend_obf(0.025, info[j] / 5);
	assert_int_equal(seq_bounds(info, spent, 5, 2, z), 0);
	for (size_t j = 0; j < 5; j++)
		assert_near(z[j], ld5[j], 2e-4);
	/* looks after rounds 3, 4, 5, 6 of at most 6: the last spends the rest */
	for (size_t j = 0; j < 4; j++) {
		info[j] = 3 + (double)j;
		spent[j] = j == 3 ? 0.05 : 2 * seq_spend_obf(0.025, info[j] / 6);
	}
	assert_int_equal(seq_bounds(info, spent, 4, 2, z), 0);
	for (size_t j = 0; j < 4; j++)
		assert_near(z[j], two[j], 2e-3);
	for (size_t j = 0; j < 4; j++)
		spent[j] = j == 3 ? 0.05 : seq_spend_obf(0.05, info[j] / 6);
	assert_int_equal(seq_bounds(info, spent, 4, 1, z), 0);
	for (size_t j = 0; j < 4; j++)
		assert_near(z[j], one[j], 2e-3);
	assert_near(seq_nominal(&p, 0.05, 2), 2 * (1 - stats_norm_cdf(two[3])), 1e-4);
	assert_near(seq_nominal(&p, 0.05, 1), 1 - stats_norm_cdf(one[3]), 1e-4);
	/* looks after rounds 5, 8 and 12 */
	info[0] = 5, info[1] = 8, info[2] = 12;
	for (size_t j = 0; j < 3; j++)
		spent[j] = j == 2 ? 0.05 : 2 * seq_spend_obf(0.025, info[j] / 12);
	assert_int_equal(seq_bounds(info, spent, 3, 2, z), 0);
	for (size_t j = 0; j < 3; j++)
		assert_near(z[j], two3[j], 2e-3);
	for (size_t j = 0; j < 3; j++)
		spent[j] = j == 2 ? 0.05 : seq_spend_obf(0.05, info[j] / 12);
	assert_int_equal(seq_bounds(info, spent, 3, 1, z), 0);
	for (size_t j = 0; j < 3; j++)
		assert_near(z[j], one3[j], 2e-3);
	/* early looks spend almost nothing; no plan, no level */
	p = (struct seq_plan){ 3, 30, 4, false };
	assert_true(seq_nominal(&p, 0.05, 2) < 1e-5);
	p.rounds = 31;
	assert_true(isnan(seq_nominal(&p, 0.05, 2)));
}

/* A claim of a lab that stops when decided is judged at its look's boundary, and says so. */
static void test_sequential_claims(void **state)
{
	struct fslab_result r[8];
	struct seq_plan plan = { 3, 20, 0, false };
	struct compare_opts o = { .seq = &plan };
	const struct cmp_delta *d;
	struct strvec v = STRVEC_INIT;
	struct compare c;

	(void)state;
	for (unsigned int i = 0; i < 4; i++) {
		double va = 5000 + 100 * i, vb = va * (i % 2 ? 1.082 : 1.078);
		struct run x = { va, 0, 0, va / 32 }, y = { vb, 0, 0, vb / 32 };

		make(&r[2 * i], "A", "L", i + 1, 2 * i + 1, &x);
		make(&r[2 * i + 1], "B", "L", i + 1, 2 * i + 2, &y);
	}
	assert_int_equal(build_results(&c, r, 8, &o), 0);
	assert_true(c.sequential);
	d = delta(&c, "trans_iops", 1);
	/* p far below 0.05, but the look after 4 of at most 20 rounds spends almost nothing */
	assert_true(d->p_holm < 0.001);
	assert_true(c.level_diff < d->p_holm);
	assert_int_equal(d->sig, SIG_NO);
	assert_int_equal(d->outcome, OUT_UNDECIDED);
	report_summary(&c, &v);
	assert_non_null(strstr(v.v[0], ", sequential boundary "));
	strvec_clear(&v);
	compare_release(&c);
	/* the same results at the lab's last look: what is left of the 5 % is spent */
	for (unsigned int i = 0; i < 4; i++) {
		double va = 5000 + 100 * i, vb = va * (i % 2 ? 1.082 : 1.078);
		struct run x = { va, 0, 0, va / 32 }, y = { vb, 0, 0, vb / 32 };

		make(&r[2 * i], "A", "L", i + 1, 2 * i + 1, &x);
		make(&r[2 * i + 1], "B", "L", i + 1, 2 * i + 2, &y);
	}
	plan.final = true;
	assert_int_equal(build_results(&c, r, 8, &o), 0);
	assert_true(c.level_diff > 0.049 && c.level_diff <= 0.05);
	assert_true(c.level_eq > 0.049 && c.level_eq <= 0.05);
	assert_int_equal(delta(&c, "trans_iops", 1)->outcome, OUT_DIFFERENT);
	compare_release(&c);
}

/*
 * The advice plans with the upper bound of a variance component from few degrees of freedom:
 * the demo's own case (3 rounds, 4 residual df, residual 1.9 % below the noise inside a run,
 * 2.6 %: the spread between runs clamps to 0, which used to advise 7200-second cells).
 * 4 s2 / chi2(0.20, 4) = 2.42604119695246 s2 (scipy); between = that - within.
 */
static void test_advice_ucb(void **state)
{
	struct noise nz = { .cell = 0.019 * 0.019, .within = 0.026 * 0.026, .between = 0,
			    .df = 4, .t_s = 10, .fixed_s = 5 };
	struct allocation a;

	(void)state;
	assert_near(noise_ucb(1, 4), 2.42604119695246, 1e-9);
	assert_near(noise_ucb(nz.cell, 4) - nz.within, 0.00019980087209984, 1e-12);
	/* the old advice from the clamped estimate: the longest cells there are */
	assert_int_equal(noise_allocate(&nz, 3, 4, 15, ADVICE_MIN_CELL_S, ADVICE_MAX_CELL_S, 100,
					&a), 0);
	assert_near(a.t_s, ADVICE_MAX_CELL_S, 0);
	/* from the bound: sqrt(5 s x 0.026^2 x 10 s / 0.0001998) = 13 s, measured cells 10 s */
	nz.between = noise_ucb(nz.cell, 4) - nz.within;
	assert_int_equal(noise_allocate(&nz, 3, 4, 15, ADVICE_MIN_CELL_S,
					ADVICE_MAX_STRETCH * nz.t_s, 100, &a), 0);
	assert_near(a.t_s, 13, 0);
}

/* The A/A alarm names the metric that fired with its numbers, says how often a clean lab
 * raises it and what to do; it never quotes the lead metric that did not differ. */
static void test_aa_alarm_words(void **state)
{
	static const char *const labels[3] = { "A", "B", "A-aa" };
	struct fslab_result r[15];
	struct compare_opts o = { 0 };
	struct report_opts ro = { .generated = -1 };
	struct compare c;
	char *buf = NULL, *line, *end;
	size_t len = 0, n = 0;
	FILE *f;

	(void)state;
	for (unsigned int i = 0; i < 5; i++)
		for (unsigned int l = 0; l < 3; l++) {
			double wob = 1 + 0.01 * ((i * 3 + l) % 4), v = 5000 * wob;
			/* the A/A copy's log writes 20 % slower in every round */
			struct run x = { v, 1.2 * wob, l == 2 ? 1.2 / wob : 1.0 / wob, v / 32 };

			make(&r[n], labels[l], "L", i + 1, (unsigned int)n + 1, &x);
			n++;
		}
	assert_int_equal(build_results(&c, r, n, &o), 0);
	assert_int_equal(c.aa_alarm, 2);
	assert_int_equal(delta(&c, "trans_iops", 2)->sig, SIG_NO);
	f = open_memstream(&buf, &len);
	report_article(f, DOC_MD, &c, &ro);
	fclose(f);
	line = strstr(buf, "WARNING: the A/A check failed");
	assert_non_null(line);
	end = strchr(line, '\n');
	*end = 0;
	assert_non_null(strstr(line, "in log write latency +20 % \\[+17 %, +22 %\\] (Holm-adjusted "
				     "p < 0.001)"));
	assert_null(strstr(line, "transactional IOPS"));
	assert_non_null(strstr(line, "by chance in about " COMPARE_AA_CHANCE " of labs"));
	assert_non_null(strstr(line, "run the lab again"));
	/* the summary's sentence too */
	assert_non_null(strstr(end + 1, "A lab with nothing to find raises this alarm by chance in "
				       "about " COMPARE_AA_CHANCE " of labs"));
	free(buf);
	compare_release(&c);
}

/* A lab's qualification runs (cell ids ...-qualify): longer by design, so no guard and no
 * group; each verdict reported on its own, said to be no comparison. */
static void test_qualification(void **state)
{
	struct fslab_result r[10];
	struct compare_opts o = { 0 };
	struct report_opts ro = { .generated = -1 };
	struct compare c;
	char *buf = NULL;
	size_t len = 0, n = 0;
	FILE *f;

	(void)state;
	for (unsigned int i = 0; i < 4; i++) {
		struct run x = { 5000 + 50.0 * i, 1.2, 1.0, 160 }, y = { 5100 - 30.0 * i, 1.1, 1.0,
									    162 };

		make(&r[n++], "A", "L", i + 1, 2 * i + 1, &x);
		make(&r[n++], "B", "L", i + 1, 2 * i + 2, &y);
	}
	for (unsigned int l = 0; l < 2; l++) {
		struct run q = { 4000, 1.5, 1.1, 150 };

		make(&r[n], l ? "B" : "A", "L", 5, 9 + l, &q);
		r[n].config.duration_s = r[n].duration_s = 7200;
		r[n].lab.cell = xstrdup(l ? "B-4t-qualify" : "A-4t-qualify");
		r[n].verdict.present = true;
		r[n].verdict.pass = l == 0;
		n++;
	}
	assert_int_equal(build_results(&c, r, n, &o), 0);
	assert_int_equal(c.nquals, 2);
	assert_int_equal(c.ngroups, 2);
	assert_int_equal(c.groups[0].nruns, 4);
	assert_int_equal(c.nrounds, 4);
	assert_int_equal(c.warnings.nr, 0);
	f = open_memstream(&buf, &len);
	report_article(f, DOC_MD, &c, &ro);
	fclose(f);
	assert_non_null(strstr(buf, "- **Qualification** (Jetstress's own test, one long run per "
				    "filesystem): A PASS, B FAIL; a verdict on each storage, not a "
				    "comparison (below)."));
	assert_non_null(strstr(buf, "### Qualification (Jetstress's own test: one long run per "
				    "filesystem)"));
	assert_non_null(strstr(buf, "- **A: PASS** after 7200 s of the load: 4000 transactional "
				    "IOPS"));
	free(buf);
	compare_release(&c);
}

/* Every word of a report in one string (the article as Markdown, then the text tables). */
static char *article(const struct compare *c, const struct report_opts *ro)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	report_article(f, DOC_MD, c, ro);
	report_tables(f, DOC_TEXT, c, ro);
	fclose(f);
	return buf;
}

/*
 * The noise section's sentences against their numbers: the demo's case of 3 rounds (4 residual
 * df), a residual of 1.9 % below the 2.6 % inside a run (the point estimate between runs clamps
 * to 0), a lab that met its 15 % target: no "0.0 % from one run to the next" without its
 * bound, no "longer cells pay", no advice once the target is met; a target not met: the
 * advice from the bound (13-second cells, said to be longer than the 10 s measured); the
 * decisions' advice; a label three times as noisy as another in 3 cells is not called rare.
 */
static void test_noise_words(void **state)
{
	static const char *const labels[3] = { "A", "B", "A-aa" };
	struct fslab_result r[9];
	struct compare_opts o = { 0 };
	struct report_opts ro = { .generated = -1, .precision_pct = 15 };
	struct compare c;
	char *t;
	size_t n = 0;

	(void)state;
	for (unsigned int i = 0; i < 3; i++)
		for (unsigned int l = 0; l < 3; l++) {
			double v = 5000 * (1 + 0.01 * ((i + 2 * l) % 3));
			struct run x = { v, 1.2, 1.0, v / 32 };

			make(&r[n], labels[l], "L", i + 1, (unsigned int)n + 1, &x);
			n++;
		}
	assert_int_equal(build_results(&c, r, n, &o), 0);
	assert_true(c.have_noise);
	assert_near(c.noise.df, 4, 0);
	/* the numbers, as a lab of 10-second cells with 5 s beyond them measured them */
	c.noise.cell = 0.019 * 0.019;
	c.noise.within = 0.026 * 0.026;
	c.noise.between = 0;
	c.noise.between_ucb = noise_ucb(c.noise.cell, 4) - c.noise.within;
	c.noise.t_s = 10;
	c.noise.fixed_s = 5;
	c.spread[0] = 1.0;
	c.spread[1] = 3.5;
	t = article(&c, &ro);
	assert_non_null(strstr(t, "nothing measurable comes from one run to the next (the residual "
				  "is below the noise inside a run, so the estimate is 0), but from 4 "
				  "degrees of freedom it may be up to 1.4 %"));
	assert_null(strstr(t, "so longer cells pay"));
	assert_null(strstr(t, "7200-second"));
	assert_non_null(strstr(t, "Advice (your precision, 15 %): none needed, the target is met"));
	assert_non_null(strstr(t, "with so few cells a label, chance alone may still do that"));
	assert_null(strstr(t, "chance alone rarely does that"));
	assert_non_null(strstr(t, "Advice (decisions): "));
	free(t);
	/* a target these rounds have not met: the advice, from the bound, says it extrapolates */
	ro.precision_pct = 1;
	t = article(&c, &ro);
	assert_non_null(strstr(t, "Advice (your precision, 1 %): "));
	assert_non_null(strstr(t, "of 13-second cells"));
	assert_non_null(strstr(t, "Cells of 13 s are longer than the 10 s these results measured"));
	free(t);
	compare_release(&c);
}

/* The summary's clauses say the outcome: negligible, undecided with what it would take. */
static void test_summary_outcomes(void **state)
{
	const double q = stats_t_quantile(1 - 0.025, 3);
	struct strvec v = STRVEC_INIT;
	struct compare c;

	(void)state;
	lab(&c, 0.01, 0.02 * sqrt(3), 5);
	report_summary(&c, &v);
	assert_non_null(strstr(v.v[0], "showed no significant difference in transactional IOPS"));
	assert_non_null(strstr(v.v[0], ", nor shown equivalent within ±5 % (TOST Holm-adjusted p = "));
	assert_non_null(strstr(v.v[0], "): undecided; about 3 more rounds would decide it if the "
				       "estimate and the noise stayed as they are"));
	strvec_clear(&v);
	compare_release(&c);
	lab(&c, log(1.05) - q * 0.004 - 1e-7, 0.004 * sqrt(3), 5);
	report_summary(&c, &v);
	assert_non_null(strstr(v.v[0], "significant, blocked t-test Holm-adjusted p = "));
	assert_non_null(strstr(v.v[0], ", a negligible difference: inside ±5 % (TOST Holm-adjusted "
				       "p = "));
	strvec_clear(&v);
	compare_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tost_welch),
		cmocka_unit_test(test_tost_blocked),
		cmocka_unit_test(test_outcome_boundaries),
		cmocka_unit_test(test_more),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_sequential_claims),
		cmocka_unit_test(test_advice_ucb),
		cmocka_unit_test(test_aa_alarm_words),
		cmocka_unit_test(test_qualification),
		cmocka_unit_test(test_noise_words),
		cmocka_unit_test(test_summary_outcomes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
