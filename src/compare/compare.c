// SPDX-License-Identifier: MIT
/* compare.c: groups of repeats -> baseline, A/A pairs, sweeps -> table model (cells, deltas,
 * Holm-corrected claims).  Loading, the checks and the guard are in load.c. */
#include "compare/compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compareP.h"
#include "compare/precision.h"
#include "lib/msg.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "workloads/workload.h"

void compare_init(struct compare *c)
{
	memset(c, 0, sizeof(*c));
	strvec_init(&c->warnings);
	c->baseline = -1;
	c->aa_alarm = -1;
}

void compare_release(struct compare *c)
{
	for (size_t i = 0; i < c->nresults; i++) {
		result_release(&c->results[i]);
		free(c->files[i]);
	}
	free(c->results);
	free(c->files);
	for (size_t g = 0; g < c->ngroups; g++) {
		free(c->groups[g].label);
		free(c->groups[g].runs);
		free(c->groups[g].mismatch);
	}
	free(c->groups);
	json_decref(c->group_index);
	for (size_t r = 0; r < c->nrows; r++) {
		for (size_t g = 0; g < c->ngroups; g++)
			free(c->rows[r].cells[g].text);
		free(c->rows[r].cells);
		free(c->rows[r].deltas);
		free((void *)c->rows[r].m);
	}
	free(c->rows);
	strvec_clear(&c->warnings);
	for (size_t s = 0; s < c->nsweeps; s++) {
		free(c->sweeps[s].groups);
		free(c->sweeps[s].eff);
	}
	free(c->sweeps);
	free(c->outliers);
	free(c->spread);
	free(c->quals);
	compare_init(c);
}


/* A replay's within-run spread: its whole log files' seconds, in at most STATS_BATCHES
 * consecutive batches per run (the batches of a timeline would measure the replay's I/O). */
static int replay_batches(const struct compare *c, const struct cmp_group *g, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct recovery_result *rec = &c->results[g->runs[i]].recovery;
		size_t whole = 0, per, k = 0;
		double sum = 0;

		for (size_t j = 0; j < rec->nlog; j++)
			whole += rec->log[j].whole;
		per = (whole + STATS_BATCHES - 1) / STATS_BATCHES;
		for (size_t j = 0; j < rec->nlog; j++) {
			if (!rec->log[j].whole)
				continue;
			sum += rec->log[j].seconds;
			if (++k == per) {
				out[n++] = sum / (double)k;
				sum = 0;
				k = 0;
			}
		}
	}
	return (int)n;
}

static int group_batches(const struct compare *c, const struct cmp_group *g,
			 const struct metric_def *m, double *out)
{
	size_t n = 0;

	if (m->kind == MK_REPLAY)
		return replay_batches(c, g, out);
	for (size_t i = 0; i < g->nruns; i++) {
		const struct timeline *t = &c->results[g->runs[i]].timeline;
		double sn[STATS_BATCHES] = { 0 }, sd[STATS_BATCHES] = { 0 };
		struct batch_plan bp;
		int ret;

		if (stats_batch_plan(t->nrows, &bp))
			return -ENOENT;
		/* streamed: a long timeline is read in chunks, never as arrays of its rows */
		ret = compare_timeline_fold(t, m, bp.skip, bp.len, bp.k, false, sn, sd);
		if (ret)
			return ret;
		for (size_t b = 0; b < bp.k; b++) /* as stats_batch_means() */
			if (sd[b] > 0 && isfinite(sn[b]))
				out[n++] = sn[b] / sd[b];
	}
	return (int)n;
}

/* ---- cells and deltas ---- */

