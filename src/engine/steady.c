// SPDX-License-Identifier: MIT
/* steady.c: the SNIA PTS steady-state rule on interval means, live or on a timeline. */
#include "engine/steady.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

void steady_rule_default(struct steady_rule *r)
{
	*r = (struct steady_rule){ .window = STEADY_WINDOW, .interval_s = STEADY_INTERVAL_S,
				   .range_pct = STEADY_RANGE_PCT,
				   .excursion_pct = STEADY_EXCURSION_PCT };
}

void steady_rule_of(const struct run_config *c, struct steady_rule *r)
{
	steady_rule_default(r);
	if (c->steady_window >= 2)
		r->window = MIN(c->steady_window, (unsigned int)STEADY_WINDOW_MAX);
	if (c->steady_interval_s >= 1 && c->steady_interval_s < 1e7)
		r->interval_s = (unsigned int)(c->steady_interval_s + 0.5);
	if (c->steady_range_pct > 0)
		r->range_pct = c->steady_range_pct;
	if (c->steady_excursion_pct > 0)
		r->excursion_pct = c->steady_excursion_pct;
}

bool steady_judge(const double *y, size_t n, const struct steady_rule *r, struct steady_fit *f)
{
	double sum = 0, mn = INFINITY, mx = -INFINITY, sxy = 0, sxx = 0, xm, mean;

	*f = (struct steady_fit){ .mean = NAN, .min = NAN, .max = NAN, .range_pct = NAN,
				  .slope = NAN, .excursion_pct = NAN };
	if (n < 2)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(y[i]))
			return false;
		sum += y[i];
		mn = fmin(mn, y[i]);
		mx = fmax(mx, y[i]);
	}
	mean = sum / (double)n;
	/* least squares against the rounds 0..n-1: slope = Sxy / Sxx */
	xm = (double)(n - 1) / 2;
	for (size_t i = 0; i < n; i++) {
		sxy += ((double)i - xm) * (y[i] - mean);
		sxx += ((double)i - xm) * ((double)i - xm);
	}
	f->mean = mean;
	f->min = mn;
	f->max = mx;
	f->slope = sxy / sxx;
	if (!(mean > 0))
		return false;
	f->range_pct = (mx - mn) / mean * 100;
	f->excursion_pct = fabs(f->slope) * (double)(n - 1) / mean * 100;
	/* decided by products, not the rounded quotients: 20 of 100 is within 20 % */
	f->holds = (mx - mn) * 100 <= r->range_pct * mean &&
		   fabs(f->slope) * (double)(n - 1) * 100 <= r->excursion_pct * mean;
	return f->holds;
}

/* ---- the rule a second at a time ---- */

void steady_track_init(struct steady_track *t, const struct steady_rule *r)
{
	memset(t, 0, sizeof(*t));
	t->rule = *r;
	t->ring = xcalloc(r->window, sizeof(double));
	t->first_means = xcalloc(r->window, sizeof(double));
	t->last_fit = (struct steady_fit){ .mean = NAN };
}

void steady_track_release(struct steady_track *t)
{
	free(t->ring);
	free(t->first_means);
	memset(t, 0, sizeof(*t));
}

/* The latest window's means, oldest first, into y[W]. */
static void window_now(const struct steady_track *t, double *y)
{
	unsigned int w = t->rule.window;

	for (unsigned int k = 0; k < w; k++)
		y[k] = t->ring[(t->intervals - w + k) % w];
}

bool steady_track_second(struct steady_track *t, double num, double den)
{
	unsigned int w = t->rule.window;
	double mean, *y;
	bool holds;

	t->num += num;
	t->den += den;
	if (++t->secs < t->rule.interval_s)
		return false;
	mean = t->den > 0 ? t->num / t->den : NAN;
	t->data |= isfinite(mean);
	t->ring[t->intervals % w] = mean;
	t->intervals++;
	t->num = t->den = 0;
	t->secs = 0;
	if (t->intervals < w)
		return false;
	y = xcalloc(w, sizeof(double));
	window_now(t, y);
	holds = steady_judge(y, w, &t->rule, &t->last_fit);
	t->last_judged = true;
	if (holds && !t->attained) {
		t->attained = true;
		t->first = t->intervals - w;
		memcpy(t->first_means, y, w * sizeof(double));
		t->first_fit = t->last_fit;
	}
	free(y);
	return holds;
}

