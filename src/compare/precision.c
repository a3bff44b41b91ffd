// SPDX-License-Identifier: MIT
/*
 * precision.c: one lab's rounds as blocks (precision.h): which results qualify, each row's
 * blocked model (ratios on the log scale, residual pooled over every label), where the noise
 * is (within a run, between runs, drift between rounds), extreme cells, the allocation advice,
 * and the adaptive lab's stop rule on interval widths; and the Welch interval of a difference
 * that is not blocked (the model's fallback, and every comparison outside a lab's rounds).
 */
#include "compare/precision.h"

#include "compare/compareP.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"

/* ---- the interval of a difference without blocks ---- */

void compare_welch_half(const struct cmp_row *row, size_t gi, struct cmp_delta *d)
{
	const struct cmp_cell *a = &row->cells[gi], *b = &row->cells[d->base];
	struct welch w;

	if (a->kind == b->kind && (a->kind == CELL_REPEATS || a->kind == CELL_BATCH) &&
	    !stats_welch(&a->s, &b->s, &w)) {
		/* interval of the difference, Welch degrees of freedom */
		double se = sqrt(a->s.sd * a->s.sd / (double)a->s.n +
				 b->s.sd * b->s.sd / (double)b->s.n);

		d->half = se > 0 ? stats_t_quantile(1 - (1 - STATS_CONF) / 2, w.df) * se : 0;
		d->half_pct = b->s.mean != 0 ? d->half / fabs(b->s.mean) * 100 : NAN;
	}
}

/* ---- which results form a blocked design ---- */

void compare_design(struct compare *c)
{
	size_t nlab = 0, hand = 0;
	const char *id = NULL;
	bool several = false;

	c->blocked = false;
	c->lab_id = NULL;
	c->nrounds = 0;
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].aborted)
			continue;
		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			const struct fslab_result *r = &c->results[c->groups[g].runs[i]];

			if (!r->lab.id) {
				hand++;
				continue;
			}
			nlab++;
			if (!id)
				id = r->lab.id;
			else if (strcmp(id, r->lab.id))
				several = true;
			c->nrounds = MAX(c->nrounds, r->lab.round);
		}
	}
	if (c->method != CMP_REPEATS)
		c->design = hand && !nlab ? "hand runs, one run per label" : "one run per label";
	else if (!nlab)
		c->design = "hand runs: no lab recorded its rounds";
	else if (hand)
		c->design = "lab runs and hand runs mixed";
	else if (several)
		c->design = "results of several labs mixed: their rounds are not the same blocks";
	else {
		c->design = "one lab's rounds";
		c->blocked = true;
		c->lab_id = id;
	}
}

/* ---- one row's blocked model ---- */

/* The groups a row's model pools: complete runs that measure the device (not a cache). */
static bool in_model(const struct compare *c, size_t g)
{
	return !c->groups[g].aborted && !c->groups[g].cache_served;
}

/*
 * The observations of a row: (group -> model label, round -> block, log value).  Returns the
 * count, or 0 with *why set when the row cannot be modelled.  map[g] is the model label of
 * group g or SIZE_MAX.
 */
static size_t row_obs(const struct compare *c, const struct cmp_row *row, struct rcbd_obs *obs,
		      size_t *map, size_t *nlabels, const char **why)
{
	size_t n = 0;

	*nlabels = 0;
	for (size_t g = 0; g < c->ngroups; g++) {
		size_t before = n;

		map[g] = SIZE_MAX;
		if (!in_model(c, g))
			continue;
		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			const struct fslab_result *r = &c->results[c->groups[g].runs[i]];
			double v = compare_run_value(r, row->m);

			if (isnan(v))
				continue;
			if (!(v > 0) || !isfinite(v)) {
				*why = "a value of 0 has no ratio";
				return 0;
			}
			obs[n++] = (struct rcbd_obs){ .label = *nlabels, .block = r->lab.round - 1,
						      .y = log(v) };
		}
		if (n > before)
			map[g] = (*nlabels)++;
	}
	if (*nlabels < 2) {
		*why = "fewer than 2 labels with values";
		return 0;
	}
	return n;
}

