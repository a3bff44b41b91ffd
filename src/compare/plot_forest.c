// SPDX-License-Identifier: MIT
/*
 * plot_forest.c: the chart of the answer (plots/forest.gp): what was decided, one row per
 * claim (a label against its base, one headline metric), its difference as a ratio with its
 * 95 % interval, the equivalence margin as a band, the outcome beside it.  The means per
 * label are a chart of their own further down (means.gp).
 */
#include "compare/plotP.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/os.h"

#define FOREST_WIDTH 1000
/* pixels: the title and axis, and one row */
#define FOREST_FIXED 130
#define FOREST_ROW 30

/* Colours of the outcomes (one meaning each, on screen and printed). */
#define RGB_BETTER 0x2e7d32
#define RGB_WORSE 0xc62828
#define RGB_EQUIVALENT 0x1565c0
#define RGB_NEUTRAL 0x616161
#define RGB_UNDECIDED 0xe65100

/* A delta's 95 % interval as ratios (blocked: the ratio's own; otherwise the difference's in
 * % of the base).  false when it has none. */
static bool ratio_interval(const struct cmp_delta *d, double *est, double *lo, double *hi)
{
	*est = 1 + d->pct / 100;
	if (d->blocked) {
		*lo = 1 + d->lo_pct / 100;
		*hi = 1 + d->hi_pct / 100;
	} else if (isfinite(d->half_pct)) {
		*lo = 1 + (d->pct - d->half_pct) / 100;
		*hi = 1 + (d->pct + d->half_pct) / 100;
	} else {
		*lo = *hi = *est;
	}
	return isfinite(*est) && *est > 0;
}

/* The words beside a row, and their colour. */
static const char *outcome_words(const struct cmp_delta *d, int *rgb)
{
	*rgb = RGB_NEUTRAL;
	switch (d->sig == SIG_YES || d->sig == SIG_NO ? d->outcome : OUT_NONE) {
	case OUT_DIFFERENT:
		*rgb = d->better > 0 ? RGB_BETTER : d->better < 0 ? RGB_WORSE : RGB_NEUTRAL;
		return d->better > 0 ? "different: better" : d->better < 0 ? "different: worse" :
		       "different";
	case OUT_EQUIVALENT:
		*rgb = RGB_EQUIVALENT;
		return "equivalent";
	case OUT_NEGLIGIBLE:
		return "negligible";
	case OUT_UNDECIDED:
		*rgb = RGB_UNDECIDED;
		return d->floor_only ? "not significant" : "undecided";
	default:
		return d->sig == SIG_WITHIN ? "one run each: no claim" : "not tested";
	}
}

/* The tics of a ratio axis from lo to hi, labelled as differences in %: 0 always, the others
 * no closer to a kept one than an eighth of the axis (readable at any range). */
static char *ratio_tics(double lo, double hi)
{
	static const double r[] = { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95, 1.05, 1.1,
				    1.25, 1.5, 2, 3, 5, 10, 20, 50, 100 };
	double gap = log(hi / lo) / 8, kept[ARRAY_SIZE(r) + 1];
	size_t nk = 0;
	struct os_memstream ms;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = os_memstream_open(&ms, &buf, &len);

	fprintf(m, "\"0 %%%%\" 1");
	kept[nk++] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(r); i++) {
		bool near = false;

		if (r[i] < lo || r[i] > hi)
			continue;
		for (size_t k = 0; k < nk && !near; k++)
			near = fabs(log(r[i]) - kept[k]) < gap;
		if (near)
			continue;
		kept[nk++] = log(r[i]);
		fprintf(m, ", \"%+.0f %%%%\" %g", (r[i] - 1) * 100, r[i]);
	}
	os_memstream_done(&ms);
	return buf;
}