static void fill_cell(const struct compare *c, const struct cmp_group *g,
		      const struct metric_def *m, struct cmp_cell *cell)
{
	double *vals = xcalloc(g->nruns, sizeof(double));
	double *batches = NULL;
	struct sample runs;
	int nb = -ENOENT;

	for (size_t i = 0; i < g->nruns; i++)
		vals[i] = compare_run_value(&c->results[g->runs[i]], m);
	stats_sample(vals, g->nruns, &runs);
	cell->s = runs;
	if (!runs.n) {
		cell->kind = CELL_NONE;
		goto out;
	}
	if (c->method == CMP_BATCH) {
		batches = xcalloc(g->nruns * STATS_BATCHES, sizeof(double));
		nb = group_batches(c, g, m, batches);
	}
	if (nb >= 2) {
		/* Point estimate: the runs' own value (what `fslab run` printed); spread: batches. */
		struct sample b;

		stats_sample(batches, (size_t)nb, &b);
		cell->kind = CELL_BATCH;
		cell->s.n = b.n;
		cell->s.sd = b.sd;
		cell->s.half = b.half;
	} else if (runs.n >= 2) {
		cell->kind = CELL_REPEATS;
	} else {
		cell->kind = CELL_VALUE;
		cell->s.half = NAN;
	}
out:
	free(vals);
	free(batches);
}

static void fill_delta(const struct compare *c, size_t gi, const struct cmp_row *row,
		       struct cmp_delta *d)
{
	const struct cmp_group *g = &c->groups[gi];
	const struct cmp_cell *a = &row->cells[gi], *b;
	struct welch w;

	memset(d, 0, sizeof(*d));
	d->base = g->base;
	d->p = d->p_holm = d->half = d->half_pct = d->mde = d->mde_pct = NAN;
	d->se = d->df = d->lo_pct = d->hi_pct = NAN;
	if (g->base < 0 || compare_metric_is_text(row->m))
		return;
	b = &row->cells[g->base];
	if (a->kind == CELL_NONE || b->kind == CELL_NONE)
		return;
	d->present = true;
	d->abs = a->s.mean - b->s.mean;
	d->pct = b->s.mean != 0 ? d->abs / fabs(b->s.mean) * 100 : NAN;
	d->sig = SIG_NA;
	/* a lab's rounds: the blocked model gives the interval (its fallback calls this) */
	if (!c->blocked)
		compare_welch_half(row, gi, d);
	if (g->aborted || c->groups[g->base].aborted)
		d->na_why = "aborted run";
	else if (g->cache_served || c->groups[g->base].cache_served)
		d->na_why = "cache-served reads"; /* measures a cache, not the device: never a win */
	else if (a->kind == CELL_VALUE || b->kind == CELL_VALUE)
		d->na_why = "single values";
	else if (a->kind != b->kind)
		d->na_why = "different methods";
	else if (a->kind == CELL_BATCH)
		/* batch means measure the noise inside one run, not between runs: no claim */
		d->sig = SIG_WITHIN;
	else if (stats_welch(&a->s, &b->s, &w))
		d->na_why = "too few samples";
	else {
		d->p = w.p;
		d->sig = w.p < STATS_ALPHA ? SIG_YES : SIG_NO;
		d->se = sqrt(a->s.sd * a->s.sd / (double)a->s.n + b->s.sd * b->s.sd / (double)b->s.n);
		d->df = w.df;
	}
}

/*
 * The minimum detectable difference of a tested delta at the level its decision is made at:
 * alpha / m for a claim in a Holm family of m tests (Holm's first step, its hardest: the MDE
 * holds whatever the other claims do), alpha for a row tested on its own.  From the test's
 * standard error and degrees of freedom only (never its estimate or p).
 */
static void set_mde(struct cmp_delta *d, double base, double alpha, size_t m)
{
	double mde = stats_mde_t(d->se, d->df, alpha / (double)m, STATS_POWER);

	if (d->blocked) {
		d->mde_pct = log_pct(mde);
		d->mde = fabs(base) * d->mde_pct / 100;
	} else {
		d->mde = mde;
		d->mde_pct = base != 0 ? mde / fabs(base) * 100 : NAN;
	}
}

/* The word of a decided difference: +1 better, -1 worse (0: neutral metric). */
static void set_better(struct cmp_delta *d, const struct metric_def *m)
{
	d->better = d->sig == SIG_YES ? (int)m->dir * (d->abs > 0 ? 1 : -1) : 0;
}

