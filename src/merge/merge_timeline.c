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

#include "base.h"
#include "utctime.h"

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

void merge_timeline(struct merge *mg)
{
	struct fslab_result *out = mg->out;
	const struct timeline *ref = NULL;
	int64_t t0 = INT64_MAX;
	bool wall = true;
	size_t nc, nrows = 0;
	long *shift;
	double *val, *wsum, *wden, *cnt, *row;
	unsigned int *hosts;
	enum col_kind *kind;
	const char **cols;

	for (size_t i = 0; i < mg->n; i++) {
		struct member *m = &mg->m[i];
		int64_t ms;

		if (!m->complete || !m->r.timeline.ncols)
			continue;
		if (!ref)
			ref = &m->r.timeline;
		if (!m->r.measure_started_at || utc_parse(m->r.measure_started_at, &ms)) {
			wall = false;
			continue;
		}
		ms -= isnan(m->in->offset_s) ? 0 : (int64_t)llround(m->in->offset_s * 1e9);
		t0 = MIN(t0, ms);
	}
	if (!ref) {
		out->cluster.timeline = xstrdup(wall ? "wall-clock" : "second index");
		return;
	}
	shift = xcalloc(mg->n, sizeof(long));
	for (size_t i = 0; wall && i < mg->n; i++) {
		struct member *m = &mg->m[i];
		int64_t ms;

		if (!m->complete || !m->r.timeline.ncols || utc_parse(m->r.measure_started_at, &ms))
			continue;
		ms -= isnan(m->in->offset_s) ? 0 : (int64_t)llround(m->in->offset_s * 1e9);
		shift[i] = lround((ms - t0) / 1e9);
		/* starts a day apart are not one cell (or a host's clock or file is wrong): rows
		 * are not spread over a day of empty seconds, they are aligned by index */
		if (shift[i] > MERGE_MAX_SHIFT_S)
			wall = false;
	}
	if (!wall)
		memset(shift, 0, mg->n * sizeof(long));
	out->cluster.timeline = xstrdup(wall ? "wall-clock" : "second index");
	for (size_t i = 0; i < mg->n; i++)
		if (mg->m[i].complete && mg->m[i].r.timeline.ncols)
			nrows = MAX(nrows, mg->m[i].r.timeline.nrows + (size_t)shift[i]);
	nc = ref->ncols;
	cols = xcalloc(nc + 1, sizeof(char *));
	kind = xcalloc(nc + 1, sizeof(*kind));
	for (size_t c = 0; c < nc; c++) {
		cols[c] = ref->cols[c];
		kind[c] = kind_of(cols[c]);
	}
	cols[nc] = "hosts";
	val = xcalloc(nrows * nc + 1, sizeof(double));
	wsum = xcalloc(nrows * nc + 1, sizeof(double));
	wden = xcalloc(nrows * nc + 1, sizeof(double));
	cnt = xcalloc(nrows * nc + 1, sizeof(double));
	hosts = xcalloc(nrows + 1, sizeof(unsigned int));
	for (size_t i = 0; i < mg->n; i++) {
		const struct member *m = &mg->m[i];
		const struct timeline *t = &m->r.timeline;
		int *map, *wmap;
		double *hr;

		if (!m->complete || !t->ncols)
			continue;
		map = xcalloc(nc, sizeof(int));
		wmap = xcalloc(nc, sizeof(int));
		hr = xcalloc(t->ncols + 1, sizeof(double));
		for (size_t c = 0; c < nc; c++) {
			map[c] = timeline_col(t, cols[c]);
			wmap[c] = kind[c] == K_WMEAN ? weight_col(t, cols[c]) : -1;
		}
		for (size_t r = 0; r < t->nrows; r++) {
			size_t k = r + (size_t)shift[i];

			if (timeline_row(t, r, hr))
				break;
			hosts[k]++;
			for (size_t c = 0; c < nc; c++) {
				double v = map[c] >= 0 ? hr[map[c]] : NAN, *a = &val[k * nc + c];

				if (!isfinite(v))
					continue;
				switch (kind[c]) {
				case K_T:
					break;
				case K_SUM:
					*a += v;
					break;
				case K_MAX:
					*a = fmax(*a, v);
					break;
				case K_MEAN:
					*a += v;
					cnt[k * nc + c]++;
					break;
				case K_WMEAN: {
					double w = wmap[c] >= 0 ? hr[wmap[c]] : NAN;

					if (isfinite(w) && w > 0) {
						wsum[k * nc + c] += v * w;
						wden[k * nc + c] += w;
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
	timeline_init(&out->timeline, cols, nc + 1);
	row = xcalloc(nc + 1, sizeof(double));
	for (size_t k = 0; k < nrows; k++) {
		for (size_t c = 0; c < nc; c++) {
			double *a = &val[k * nc + c];

			switch (kind[c]) {
			case K_T:
				row[c] = (double)(k + 1);
				break;
			case K_MEAN:
				row[c] = cnt[k * nc + c] ? *a / cnt[k * nc + c] : NAN;
				break;
			case K_WMEAN:
				/* a second without I/O of the class: 0, as fslab run writes it */
				row[c] = wden[k * nc + c] > 0 ? wsum[k * nc + c] / wden[k * nc + c] : 0;
				break;
			default:
				row[c] = *a;
			}
		}
		row[nc] = hosts[k];
		timeline_add_row(&out->timeline, row);
	}
	free(row);
	free(cols);
	free(kind);
	free(val);
	free(wsum);
	free(wden);
	free(cnt);
	free(hosts);
	free(shift);
}
