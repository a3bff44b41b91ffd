// SPDX-License-Identifier: MIT
/*
 * decide.c: what a tested difference decides against an equivalence margin of +-m %: the
 * difference test as the comparison made it (Holm over the claims), the equivalence test by
 * two one-sided tests (TOST) against -m and +m, Holm over the same family, and one of four
 * outcomes: different, equivalent within +-m, negligible (significant but inside the margin)
 * or undecided, with the rounds a decision would still need.  A blocked difference is judged
 * on the log scale (the ratio's bounds log(1 - m) and log(1 + m)), a Welch difference on the
 * difference itself with the bounds -+m % of the base's mean, as its interval is shown.
 * docs/COMPARE.md, "Deciding".
 */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compareP.h"
#include "compare/precision.h"

const char *compare_outcome_name(enum cmp_outcome o)
{
	switch (o) {
	case OUT_DIFFERENT: return "different";
	case OUT_EQUIVALENT: return "equivalent";
	case OUT_NEGLIGIBLE: return "negligible";
	case OUT_UNDECIDED: return "undecided";
	default: return "";
	}
}

bool compare_delta_marked(const struct cmp_delta *d)
{
	return d->present && d->sig == SIG_YES && d->outcome == OUT_DIFFERENT;
}

/* A tested delta: the difference test ran on it (repeats, not n/a, not within one run). */
static bool tested(const struct cmp_delta *d)
{
	return d->present && (d->sig == SIG_YES || d->sig == SIG_NO) && isfinite(d->se) &&
	       d->df >= 1;
}

/* The estimate and the equivalence bounds of a tested delta on its test's scale. */
static void scale(const struct cmp_row *row, const struct cmp_delta *d, double margin,
		  double *est, double *lo, double *hi)
{
	if (d->blocked) {
		*est = log1p(d->pct / 100);
		*lo = log1p(-margin / 100);
		*hi = log1p(margin / 100);
	} else {
		double base = fabs(row->cells[d->base].s.mean);

		*est = d->abs;
		*lo = -margin / 100 * base;
		*hi = margin / 100 * base;
	}
}

/* The TOST p and its 90 % interval. */
static void tost(const struct cmp_row *row, struct cmp_delta *d, double margin)
{
	double est, lo, hi, q = stats_t_quantile(1 - STATS_ALPHA, d->df);

	scale(row, d, margin, &est, &lo, &hi);
	d->p_eq = stats_tost(est, d->se, d->df, lo, hi);
	if (d->blocked) {
		d->eq_lo_pct = log_pct(est - q * d->se);
		d->eq_hi_pct = log_pct(est + q * d->se);
	} else {
		double base = fabs(row->cells[d->base].s.mean);

		d->eq_lo_pct = base > 0 ? (est - q * d->se) / base * 100 : NAN;
		d->eq_hi_pct = base > 0 ? (est + q * d->se) / base * 100 : NAN;
	}
}

/*
 * Would n samples (rounds, or runs per label) decide at level a (the family's first Holm
 * step), if the estimate stayed and the standard error shrank as 1 / sqrt(n)?  The residual
 * degrees of freedom grow in proportion to n - 1.
 */
static bool decides(double est, double lo, double hi, double se, double df, double n0,
		    double n, double a, bool equivalence)
{
	double s = se * sqrt(n0 / n), f = n0 > 1 ? df * (n - 1) / (n0 - 1) : df;

	if (fabs(est) > stats_t_quantile(1 - a / 2, f) * s)
		return true;
	if (!equivalence)
		return false;
	return est - stats_t_quantile(1 - a, f) * s > lo && est + stats_t_quantile(1 - a, f) * s < hi;
}

/* The further samples a decision needs at this noise and estimate (bisection: a decision
 * only comes closer with more samples), INFINITY beyond COMPARE_MAX_MORE. */
static double more_needed(const struct compare *c, const struct cmp_row *row,
			  const struct cmp_delta *d, size_t g, double a)
{
	double est, lo, hi, n0, lo_n, hi_n;
	double margin = c->margin_pct > 0 ? c->margin_pct : COMPARE_FLOOR_PCT;

	scale(row, d, margin, &est, &lo, &hi);
	if (d->blocked)
		n0 = c->nrounds;
	else
		n0 = (double)MIN(c->groups[g].nruns, c->groups[d->base].nruns);
	if (!(n0 >= 2) || !(d->se > 0))
		return NAN;
	lo_n = n0;
	hi_n = n0 + COMPARE_MAX_MORE;
	if (!decides(est, lo, hi, d->se, d->df, n0, hi_n, a, c->margin_pct > 0))
		return INFINITY;
	while (hi_n - lo_n > 1) {
		double mid = floor((lo_n + hi_n) / 2);

		if (decides(est, lo, hi, d->se, d->df, n0, mid, a, c->margin_pct > 0))
			hi_n = mid;
		else
			lo_n = mid;
	}
	return hi_n - n0;
}

/* The outcome of a delta from its two tests. */
static void outcome(const struct compare *c, const struct cmp_row *row, struct cmp_delta *d,
		    size_t g, double p_eq, double level_eq, size_t family)
{
	bool diff = d->sig == SIG_YES, eq = p_eq < level_eq;

	if (diff)
		d->outcome = eq ? OUT_NEGLIGIBLE : OUT_DIFFERENT;
	else if (eq && c->margin_pct > 0)
		d->outcome = OUT_EQUIVALENT;
	else
		d->outcome = OUT_UNDECIDED;
	if (d->outcome == OUT_NEGLIGIBLE)
		d->better = 0; /* real, but too small to be better or worse */
	/* a lab's look names one undecided claim at most: compare_decided() works it out */
	if (d->outcome == OUT_UNDECIDED && !c->claims_only)
		d->more = more_needed(c, row, d, g, STATS_ALPHA / (double)MAX(family, (size_t)1));
}