/*
 * Holm-Bonferroni over one family: the tested headline deltas of the groups for which want()
 * is true.  Their significance is decided on the adjusted p-value at level alpha.  Returns
 * the family size.
 */
static size_t holm_family(struct compare *c, bool (*want)(const struct compare *, size_t, int),
			  int arg, double alpha)
{
	size_t cap = c->ngroups * COMPARE_NHEADLINE, n = 0;
	struct cmp_delta **ds = xcalloc(cap, sizeof(*ds));
	const struct metric_def **ms = xcalloc(cap, sizeof(*ms));
	double *p = xcalloc(cap, sizeof(double)), *base = xcalloc(cap, sizeof(double));

	for (size_t r = 0; r < c->nrows; r++) {
		if (!compare_is_headline(c->rows[r].m->id))
			continue;
		for (size_t g = 0; g < c->ngroups; g++) {
			struct cmp_delta *d = &c->rows[r].deltas[g];

			if (!d->present || (d->sig != SIG_YES && d->sig != SIG_NO) ||
			    !want(c, g, arg))
				continue;
			ds[n] = d;
			ms[n] = c->rows[r].m;
			base[n] = c->rows[r].cells[d->base].s.mean;
			p[n++] = d->p;
		}
	}
	stats_holm(p, n, p);
	for (size_t i = 0; i < n; i++) {
		ds[i]->p_holm = p[i];
		ds[i]->corrected = true;
		ds[i]->sig = p[i] < alpha ? SIG_YES : SIG_NO;
		set_better(ds[i], ms[i]);
		set_mde(ds[i], base[i], alpha, n);
	}
	free(ds);
	free(ms);
	free(p);
	free(base);
	return n;
}

static bool is_claim(const struct compare *c, size_t g, int unused)
{
	(void)unused;
	return c->groups[g].aa_of < 0 && !c->groups[g].aborted;
}

static bool is_aa(const struct compare *c, size_t g, int which)
{
	(void)c;
	return (int)g == which;
}

/* Correct the claims for multiple comparisons, each A/A check as its own family, and raise
 * the alarm when an A/A check itself differs. */
static void correct(struct compare *c)
{
	for (size_t r = 0; r < c->nrows; r++)
		for (size_t g = 0; g < c->ngroups; g++)
			set_better(&c->rows[r].deltas[g], c->rows[r].m);
	compare_decide_levels(c);
	c->nclaims = holm_family(c, is_claim, 0, c->level_diff);
	c->aa_alarm = -1;
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].aa_of < 0)
			continue;
		holm_family(c, is_aa, (int)g, STATS_ALPHA);
		for (size_t k = 0; k < COMPARE_NHEADLINE && c->aa_alarm < 0; k++) {
			const struct cmp_row *row = compare_row(c, compare_headline[k]);

			if (row && row->deltas[g].sig == SIG_YES)
				c->aa_alarm = (int)g;
		}
	}
}

int compare_aa_of(const struct compare *c, size_t g)
{
	for (size_t h = 0; h < c->ngroups; h++)
		if (c->groups[h].aa_of == (int)g)
			return (int)h;
	return -1;
}

/* Is some result's workload one with every flag of flags? */
static bool any_workload(const struct compare *c, unsigned int flags)
{
	for (size_t i = 0; i < c->nresults; i++)
		if ((workload_flags(c->results[i].config.workload) & flags) == flags)
			return true;
	return false;
}

/*
 * A row without anything to say is left out of the printed tables (still in CSV and JSON):
 * a class no result did I/O of (a backup's writes and log), a value no result has (a
 * backup's transactional IOPS).
 */
static bool nothing_to_say(const struct compare *c, const struct metric_def *m)
{
	if (compare_metric_is_text(m))
		return false;
	for (size_t i = 0; i < c->nresults; i++) {
		const struct fslab_result *r = &c->results[i];
		double v = compare_run_value(r, m);

		if (m->cls >= 0 ? r->classes[m->cls].ops || r->classes[m->cls].iops > 0
				: !isnan(v))
			return false;
	}
	return true;
}