/* Fit a row's model: 0 (f filled, release it), or -1 with *why. */
static int fit_row(const struct compare *c, const struct cmp_row *row, struct rcbd_fit *f,
		   size_t *map, struct rcbd_obs **obsp, size_t *np, const char **why)
{
	struct rcbd_obs *obs = xcalloc(c->nresults + 1, sizeof(*obs));
	size_t nl, n = row_obs(c, row, obs, map, &nl, why);
	int ret;

	if (!n) {
		free(obs);
		return -1;
	}
	ret = rcbd_fit(obs, n, nl, c->nrounds, f);
	if (ret) {
		*why = ret == -EDOM ? "labels and rounds do not overlap enough for the model"
				    : "the model could not be fitted";
		free(obs);
		return -1;
	}
	*obsp = obs;
	*np = n;
	return 0;
}

void compare_block_row(struct compare *c, struct cmp_row *row)
{
	size_t *map = xcalloc(c->ngroups, sizeof(size_t)), n;
	struct rcbd_obs *obs = NULL;
	struct rcbd_fit f;
	const char *why = NULL;

	if (!c->blocked || compare_metric_is_text(row->m))
		goto out;
	if (fit_row(c, row, &f, map, &obs, &n, &why)) {
		/* Welch's test stays; its interval was left to here */
		row->unblocked_why = why;
		for (size_t g = 0; g < c->ngroups; g++)
			if (row->deltas[g].present)
				compare_welch_half(row, g, &row->deltas[g]);
		goto out;
	}
	row->blocked = true;
	row->s2 = f.s2;
	row->df = f.df;
	for (size_t g = 0; g < c->ngroups; g++) {
		struct cmp_delta *d = &row->deltas[g];
		const struct cmp_group *grp = &c->groups[g];
		double base;
		struct rcbd_contrast k;

		/* the tests Welch's path made (present, not n/a) move to the model */
		if (!d->present || (d->sig != SIG_YES && d->sig != SIG_NO) || grp->base < 0 ||
		    map[g] == SIZE_MAX || map[grp->base] == SIZE_MAX)
			continue;
		base = row->cells[grp->base].s.mean;
		rcbd_contrast(&f, map[g], map[grp->base], &k);
		d->blocked = true;
		d->p = k.p;
		d->sig = k.p < STATS_ALPHA ? SIG_YES : SIG_NO;
		d->se = k.se;
		d->df = k.df;
		d->pct = log_pct(k.est);
		d->lo_pct = log_pct(k.lo);
		d->hi_pct = log_pct(k.hi);
		/* the ratio applied to the base's mean: the difference in the metric's unit */
		d->abs = fabs(base) * d->pct / 100;
		d->half = d->half_pct = NAN;
	}
	rcbd_release(&f);
out:
	free(obs);
	free(map);
}

/* ---- where the noise is ---- */

/* Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ" (days from civil, no timegm: Windows),
 * or NAN. */
static double iso_seconds(const char *s)
{
	int y, mo, d, h, mi, se;
	long long days;
	unsigned int yoe, doy, doe;
	int era;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &se) != 6 ||
	    mo < 1 || mo > 12 || d < 1 || d > 31)
		return NAN;
	/* H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", days_from_civil */
	y -= mo <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned int)(y - era * 400);
	doy = (153u * (unsigned int)(mo + (mo > 2 ? -3 : 9)) + 2) / 5 + (unsigned int)d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	days = (long long)era * 146097 + (long long)doe - 719468;
	return (double)days * 86400 + h * 3600 + mi * 60 + se;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A cell's wall-clock seconds beyond its measured ones (prep, initialisation, warm-up,
 * checksum pass, teardown, the lab's own steps), from the lab's timing as the results record
 * it: start of the next cell in the run order - start of this one - measured seconds; the
 * median over consecutive cells.  NAN when fewer than 2 consecutive pairs are known.
 */