/* Is group g a claim (not the baseline, not an A/A copy, not aborted)? */
static bool claim(const struct compare *c, size_t g)
{
	return c->groups[g].base >= 0 && c->groups[g].aa_of < 0 && !c->groups[g].aborted;
}

/* Holm over one family's TOST p-values: the headline deltas of the groups in want[]. */
static void holm_eq(struct compare *c, const bool *want, double level)
{
	size_t cap = c->ngroups * COMPARE_NHEADLINE, n = 0;
	struct cmp_delta **ds = xcalloc(cap + 1, sizeof(*ds));
	const struct cmp_row **rows = xcalloc(cap + 1, sizeof(*rows));
	size_t *gs = xcalloc(cap + 1, sizeof(size_t));
	double *p = xcalloc(cap + 1, sizeof(double));

	for (size_t r = 0; r < c->nrows; r++) {
		if (!compare_is_headline(c->rows[r].m->id))
			continue;
		for (size_t g = 0; g < c->ngroups; g++) {
			struct cmp_delta *d = &c->rows[r].deltas[g];

			if (!want[g] || !tested(d) || !d->corrected || isnan(d->p_eq))
				continue;
			ds[n] = d;
			rows[n] = &c->rows[r];
			gs[n] = g;
			p[n++] = d->p_eq;
		}
	}
	stats_holm(p, n, p);
	for (size_t i = 0; i < n; i++) {
		ds[i]->p_eq_holm = p[i];
		outcome(c, rows[i], ds[i], gs[i], p[i], level, n);
	}
	free(ds);
	free(rows);
	free(gs);
	free(p);
}

/* The levels the claims are decided at: fixed, or the boundary of a lab's last look. */
static void levels(struct compare *c)
{
	c->level_diff = c->level_eq = STATS_ALPHA;
	if (!c->sequential)
		return;
	c->seq.rounds = c->nrounds;
	if (c->seq.rounds > c->seq.max_rounds)
		c->seq.max_rounds = c->seq.rounds;
	c->level_diff = seq_nominal(&c->seq, STATS_ALPHA, 2);
	c->level_eq = seq_nominal(&c->seq, STATS_ALPHA, 1);
	if (isnan(c->level_diff) || isnan(c->level_eq)) {
		/* fewer rounds than the first look: the plan does not describe these results */
		c->sequential = false;
		c->level_diff = c->level_eq = STATS_ALPHA;
	}
}

void compare_decide(struct compare *c)
{
	double margin = c->margin_pct > 0 ? c->margin_pct : COMPARE_FLOOR_PCT;
	bool *want = xcalloc(c->ngroups + 1, sizeof(bool));

	for (size_t r = 0; r < c->nrows; r++) {
		const struct cmp_row *row = &c->rows[r];

		for (size_t g = 0; g < c->ngroups; g++) {
			struct cmp_delta *d = &c->rows[r].deltas[g];

			d->p_eq = d->p_eq_holm = d->eq_lo_pct = d->eq_hi_pct = d->more = NAN;
			d->outcome = OUT_NONE;
			d->margin_pct = margin;
			d->floor_only = !(c->margin_pct > 0);
			d->level = d->corrected && claim(c, g) ? c->level_diff : STATS_ALPHA;
			if (!tested(d))
				continue;
			tost(row, d, margin);
			/* a row tested on its own: both tests at the level of one test */
			if (!d->corrected)
				outcome(c, row, d, g, d->p_eq, STATS_ALPHA, 1);
		}
	}
	/* the claims, one family; each A/A check its own (as the differences) */
	for (size_t g = 0; g < c->ngroups; g++)
		want[g] = claim(c, g);
	holm_eq(c, want, c->level_eq);
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].aa_of < 0 || c->groups[g].aborted)
			continue;
		memset(want, 0, c->ngroups * sizeof(bool));
		want[g] = true;
		holm_eq(c, want, STATS_ALPHA);
	}
	free(want);
}

void compare_decide_levels(struct compare *c)
{
	levels(c);
}

int compare_decided(const struct compare *c, struct decided_check *dc, bool more_of_each)
{
	double more;

	memset(dc, 0, sizeof(*dc));
	dc->group = -1;
	dc->more = NAN;
	for (size_t g = 0; g < c->ngroups; g++) {
		if (!claim(c, g))
			continue;
		for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
			const struct cmp_row *row = compare_row(c, compare_headline[k]);
			const struct cmp_delta *d = row ? &row->deltas[g] : NULL;

			if (!d || !d->corrected || d->outcome == OUT_NONE)
				continue;
			dc->claims++;
			dc->different += d->outcome == OUT_DIFFERENT;
			dc->equivalent += d->outcome == OUT_EQUIVALENT;
			dc->negligible += d->outcome == OUT_NEGLIGIBLE;
			if (d->outcome != OUT_UNDECIDED) {
				dc->decided++;
				continue;
			}
			more = isnan(d->more) && c->claims_only && more_of_each ?
			       more_needed(c, row, d, g, STATS_ALPHA / (double)c->nclaims) : d->more;
			/* the one furthest from a decision names the lab's state */
			if (dc->group < 0 || !(more <= dc->more)) {
				dc->group = (int)g;
				dc->metric = row->m->what;
				dc->more = more;
			}
		}
	}
	return dc->claims ? 0 : -ENOENT;
}