static void compute_rows(struct compare *c, bool claims_only)
{
	c->rows = xcalloc(compare_nmetrics, sizeof(*c->rows));
	for (size_t i = 0; i < compare_nmetrics; i++) {
		struct metric_def tmp, *m = xmalloc(sizeof(*m));
		struct cmp_row *row;

		*m = *compare_metric_at(i, &tmp);
		if ((m->kind == MK_THREADS && !c->threads_differ && !c->tuned) ||
		    /* tuned loads: capacity in the place of transactional IOPS */
		    (!strcmp(m->id, "capacity") != c->tuned && m->kind == MK_TRANS_IOPS) ||
		    (m->kind == MK_TOOL && !c->foreign) ||
		    (m->kind == MK_MISMATCH && !c->warnings.nr) ||
		    (m->kind == MK_STEADY && !compare_any_steady(c)) ||
		    (m->kind == MK_SHAPE && !compare_any_shape(c)) ||
		    (claims_only && m->kind != MK_RUNS && !compare_is_headline(m->id)) ||
		    (m->for_flags && !any_workload(c, m->for_flags))) {
			free(m);
			continue;
		}
		if (nothing_to_say(c, m))
			m->hidden = true;
		row = &c->rows[c->nrows++];
		row->m = m;
		row->cells = xcalloc(c->ngroups, sizeof(*row->cells));
		row->deltas = xcalloc(c->ngroups, sizeof(*row->deltas));
		for (size_t g = 0; g < c->ngroups; g++) {
			if (compare_metric_is_text(m)) {
				row->cells[g].kind = CELL_TEXT;
				row->cells[g].text = compare_text_cell(c, &c->groups[g], m);
			} else {
				fill_cell(c, &c->groups[g], m, &row->cells[g]);
			}
		}
		for (size_t g = 0; g < c->ngroups; g++)
			fill_delta(c, g, row, &row->deltas[g]);
		compare_block_row(c, row); /* a lab's rounds: the blocked model decides */
		for (size_t g = 0; g < c->ngroups; g++) {
			struct cmp_delta *d = &row->deltas[g];

			if (d->present && (d->sig == SIG_YES || d->sig == SIG_NO))
				set_mde(d, row->cells[d->base].s.mean, STATS_ALPHA, 1);
		}
	}
	correct(c);
	compare_decide(c);
	if (!claims_only)
		compare_noise(c);
}

/* ---- loading, grouping, the guard ---- */

/* Group index of (label, aborted), created when new: found through an index, so that
 * grouping thousands of labels (an importer's results) stays linear. */
size_t compare_group_of(struct compare *c, size_t ri)
{
	const struct fslab_result *r = &c->results[ri];
	char *key = xasprintf("%c%s", r->aborted ? 'a' : '-', r->label);
	struct cmp_group *g;
	json_t *k;

	if (!c->group_index)
		c->group_index = json_object();
	k = json_object_get(c->group_index, key);
	if (k) {
		free(key);
		return (size_t)json_integer_value(k);
	}
	json_object_set_new_nocheck(c->group_index, key, json_integer((json_int_t)c->ngroups));
	free(key);
	c->groups = xrealloc(c->groups, (c->ngroups + 1) * sizeof(*c->groups));
	g = &c->groups[c->ngroups];
	memset(g, 0, sizeof(*g));
	g->label = r->aborted ? xasprintf("%s [ABORTED]", r->label) : xstrdup(r->label);
	g->fs = compare_result_fs(r);
	g->threads = r->config.threads;
	g->aborted = r->aborted;
	g->base = -1;
	g->aa_of = -1;
	return c->ngroups++;
}

/* Results named one by one as not comparable; the rest are counted ("... and N more"). */
#define GUARD_MAX_ERRORS 20

/* Refuse (or with --allow-mismatch warn about) results that differ in what a comparison needs
 * equal: from the first result, and within a label from its first run.  0 or -FSLAB_EINPUT. */
