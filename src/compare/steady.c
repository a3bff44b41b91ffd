// SPDX-License-Identifier: MIT
/*
 * steady.c (compare): what the results say of steady state (src/engine/steady.h): the table's row
 * next to the verdict, the Method's lines on the rule, a steady warm-up and preconditioning,
 * and the windows the timeline charts mark.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compareP.h"
#include "compare/reportP.h"
#include "lib/strbuf.h"
#include "lib/units.h"

bool compare_any_steady(const struct compare *c)
{
	for (size_t i = 0; i < c->nresults; i++)
		if (c->results[i].steady.present || c->results[i].nfio_ss)
			return true;
	return false;
}

/* A run's state by the rule: its IOPS', unless its read latency did not hold where IOPS did. */
static int run_state(const struct fslab_result *r)
{
	int a = r->steady.iops.state, b = r->steady.db_read_lat.state;

	if (!r->steady.present)
		return STEADY_UNKNOWN;
	if (a == STEADY_ATTAINED && b == STEADY_NOT_ATTAINED)
		return STEADY_NOT_ATTAINED;
	return a;
}

/* The latest second a run's series became steady from (IOPS and latency both). */
static double run_from(const struct fslab_result *r)
{
	double f = r->steady.iops.from_s;

	if (r->steady.db_read_lat.state == STEADY_ATTAINED)
		f = fmax(f, r->steady.db_read_lat.from_s);
	return f;
}

/* fio's own: "fio: attained (iops:5.000000%)", several jobs counted. */
static char *fio_text(const struct cmp_group *g, const struct compare *c)
{
	size_t n = 0, yes = 0;
	const struct fio_steadystate *one = NULL;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct fslab_result *r = &c->results[g->runs[i]];

		for (size_t k = 0; k < r->nfio_ss; k++) {
			one = &r->fio_ss[k];
			n++;
			yes += one->attained;
		}
	}
	if (!n)
		return NULL;
	if (n == 1)
		return xasprintf("fio: %s (%s; measured %s)", one->attained ? "attained" :
				 "NOT attained", one->ss ? one->ss : "?",
				 one->criterion ? one->criterion : "?");
	return xasprintf("fio: attained in %zu of %zu jobs", yes, n);
}

char *compare_steady_text(const struct compare *c, const struct cmp_group *g)
{
	size_t yes = 0, no = 0, shortr = 0, known = 0;
	double lo = INFINITY, hi = -INFINITY;
	char *fio = fio_text(g, c);

	if (fio)
		return fio;
	for (size_t i = 0; i < g->nruns; i++) {
		const struct fslab_result *r = &c->results[g->runs[i]];
		int st = run_state(r);

		known += st != STEADY_UNKNOWN && st != STEADY_NO_DATA;
		shortr += st == STEADY_TOO_SHORT;
		no += st == STEADY_NOT_ATTAINED;
		if (st == STEADY_ATTAINED) {
			yes++;
			lo = fmin(lo, run_from(r));
			hi = fmax(hi, run_from(r));
		}
	}
	if (!known)
		return xstrdup("-");
	if (shortr == known)
		return xstrdup("too short to judge");
	if (yes == known)
		return lo == hi ? xasprintf("attained from %.0f s", lo)
				: xasprintf("attained from %.0f-%.0f s", lo, hi);
	if (!yes)
		return xasprintf("NOT attained%s", shortr ? " (some runs too short)" : "");
	return xasprintf("attained in %zu of %zu runs", yes, known);
}

/* ---- the Method ---- */

/* Distinct, in a group's runs: the first result with each. */
static const struct fslab_result *first_with(const struct compare *c,
					     bool (*has)(const struct fslab_result *))
{
	for (size_t i = 0; i < c->nresults; i++)
		if (has(&c->results[i]))
			return &c->results[i];
	return NULL;
}

static bool has_steady(const struct fslab_result *r)
{
	return r->steady.present;
}

static bool has_warmup(const struct fslab_result *r)
{
	return r->warmup.present;
}