void steady_track_result(const struct steady_track *t, struct steady_metric *m)
{
	unsigned int w = t->rule.window, iv = t->rule.interval_s;
	const struct steady_fit *f = t->attained ? &t->first_fit : &t->last_fit;
	uint64_t start = t->attained ? t->first : t->intervals - w;

	steady_metric_release(m);
	m->from_s = m->to_s = NAN;
	m->mean = m->min = m->max = m->range_pct = m->slope = m->excursion_pct = NAN;
	if (!t->data && t->intervals)
		m->state = STEADY_NO_DATA;
	else if (t->intervals < w)
		m->state = STEADY_TOO_SHORT;
	else
		m->state = t->attained ? STEADY_ATTAINED : STEADY_NOT_ATTAINED;
	if (m->state != STEADY_ATTAINED && m->state != STEADY_NOT_ATTAINED)
		return;
	m->holds_at_end = t->last_judged && t->last_fit.holds;
	m->from_s = (double)start * iv;
	m->to_s = (double)(start + w) * iv;
	m->mean = f->mean;
	m->min = f->min;
	m->max = f->max;
	m->range_pct = f->range_pct;
	m->slope = f->slope;
	m->excursion_pct = f->excursion_pct;
	m->n = w;
	m->means = xcalloc(w, sizeof(double));
	if (t->attained)
		memcpy(m->means, t->first_means, w * sizeof(double));
	else
		window_now(t, m->means);
}

/* ---- on a result's timeline ---- */

#define ROWS_AT_ONCE 4096

int steady_from_timeline(const struct timeline *t, const struct steady_rule *r,
			 struct steady_state *out)
{
	int rd = timeline_col(t, "db_read_ops"), wr = timeline_col(t, "db_write_ops");
	int lat = timeline_col(t, "db_read_lat_mean_us");
	struct steady_track ti, tl;
	double *rows;
	int ret = 0;

	steady_metric_release(&out->iops);
	steady_metric_release(&out->db_read_lat);
	out->present = false;
	if (rd < 0 || wr < 0 || lat < 0)
		return 0;
	steady_track_init(&ti, r);
	steady_track_init(&tl, r);
	rows = xcalloc((size_t)ROWS_AT_ONCE * t->ncols, sizeof(double));
	for (size_t first = 0; first < t->nrows && !ret; first += ROWS_AT_ONCE) {
		size_t n = MIN((size_t)ROWS_AT_ONCE, t->nrows - first);

		ret = timeline_rows(t, first, n, rows);
		for (size_t i = 0; i < n && !ret; i++) {
			const double *row = &rows[i * t->ncols];
			double reads = isfinite(row[rd]) ? row[rd] : 0;

			(void)steady_track_second(&ti, row[rd] + row[wr], 1);
			(void)steady_track_second(&tl, reads > 0 ? reads * row[lat] / 1e3 : 0, reads);
		}
	}
	if (!ret) {
		out->present = true;
		out->window = r->window;
		out->interval_s = r->interval_s;
		out->range_limit_pct = r->range_pct;
		out->excursion_limit_pct = r->excursion_pct;
		steady_track_result(&ti, &out->iops);
		steady_track_result(&tl, &out->db_read_lat);
	}
	free(rows);
	steady_track_release(&ti);
	steady_track_release(&tl);
	return ret;
}

/* ---- in words ---- */

char *steady_metric_text(const struct steady_metric *m, const struct steady_state *rule,
			 const char *unit, int digits)
{
	struct strbuf sb = STRBUF_INIT;

	switch (m->state) {
	case STEADY_ATTAINED:
	case STEADY_NOT_ATTAINED:
		if (m->state == STEADY_ATTAINED)
			strbuf_addf(&sb, "attained from %.0f s (window", m->from_s);
		else
			strbuf_addstr(&sb, "NOT attained (last window");
		strbuf_addf(&sb, " %.0f-%.0f s: mean %.*f%s, range %.1f %%, excursion %.1f %%)",
			    m->from_s, m->to_s, digits, m->mean, unit, m->range_pct,
			    m->excursion_pct);
		if (m->state == STEADY_ATTAINED && !m->holds_at_end)
			strbuf_addstr(&sb, "; not steady at the end");
		break;
	case STEADY_TOO_SHORT:
		strbuf_addf(&sb, "too short to judge (a window is %u x %g s)", rule->window,
			    rule->interval_s);
		break;
	case STEADY_NO_DATA:
		strbuf_addstr(&sb, "no data");
		break;
	default:
		strbuf_addstr(&sb, "not recorded");
		break;
	}
	return strbuf_detach(&sb, NULL);
}