static int compare_guard(struct compare *c, const struct compare_opts *o)
{
	const struct fslab_result *ref = NULL;
	json_t *index = json_object();
	size_t nerr = 0, r0 = 0;
	int ret = 0;

	/* the qualification runs are longer by design and compared with nothing */
	while (r0 < c->nresults && compare_is_qual_index(c, r0))
		r0++;
	if (r0 < c->nresults) {
		ref = &c->results[r0];
		compare_first_of_label(index, c, r0);
	}
	for (size_t i = r0 + 1; i < c->nresults; i++) {
		const struct fslab_result *r = &c->results[i];
		size_t k;

		if (compare_is_qual_index(c, i))
			continue;
		k = compare_first_of_label(index, c, i);
		/* the first run of the same label, to check repeats against */
		const struct fslab_result *first = k < i ? &c->results[k] : NULL;
		struct strbuf diff = STRBUF_INIT;
		char *d, *rep;

		d = compare_differences(r, ref);
		if (d)
			strbuf_addstr(&diff, d);
		free(d);
		/* the sweep axes (threads) may differ between labels, not between repeats of one */
		rep = first ? compare_sweep_diff(r, first) : NULL;
		if (rep) {
			strbuf_add_sep(&diff, ", ");
			strbuf_addf(&diff, "%s within label '%s'", rep, r->label);
		}
		free(rep);
		if (!diff.len)
			continue;
		if (!o->allow_mismatch) {
			ret = -FSLAB_EINPUT;
			if (nerr++ < GUARD_MAX_ERRORS)
				input_error("%s: not comparable with %s: %s; compare like with like, "
					    "or pass --allow-mismatch to show them with a warning",
					    c->files[i], c->files[r0], diff.buf);
		} else {
			struct cmp_group *g = &c->groups[compare_group_of(c, i)];

			strvec_pushf(&c->warnings, "%s differs from %s: %s", c->files[i],
				     c->files[r0], diff.buf);
			if (!g->mismatch || !strstr(g->mismatch, diff.buf)) {
				struct strbuf m = STRBUF_INIT;

				strbuf_addstr(&m, g->mismatch ? g->mismatch : "");
				strbuf_add_sep(&m, ", ");
				strbuf_addbuf(&m, &diff);
				free(g->mismatch);
				g->mismatch = strbuf_detach(&m, NULL);
			}
		}
		strbuf_release(&diff);
	}
	if (nerr > GUARD_MAX_ERRORS)
		fslab_err("... and %zu more results not comparable with %s (the first %d are named)",
			  nerr - GUARD_MAX_ERRORS, c->files[r0], GUARD_MAX_ERRORS);
	json_decref(index);
	return ret;
}

/* Delta targets: the baseline, or in a thread sweep the baseline filesystem's group with the
 * same thread count. */
static void assign_bases(struct compare *c)
{
	const struct cmp_group *bl = &c->groups[c->baseline];

	for (size_t g = 0; g < c->ngroups; g++) {
		c->groups[g].base = (int)g == c->baseline ? -1 : c->baseline;
		if (c->groups[g].aa_of >= 0 && (int)g != c->baseline) {
			c->groups[g].base = c->groups[g].aa_of; /* A/A: against what it repeats */
			continue;
		}
		if (!c->threads_differ || (int)g == c->baseline)
			continue;
		for (size_t h = 0; h < c->ngroups; h++) {
			const struct cmp_group *x = &c->groups[h];

			if (x->aborted || x->aa_of >= 0 || strcmp(x->fs, bl->fs) ||
			    x->threads != c->groups[g].threads)
				continue;
			if (h != g)
				c->groups[g].base = (int)h;
			break;
		}
	}
}

/* A sweep's groups sorted by thread count (plain qsort: Windows has no qsort_r). */
struct by_threads {
	unsigned int threads;
	size_t g;
};

static int cmp_threads(const void *a, const void *b)
{
	unsigned int x = ((const struct by_threads *)a)->threads;
	unsigned int y = ((const struct by_threads *)b)->threads;

	return x < y ? -1 : x > y;
}

