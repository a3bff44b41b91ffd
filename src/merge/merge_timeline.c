// SPDX-License-Identifier: MIT
/*
 * merge_timeline.c: the cluster's per-second timeline.  Each host's row i covers the second
 * after its measure_started_at + i (its own clock, minus its measured offset: the
 * controller's clock); rows land in the cluster second nearest to that, counted from the
 * earliest host's start.  Per column: counts summed, mean latencies weighted by the ops of
 * their class, maximum latencies the largest, CPU the mean; a "hosts" column says how many
 * hosts each second holds (fewer at the edges when the starts differ).
 */
#include "merge/mergeP.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/utctime.h"

/* Largest start difference aligned on the wall clock (a day); beyond it, by row index. */
#define MERGE_MAX_SHIFT_S 86400

enum col_kind { K_T, K_SUM, K_WMEAN, K_MAX, K_MEAN };

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static enum col_kind kind_of(const char *col)
{
	if (!strcmp(col, "t_s"))
		return K_T;
	if (ends_with(col, "_lat_mean_us"))
		return K_WMEAN;
	if (ends_with(col, "_lat_max_us"))
		return K_MAX;
	if (!strcmp(col, "cpu_pct"))
		return K_MEAN;
	return K_SUM; /* *_ops, *_bytes, transactions */
}

/* The "<class>_ops" column weighting a "<class>_lat_mean_us" one in t, or -1. */
static int weight_col(const struct timeline *t, const char *col)
{
	size_t n = strlen(col) - strlen("_lat_mean_us");
	char *name = xasprintf("%.*s_ops", (int)n, col);
	int c = timeline_col(t, name);

	free(name);
	return c;
}

/* Does member m bring a timeline to merge? */
static bool has_timeline(const struct member *m)
{
	return m->complete && m->r.timeline.ncols;
}

/* m's measurement start on the controller's clock (ns), false when it has none. */
static bool ctrl_start(const struct member *m, int64_t *ns)
{
	if (!m->r.measure_started_at || utc_parse(m->r.measure_started_at, ns))
		return false;
	*ns -= isnan(m->in->offset_s) ? 0 : (int64_t)llround(m->in->offset_s * 1e9);
	return true;
}

/* Each member's rows' offset in cluster seconds into shift[] (all 0, and false returned, when
 * they are aligned by row index: a start unknown, or starts more than a day apart). */
static bool shifts(const struct merge *mg, long *shift)
{
	int64_t t0 = INT64_MAX, ns;

	for (size_t i = 0; i < mg->n; i++) {
		if (!has_timeline(&mg->m[i]))
			continue;
		if (!ctrl_start(&mg->m[i], &ns))
			return false;
		t0 = MIN(t0, ns);
	}
	for (size_t i = 0; i < mg->n; i++) {
		if (!has_timeline(&mg->m[i]) || !ctrl_start(&mg->m[i], &ns))
			continue;
		shift[i] = lround((ns - t0) / 1e9);
		/* starts a day apart are not one cell (or a host's clock or file is wrong): rows
		 * are not spread over a day of empty seconds, they are aligned by index */
		if (shift[i] > MERGE_MAX_SHIFT_S) {
			memset(shift, 0, mg->n * sizeof(long));
			return false;
		}
	}
	return true;
}

/* The cluster's seconds as they fill: per second and column, a sum (or the largest), its
 * weights and count; per second the hosts in it. */
struct tl_sum {
	size_t nc, nrows;
	const char **cols;   /* the first timeline's columns, then "hosts" */
	enum col_kind *kind;
	double *val, *wsum, *wden, *cnt;
	unsigned int *hosts;
};

static void tl_sum_init(struct tl_sum *a, const struct timeline *ref, size_t nrows)
{
	a->nc = ref->ncols;
	a->nrows = nrows;
	a->cols = xcalloc(a->nc + 1, sizeof(char *));
	a->kind = xcalloc(a->nc + 1, sizeof(*a->kind));
	for (size_t c = 0; c < a->nc; c++) {
		a->cols[c] = ref->cols[c];
		a->kind[c] = kind_of(a->cols[c]);
	}
	a->cols[a->nc] = "hosts";
	a->val = xcalloc(nrows * a->nc + 1, sizeof(double));
	a->wsum = xcalloc(nrows * a->nc + 1, sizeof(double));
	a->wden = xcalloc(nrows * a->nc + 1, sizeof(double));
	a->cnt = xcalloc(nrows * a->nc + 1, sizeof(double));
	a->hosts = xcalloc(nrows + 1, sizeof(unsigned int));
}

