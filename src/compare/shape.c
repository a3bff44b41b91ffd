// SPDX-License-Identifier: MIT
/*
 * shape.c (compare): the load's shape against Jetstress's ratios (src/result/fidelity.h) next to the
 * verdict: the "Load shape" cell of the tables and the key table, and a line per label saying
 * which ratio left its band, by how much and why.  A result without a fidelity record (an
 * older fslab, an imported Jetstress report) has its ratios computed from its classes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compareP.h"
#include "compare/reportP.h"
#include "lib/strbuf.h"
#include "workloads/workload.h"

/* Short names for a table cell. */
static const char *const fid_short[FID_NR] = { "db:log", "reads:writes", "log write" };

bool compare_result_shape(const struct fslab_result *r, struct fidelity *f)
{
	bool jetstress_like = (workload_flags(r->config.workload) & WL_TRANSACTIONS) ||
			      !strcmp(compare_tool(r), "jetstress");

	*f = (struct fidelity){ 0 };
	if (r->fidelity.present) {
		*f = r->fidelity;
		f->why = NULL; /* borrowed below: r->fidelity.why */
		return true;
	}
	if (!jetstress_like)
		return false;
	fidelity_compute(f, r->classes);
	return f->present;
}

bool compare_any_shape(const struct compare *c)
{
	for (size_t i = 0; i < c->nresults; i++) {
		struct fidelity f;

		if (compare_result_shape(&c->results[i], &f))
			return true;
	}
	return false;
}

/* The smallest and largest value of ratio k over the group's runs with a shape, the runs
 * with one, and those outside the band. */
static void group_range(const struct compare *c, const struct cmp_group *g, int k, double *lo,
			double *hi, size_t *n, size_t *off)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	*n = *off = 0;
	for (size_t i = 0; i < g->nruns; i++) {
		struct fidelity f;

		if (!compare_result_shape(&c->results[g->runs[i]], &f) ||
		    !isfinite(f.r[k].value))
			continue;
		(*n)++;
		*off += !f.r[k].in_band;
		*lo = fmin(*lo, f.r[k].value);
		*hi = fmax(*hi, f.r[k].value);
	}
}

/* "13.3:1" or "13.3-14.1:1" (the unit once) */
static char *range_value(int k, double lo, double hi)
{
	static const char *const unit[FID_NR] = { ":1", "", " KiB" };
	int prec = k == FID_READ_WRITE ? 2 : 1;
	char a[32], b[32];

	snprintf(a, sizeof(a), "%.*f", prec, lo);
	snprintf(b, sizeof(b), "%.*f", prec, hi);
	if (!strcmp(a, b))
		return xasprintf("%s%s", a, unit[k]);
	return xasprintf("%s-%s%s", a, b, unit[k]);
}

/* How far the group's values go outside band k at worst: signed % of the nearer bound. */
static double worst_off(int k, double lo, double hi)
{
	double above = hi > fid_band[k][1] ? (hi / fid_band[k][1] - 1) * 100 : 0;
	double below = lo < fid_band[k][0] ? (lo / fid_band[k][0] - 1) * 100 : 0;

	return above >= -below ? above : below;
}

char *compare_shape_text(const struct compare *c, const struct cmp_group *g)
{
	struct strbuf sb = STRBUF_INIT;
	size_t any = 0;

	for (int k = 0; k < FID_NR; k++) {
		double lo, hi;
		size_t n, off;
		char *v;

		group_range(c, g, k, &lo, &hi, &n, &off);
		any += n;
		if (!off)
			continue;
		v = range_value(k, lo, hi);
		strbuf_add_sep(&sb, ", ");
		strbuf_addf(&sb, "%s %s", fid_short[k], v);
		if (off < n)
			strbuf_addf(&sb, " (%zu of %zu runs)", off, n);
		free(v);
	}
	if (!any)
		return xstrdup("-");
	if (!sb.len)
		return xstrdup("in band");
	return strbuf_detach(&sb, NULL);
}

/* One label's line: in band, or each ratio out of it with how far, then the first why. */
static void shape_line(struct doc *d, const struct compare *c, const struct cmp_group *g)
{
	struct strbuf sb = STRBUF_INIT;
	const char *why = NULL;
	size_t runs = 0;

	for (int k = 0; k < FID_NR; k++) {
		double lo, hi;
		size_t n, off;
		char *v;

		group_range(c, g, k, &lo, &hi, &n, &off);
		runs = MAX(runs, n);
		v = range_value(k, lo, hi);
		if (n)
			strbuf_addf(&sb, "%s%s %s (band %s", k ? "; " : "", fid_words[k], v,
				    fid_band_text((enum fid_ratio)k));
		if (n && off) {
			double worst = worst_off(k, lo, hi);

			strbuf_addf(&sb, ", up to %.0f %% %s, in %zu of %zu runs", fabs(worst),
				    worst > 0 ? "above" : "below", off, n);
		}
		if (n)
			strbuf_addch(&sb, ')');
		free(v);
	}
	for (size_t i = 0; i < g->nruns && !why; i++)
		why = c->results[g->runs[i]].fidelity.why;
	if (runs) {
		char *lead = xasprintf("%s: %s", g->label, strstr(sb.buf, "up to") ?
				       "outside Jetstress's shape" : "Jetstress's shape");

		doc_item_lead(d, lead, ": %s.%s%s", sb.buf, why ? " Why: " : "", why ? why : "");
		free(lead);
	}
	strbuf_release(&sb);
}

void report_shape_lines(struct doc *d, const struct compare *c)
{
	doc_para(d, "Jetstress's tuning goals for its load (its team's blog, 2005): database "
		 "reads:writes 3:2 to 2:1, database:log transfers 8:1 to 12:1, log writes of 6 to "
		 "8 KB. A label outside them ran a load of another shape than Exchange's, said "
		 "here with how far and why.");
	for (size_t g = 0; g < c->ngroups; g++)
		shape_line(d, c, &c->groups[g]);
}