static void sort_by_threads(const struct compare *c, size_t *groups, size_t n)
{
	struct by_threads *bt = xcalloc(n, sizeof(*bt));

	for (size_t k = 0; k < n; k++)
		bt[k] = (struct by_threads){ c->groups[groups[k]].threads, groups[k] };
	qsort(bt, n, sizeof(*bt), cmp_threads);
	for (size_t k = 0; k < n; k++)
		groups[k] = bt[k].g;
	free(bt);
}

/* Filesystems run at >= 2 thread counts, with the scaling efficiency of each point. */
static void find_sweeps(struct compare *c)
{
	const struct cmp_row *iops = compare_row(c, "trans_iops");
	json_t *by_fs;

	/* a sweep scales transactional IOPS: none without them (a replay's threads only make
	 * the load it replays) */
	if (!iops || iops->m->hidden)
		return;
	/* the groups of each filesystem, in one pass: linear in the labels (an importer's
	 * results give thousands, each its own "filesystem", its label) */
	by_fs = json_object();
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct cmp_group *x = &c->groups[g];
		json_t *ids;

		if (x->aborted || x->aa_of >= 0)
			continue;
		ids = json_object_get(by_fs, x->fs);
		if (!ids) {
			ids = json_array();
			json_object_set_new_nocheck(by_fs, x->fs, ids);
		}
		json_array_append_new(ids, json_integer((json_int_t)g));
	}
	for (size_t g = 0; g < c->ngroups; g++) {
		struct cmp_sweep sw = { .fs = c->groups[g].fs };
		json_t *ids, *id;
		size_t i;

		if (c->groups[g].aborted || c->groups[g].aa_of >= 0)
			continue;
		ids = json_object_get(by_fs, sw.fs);
		/* a filesystem's sweep starts at its first group, once */
		if (json_array_size(ids) < 2 || (size_t)json_integer_value(json_array_get(ids, 0)) != g)
			continue;
		sw.groups = xcalloc(json_array_size(ids), sizeof(size_t));
		json_array_foreach(ids, i, id) {
			size_t h = (size_t)json_integer_value(id);
			bool dup = false;

			for (size_t k = 0; k < sw.n; k++)
				dup |= c->groups[sw.groups[k]].threads == c->groups[h].threads;
			if (!dup)
				sw.groups[sw.n++] = h;
		}
		if (sw.n < 2) {
			free(sw.groups);
			continue;
		}
		sort_by_threads(c, sw.groups, sw.n);
		sw.eff = xcalloc(sw.n, sizeof(double));
		for (size_t k = 0; k < sw.n; k++) {
			double i0 = iops->cells[sw.groups[0]].s.mean, ik = iops->cells[sw.groups[k]].s.mean;
			double t0 = c->groups[sw.groups[0]].threads, tk = c->groups[sw.groups[k]].threads;

			sw.eff[k] = i0 > 0 && t0 > 0 ? ik / (i0 * tk / t0) * 100 : NAN;
		}
		c->sweeps = xrealloc(c->sweeps, (c->nsweeps + 1) * sizeof(*c->sweeps));
		c->sweeps[c->nsweeps++] = sw;
	}
	json_decref(by_fs);
}

/* Labels "<L>-aa" of another label L are that label's A/A check. */
static void find_aa(struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		const char *l = c->groups[g].label;
		size_t n = strlen(l);

		if (c->groups[g].aborted || n <= 3 || strcmp(l + n - 3, "-aa"))
			continue;
		for (size_t h = 0; h < c->ngroups; h++)
			if (h != g && !c->groups[h].aborted && strlen(c->groups[h].label) == n - 3 &&
			    !strncmp(c->groups[h].label, l, n - 3))
				c->groups[g].aa_of = (int)h;
	}
}