static double fixed_seconds(const struct compare *c)
{
	size_t n = c->nresults, k = 0;
	double *v = xcalloc(n + 1, sizeof(double)), out = NAN;

	for (size_t i = 0; i < n; i++) {
		const struct fslab_result *a = &c->results[i];

		for (size_t j = 0; j < n && a->lab.id; j++) {
			const struct fslab_result *b = &c->results[j];
			double gap;

			if (!b->lab.id || strcmp(a->lab.id, b->lab.id) ||
			    b->lab.position != a->lab.position + 1)
				continue;
			gap = iso_seconds(b->started_at) - iso_seconds(a->started_at) - a->duration_s;
			if (isfinite(gap) && gap >= 0)
				v[k++] = gap;
		}
	}
	if (k >= 2) {
		qsort(v, k, sizeof(double), cmp_double);
		out = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
	return out;
}

/*
 * The squared coefficient of variation of a run's mean transactional IOPS from the noise
 * inside it: var(batch means) / k / mean^2 over its timeline; averaged over the runs.  NAN
 * when no run has batches.
 */
static double within_run(const struct compare *c, const struct metric_def *m, double *t_s)
{
	double sum = 0, secs = 0;
	size_t runs = 0, all = 0;

	for (size_t g = 0; g < c->ngroups; g++) {
		if (!in_model(c, g))
			continue;
		for (size_t i = 0; i < c->groups[g].nruns; i++) {
			const struct fslab_result *r = &c->results[c->groups[g].runs[i]];
			const struct timeline *t = &r->timeline;
			struct batch_plan bp;
			double *num, *den, out[STATS_BATCHES];
			struct sample s;
			size_t k;

			secs += r->duration_s;
			all++;
			if (stats_batch_plan(t->nrows, &bp))
				continue;
			num = xcalloc(t->nrows, sizeof(double));
			den = xcalloc(t->nrows, sizeof(double));
			k = compare_timeline_series(t, m, num, den) ? 0 :
			    stats_batch_means(num, den, &bp, out);
			free(num);
			free(den);
			if (k < 2)
				continue;
			stats_sample(out, k, &s);
			if (!(s.mean > 0))
				continue;
			sum += s.sd * s.sd / (double)k / (s.mean * s.mean);
			runs++;
		}
	}
	*t_s = all ? secs / (double)all : NAN;
	return runs ? sum / (double)runs : NAN;
}

static void add_outliers(struct compare *c, const struct cmp_row *row)
{
	size_t *map = xcalloc(c->ngroups, sizeof(size_t)), n;
	struct rcbd_obs *obs = NULL;
	struct rcbd_fit f;
	const char *why;

	if (fit_row(c, row, &f, map, &obs, &n, &why)) {
		free(map);
		return;
	}
	/* obs are in group order, runs in order, values present: walk the same way */
	for (size_t g = 0, k = 0; g < c->ngroups && k < n; g++) {
		if (map[g] == SIZE_MAX)
			continue;
		for (size_t i = 0; i < c->groups[g].nruns && k < n; i++) {
			size_t ri = c->groups[g].runs[i];

			if (isnan(compare_run_value(&c->results[ri], row->m)))
				continue;
			if (fabs(f.stdres[k]) > 3) {
				c->outliers = xrealloc(c->outliers,
						       (c->noutliers + 1) * sizeof(*c->outliers));
				c->outliers[c->noutliers++] = (struct cmp_outlier){
					.ri = ri, .metric = row->m->what, .z = f.stdres[k] };
			}
			k++;
		}
	}
	if (row->m->kind == MK_TRANS_IOPS) {
		struct noise *nz = &c->noise;
		double *ss = xcalloc(c->ngroups, sizeof(double));
		size_t *cnt = xcalloc(c->ngroups, sizeof(size_t));

		/* each label's own residual spread: the pooled model assumes they are alike */
		for (size_t g = 0, k = 0; g < c->ngroups && k < n; g++) {
			if (map[g] == SIZE_MAX)
				continue;
			for (size_t i = 0; i < c->groups[g].nruns && k < n; i++) {
				if (isnan(compare_run_value(&c->results[c->groups[g].runs[i]], row->m)))
					continue;
				ss[g] += f.resid[k] * f.resid[k];
				cnt[g]++;
				k++;
			}
		}
		c->spread = xcalloc(c->ngroups, sizeof(double));
		for (size_t g = 0; g < c->ngroups; g++)
			c->spread[g] = cnt[g] ? sqrt(ss[g] / cnt[g] * (double)n / f.df) * 100 : NAN;
		free(ss);
		free(cnt);

		nz->cell = f.s2;
		nz->drift = isfinite(f.ms_block) ? fmax(0, (f.ms_block - f.s2) / f.n0) : NAN;
		nz->within = within_run(c, row->m, &nz->t_s);
		nz->between = fmax(0, f.s2 - (isfinite(nz->within) ? nz->within : 0));
		nz->df = f.df;
		/* the within-run part comes from many batches and is known well; the cell's
		 * variance from a few residual df is not: plan with its upper bound */
		nz->between_ucb = fmax(0, noise_ucb(f.s2, f.df) -
					  (isfinite(nz->within) ? nz->within : 0));
		nz->fixed_s = fixed_seconds(c);
		c->have_noise = true;
	}
	rcbd_release(&f);
	free(obs);
	free(map);
}

void compare_noise(struct compare *c)
{
	if (!c->blocked)
		return;
	for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
		const struct cmp_row *row = compare_row(c, compare_headline[k]);

		if (row && row->blocked)
			add_outliers(c, row);
	}
}