static void tl_sum_release(struct tl_sum *a)
{
	free(a->cols);
	free(a->kind);
	free(a->val);
	free(a->wsum);
	free(a->wden);
	free(a->cnt);
	free(a->hosts);
}

/* One host's timeline t, its row r in cluster second r + shift, into a. */
static void tl_sum_add(struct tl_sum *a, const struct timeline *t, size_t shift)
{
	const size_t nc = a->nc;
	int *map = xcalloc(nc, sizeof(int)), *wmap = xcalloc(nc, sizeof(int));
	double *hr = xcalloc(t->ncols + 1, sizeof(double));

	for (size_t c = 0; c < nc; c++) {
		map[c] = timeline_col(t, a->cols[c]);
		wmap[c] = a->kind[c] == K_WMEAN ? weight_col(t, a->cols[c]) : -1;
	}
	for (size_t r = 0; r < t->nrows; r++) {
		size_t k = r + shift;

		if (timeline_row(t, r, hr))
			break;
		a->hosts[k]++;
		for (size_t c = 0; c < nc; c++) {
			double v = map[c] >= 0 ? hr[map[c]] : NAN, *s = &a->val[k * nc + c];

			if (!isfinite(v))
				continue;
			switch (a->kind[c]) {
			case K_T:
				break;
			case K_SUM:
				*s += v;
				break;
			case K_MAX:
				*s = fmax(*s, v);
				break;
			case K_MEAN:
				*s += v;
				a->cnt[k * nc + c]++;
				break;
			case K_WMEAN: {
				double w = wmap[c] >= 0 ? hr[wmap[c]] : NAN;

				if (isfinite(w) && w > 0) {
					a->wsum[k * nc + c] += v * w;
					a->wden[k * nc + c] += w;
				}
				break;
			}
			}
		}
	}
	free(map);
	free(wmap);
	free(hr);
}

/* The summed seconds as the rows of out (the columns of a, then "hosts"). */
static void tl_sum_rows(const struct tl_sum *a, struct timeline *out)
{
	const size_t nc = a->nc;
	double *row = xcalloc(nc + 1, sizeof(double));

	timeline_init(out, a->cols, nc + 1);
	for (size_t k = 0; k < a->nrows; k++) {
		for (size_t c = 0; c < nc; c++) {
			const double *s = &a->val[k * nc + c];

			switch (a->kind[c]) {
			case K_T:
				row[c] = (double)(k + 1);
				break;
			case K_MEAN:
				row[c] = a->cnt[k * nc + c] ? *s / a->cnt[k * nc + c] : NAN;
				break;
			case K_WMEAN:
				/* a second without I/O of the class: 0, as fslab run writes it */
				row[c] = a->wden[k * nc + c] > 0 ? a->wsum[k * nc + c] / a->wden[k * nc + c]
								 : 0;
				break;
			default:
				row[c] = *s;
			}
		}
		row[nc] = a->hosts[k];
		timeline_add_row(out, row);
	}
	free(row);
}

void merge_timeline(struct merge *mg)
{
	const struct timeline *ref = NULL;
	struct tl_sum sum;
	size_t nrows = 0;
	long *shift;
	bool wall;

	for (size_t i = 0; i < mg->n && !ref; i++)
		if (has_timeline(&mg->m[i]))
			ref = &mg->m[i].r.timeline;
	shift = xcalloc(mg->n, sizeof(long));
	wall = shifts(mg, shift);
	mg->out->cluster.timeline = xstrdup(wall ? "wall-clock" : "second index");
	if (!ref) {
		free(shift);
		return;
	}
	for (size_t i = 0; i < mg->n; i++)
		if (has_timeline(&mg->m[i]))
			nrows = MAX(nrows, mg->m[i].r.timeline.nrows + (size_t)shift[i]);
	tl_sum_init(&sum, ref, nrows);
	for (size_t i = 0; i < mg->n; i++)
		if (has_timeline(&mg->m[i]))
			tl_sum_add(&sum, &mg->m[i].r.timeline, (size_t)shift[i]);
	tl_sum_rows(&sum, &mg->out->timeline);
	tl_sum_release(&sum);
	free(shift);
}