static bool has_precondition(const struct fslab_result *r)
{
	return r->precondition.present;
}

/* Per label: "ext4 12-40 s, attained in 3 of 3" of the stage at off in each result. */
static char *stage_per_label(const struct compare *c, size_t off, bool *all)
{
	struct strbuf sb = STRBUF_INIT;

	*all = true;
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *grp = &c->groups[g];
		double lo = INFINITY, hi = -INFINITY;
		size_t n = 0, yes = 0;

		for (size_t k = 0; k < grp->nruns; k++) {
			const struct steady_stage *s = (const struct steady_stage *)
				((const char *)&c->results[grp->runs[k]] + off);

			if (!s->present)
				continue;
			n++;
			yes += s->attained;
			lo = fmin(lo, s->seconds);
			hi = fmax(hi, s->seconds);
		}
		*all = *all && n == grp->nruns;
		if (!n)
			continue;
		strbuf_add_sep(&sb, "; ");
		strbuf_addf(&sb, "%s %.0f", grp->label, lo);
		if (hi > lo + 0.5)
			strbuf_addf(&sb, "-%.0f", hi);
		strbuf_addf(&sb, " s, attained in %zu of %zu run(s)", yes, n);
	}
	return strbuf_detach(&sb, NULL);
}

void report_method_steady(struct doc *d, const struct compare *c)
{
	const struct fslab_result *r;
	bool all;
	char *t, b[32];

	r = first_with(c, has_warmup);
	if (r) {
		t = stage_per_label(c, offsetof(struct fslab_result, warmup), &all);
		doc_item(d, "Warm-up until steady state (the rule below), at most %g s: %s%s",
			 r->warmup.cap_s, t, all ? "" : "; other runs had a fixed warm-up");
		free(t);
	}
	r = first_with(c, has_precondition);
	if (r) {
		const struct precondition_result *p = &r->precondition;

		t = stage_per_label(c, offsetof(struct fslab_result, precondition.load), &all);
		doc_item(d, "Preconditioning (SNIA PTS), neither stage measured: the database files "
			 "written over %u time(s) sequentially (%s per run, %.1f s in %s's first), "
			 "then the load until steady state, at most %g s: %s%s", p->passes,
			 fmt_size(b, sizeof(b), p->bytes_written), p->seconds, r->label,
			 p->load.cap_s, t, all ? "; every run alike" :
			 "; NOT every run was preconditioned");
		free(t);
	}
	r = first_with(c, has_steady);
	if (r)
		doc_item(d, "Steady state: the SNIA PTS rule on each run's measured seconds, a window "
			 "of %u means of %g s is steady when their range is within %g %% of their "
			 "mean and the least-squares line's excursion across it within %g %%; judged "
			 "for transactional IOPS and database read latency (the row \"Steady state\")",
			 r->steady.window, r->steady.interval_s, r->steady.range_limit_pct,
			 r->steady.excursion_limit_pct);
}

/* ---- next to the verdicts ---- */

void report_steady_lines(struct doc *d, const struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		char *t = compare_steady_text(c, &c->groups[g]);
		bool bad = !strncmp(t, "NOT", 3) || strstr(t, " of ");

		doc_item_lead(d, c->groups[g].label, ": %s%s", t, bad ? "; a run that never "
			      "settled measured a transient as much as the filesystem" : "");
		free(t);
	}
}

/* ---- the timeline charts' marks ---- */

size_t compare_steady_windows(const struct compare *c, bool latency, double *from, double *to,
			      size_t *group, size_t max)
{
	size_t n = 0;

	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t k = 0; k < c->groups[g].nruns && n < max; k++) {
			const struct fslab_result *r = &c->results[c->groups[g].runs[k]];
			const struct steady_metric *m = latency ? &r->steady.db_read_lat
								: &r->steady.iops;

			if (!r->steady.present || m->state != STEADY_ATTAINED)
				continue;
			from[n] = m->from_s;
			to[n] = m->to_s;
			group[n++] = g;
		}
	return n;
}