int compare_advice(const struct compare *c, double target_pct, unsigned int max_rounds,
		   struct allocation *a)
{
	struct noise nz = c->noise;
	unsigned int cells = 0;

	if (!c->have_noise)
		return -EDOM;
	for (size_t g = 0; g < c->ngroups; g++)
		cells += !c->groups[g].aborted;
	/* runs too short for batch means: all of the residual counts as between runs, which
	 * advises the shortest cells (the noise inside a run is then not known to pay back) */
	if (!isfinite(nz.within)) {
		nz.within = 0;
		nz.between = nz.cell;
		nz.between_ucb = noise_ucb(nz.cell, nz.df);
	}
	/* plan with the upper bound of the spread between runs (what a handful of df allows) */
	nz.between = nz.between_ucb;
	return noise_allocate(&nz, cells, MAX(c->nclaims, (size_t)1), target_pct,
			      ADVICE_MIN_CELL_S, fmax(ADVICE_MIN_CELL_S, fmin(ADVICE_MAX_CELL_S,
			      ADVICE_MAX_STRETCH * round(nz.t_s))), max_rounds, a);
}

/* ---- the stop rule ---- */

int compare_precision(const struct compare *c, struct precision_check *pc)
{
	pc->worst_pct = NAN;
	pc->group = -1;
	pc->metric = NULL;
	pc->npairs = 0;
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];

		if (grp->base < 0 || grp->aborted || grp->aa_of >= 0)
			continue;
		pc->npairs++;
		for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
			const struct cmp_row *row = compare_row(c, compare_headline[k]);
			const struct cmp_delta *d = row ? &row->deltas[g] : NULL;

			/* widths only: the MDE of a tested claim, whatever its p or its sign */
			if (!d || !d->corrected || !isfinite(d->mde_pct))
				continue;
			if (isnan(pc->worst_pct) || d->mde_pct > pc->worst_pct) {
				pc->worst_pct = d->mde_pct;
				pc->group = (int)g;
				pc->metric = row->m->what;
			}
		}
	}
	return isnan(pc->worst_pct) ? -ENOENT : 0;
}