static int pick_baseline(struct compare *c, const struct compare_opts *o)
{
	c->baseline = -1;
	for (size_t g = 0; g < c->ngroups && c->baseline < 0; g++) {
		const struct cmp_group *x = &c->groups[g];

		if (o->baseline ? !strcmp(c->results[x->runs[0]].label, o->baseline) && !x->aborted
				: !x->aborted && x->aa_of < 0)
			c->baseline = (int)g;
	}
	if (c->baseline >= 0 && c->groups[c->baseline].aa_of >= 0)
		c->groups[c->baseline].aa_of = -1; /* named as the baseline: an ordinary label */
	if (c->baseline >= 0)
		return 0;
	if (o->baseline) {
		struct strbuf labels = STRBUF_INIT;
		int ret;

		for (size_t g = 0; g < c->ngroups; g++) {
			strbuf_add_sep(&labels, ", ");
			strbuf_addstr(&labels, c->groups[g].label);
		}
		ret = input_error("--baseline %s: no result has that label (labels: %s); name one of "
				  "them", o->baseline, labels.buf);
		strbuf_release(&labels);
		return ret;
	}
	for (size_t g = 0; g < c->ngroups && c->baseline < 0; g++)
		if (!c->groups[g].aborted)
			c->baseline = (int)g; /* only A/A labels: the first is the baseline */
	if (c->baseline >= 0) {
		c->groups[c->baseline].aa_of = -1;
		return 0;
	}
	c->baseline = 0; /* only aborted groups, shown with --allow-aborted */
	return 0;
}

/* Everything after loading: groups, the guard, the baseline, the method, the rows. */
static int analyse(struct compare *c, const struct compare_opts *o)
{
	size_t n = c->nresults;
	int ret;

	compare_split_quals(c);
	for (size_t i = 0; i < n; i++) {
		size_t gi;

		if (compare_is_qual_index(c, i))
			continue;
		gi = compare_group_of(c, i); /* may move c->groups */
		struct cmp_group *g = &c->groups[gi];

		g->runs = xrealloc(g->runs, (g->nruns + 1) * sizeof(size_t));
		g->runs[g->nruns++] = i;
	}
	if (!o->no_guard && (ret = compare_guard(c, o)))
		return ret;
	find_aa(c);
	if ((ret = pick_baseline(c, o)))
		return ret;

	compare_find_tuned(c);
	c->method = CMP_REPEATS;
	for (size_t g = 0; g < c->ngroups; g++) {
		struct cmp_group *x = &c->groups[g];

		/* aborted runs do not decide the method, unless there is nothing else */
		if ((!x->aborted || c->groups[c->baseline].aborted) && x->nruns < 2)
			c->method = CMP_BATCH;
		if (x->threads != c->groups[0].threads)
			c->threads_differ = true;
		if (stats_batch_plan(c->results[x->runs[0]].timeline.nrows, &x->plan))
			x->plan.k = 0;
		compare_find_cache(c, x);
	}
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct batch_plan *a = &c->groups[g].plan, *b = &c->groups[c->baseline].plan;

		if (!c->groups[g].aborted && (a->k != b->k || a->len != b->len))
			c->plans_differ = true;
	}
	assign_bases(c);
	compare_design(c);
	/* the equivalence margin, and a lab that stopped when decided: its looks */
	c->margin_default = o->equivalence_pct == 0;
	c->margin_pct = o->equivalence_pct > 0 ? o->equivalence_pct :
			o->equivalence_pct < 0 ? 0 : COMPARE_EQUIVALENCE_DEFAULT;
	c->claims_only = o->claims_only;
	c->sequential = o->seq && c->blocked;
	if (c->sequential)
		c->seq = *o->seq;
	compute_rows(c, o->claims_only);
	if (!o->claims_only)
		find_sweeps(c);
	return 0;
}

int compare_build(struct compare *c, char *const *files, size_t n, const struct compare_opts *o)
{
	int ret;

	compare_init(c);
	ret = compare_load(c, files, n, o);
	return ret ? ret : analyse(c, o);
}

int compare_build_results(struct compare *c, struct fslab_result *r, size_t n,
			  const struct compare_opts *o)
{
	compare_init(c);
	c->results = xcalloc(n + 1, sizeof(*c->results));
	c->files = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		c->results[i] = r[i];
		result_init(&r[i]);
		c->files[i] = xasprintf("(result %zu)", i + 1);
		c->foreign |= strcmp(compare_tool(&c->results[i]), "fslab") != 0;
	}
	c->nresults = n;
	return analyse(c, o);
}