/* The rows: every tested or shown headline difference of every compared label. */
static size_t forest_data(const struct compare *c, FILE *m, double *lo, double *hi,
			  size_t *width)
{
	size_t n = 0;

	fprintf(m, "# row, label, ratio, 95 %% low, 95 %% high, outcome, colour\n");
	/* the claims first, the A/A copies (the noise floor) after them */
	for (size_t i = 0; i < 2 * c->ngroups; i++) {
		size_t g = i % c->ngroups;
		const struct cmp_group *grp = &c->groups[g];

		if (grp->base < 0 || grp->aborted || (grp->aa_of >= 0) != (i >= c->ngroups))
			continue;
		for (size_t k = 0; k < COMPARE_NHEADLINE; k++) {
			const struct cmp_row *row = compare_row(c, compare_headline[k]);
			const struct cmp_delta *d = row ? &row->deltas[g] : NULL;
			double est, a, b;
			const char *words;
			char *lab;
			int rgb, w;

			if (!d || row->m->hidden || !d->present || !ratio_interval(d, &est, &a, &b))
				continue;
			/* an interval below a ratio of 0 (Welch, far apart): drawn from the edge */
			a = fmax(a, est / 100);
			words = outcome_words(d, &rgb);
			lab = plot_gp_escape(row->m->what);
			w = fprintf(m, "%zu \"%s%s vs %s: %s\"", ++n, grp->label,
				    grp->aa_of >= 0 ? " (A/A)" : "", c->groups[grp->base].label, lab);
			*width = MAX(*width, (size_t)(w > 0 ? w : 0));
			fprintf(m, " %.6g %.6g %.6g \"%s\" %d\n", est, a, b, words, rgb);
			free(lab);
			*lo = fmin(*lo, a);
			*hi = fmax(*hi, b);
		}
	}
	return n;
}

int plot_forest(struct plot_ctx *x)
{
	const struct compare *c = x->c;
	double lo = INFINITY, hi = 0, m = c->margin_pct > 0 ? c->margin_pct : 0;
	char *buf = NULL, *t, *tics, ns[24], xmin[32], xmax[32], mlo[32], mhi[32], size[48];
	size_t len = 0, n, width = 0;
	struct os_memstream ms;
	FILE *f = os_memstream_open(&ms, &buf, &len);
	const char *title;
	char lm[24];
	int ret;

	n = forest_data(c, f, &lo, &hi, &width);
	os_memstream_done(&ms);
	if (!n) {
		free(buf);
		return 0;
	}
	/* the band and 0 always in view, a little room on both sides */
	lo = fmin(lo, 1 - (m > 0 ? m : 2) / 100) / 1.04;
	hi = fmax(hi, 1 + (m > 0 ? m : 2) / 100) * 1.04;
	snprintf(xmin, sizeof(xmin), "%.6g", lo);
	snprintf(xmax, sizeof(xmax), "%.6g", hi);
	snprintf(mlo, sizeof(mlo), "%.6g", m > 0 ? 1 - m / 100 : 0);
	snprintf(mhi, sizeof(mhi), "%.6g", m > 0 ? 1 + m / 100 : 0);
	snprintf(ns, sizeof(ns), "%zu", n);
	/* the row names in the left margin: their characters (the quotes and row number
	 * counted too, which leaves the room a proportional font needs) */
	snprintf(lm, sizeof(lm), "%zu", MIN(width, (size_t)60));
	snprintf(size, sizeof(size), "%d,%zu", FOREST_WIDTH, FOREST_FIXED + FOREST_ROW * n);
	tics = ratio_tics(lo, hi);
	title = c->method == CMP_REPEATS ? "What was decided: each claim's difference with its "
		"95 % interval" : "Differences within one run per label (no claim: one run each)";
	t = plot_gp_escape(title);
	{
		const char *kv[] = {
			"TITLE", t, "N", ns, "XMIN", xmin, "XMAX", xmax, "XTICS", tics,
			"MLO", mlo, "MHI", mhi, "LMARGIN", lm, NULL,
		};

		ret = plot_draw_sized(x, "headline", title, "forest", size, buf, len, kv);
	}
	free(t);
	free(tics);
	free(buf);
	return ret;
}
