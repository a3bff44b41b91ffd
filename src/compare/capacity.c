// SPDX-License-Identifier: MIT
/*
 * capacity.c: tuned loads (fslab run --threads auto, src/engine/tune.h) in a comparison: which labels
 * were tuned and at what counts, the Capacity section (each label's capacity, the transactional
 * IOPS at the largest thread count that passed, with its interval over the runs, and the
 * tuner's steps), the Method's line on the tuner, and the figure sizing plans with.  The
 * claim itself is the capacity row's (metrics.c), tested like any headline metric.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/compareP.h"
#include "compare/reportP.h"
#include "lib/strbuf.h"
#include "engine/tune.h"

void compare_find_tuned(struct compare *c)
{
	size_t live = 0, tuned = 0;

	for (size_t g = 0; g < c->ngroups; g++) {
		struct cmp_group *x = &c->groups[g];

		x->tuned = x->nruns > 0;
		for (size_t i = 0; i < x->nruns; i++)
			x->tuned = x->tuned && run_config_tuned(&c->results[x->runs[i]].config);
		/* its count is each run's own: one label, one "count" (auto) */
		if (x->tuned)
			x->threads = 0;
		if (!x->aborted) {
			live++;
			tuned += x->tuned;
		}
	}
	c->tuned = live && tuned == live;
}

bool compare_any_tuned(const struct compare *c)
{
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].tuned)
			return true;
	return false;
}

char *compare_tuned_threads_text(const struct compare *c, const struct cmp_group *g)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned int lo = UINT32_MAX, hi = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		unsigned int t = c->results[g->runs[i]].config.threads;

		lo = MIN(lo, t);
		hi = MAX(hi, t);
	}
	if (lo == hi) {
		strbuf_addf(&sb, "auto: %u", lo);
		return strbuf_detach(&sb, NULL);
	}
	strbuf_addf(&sb, "auto: %u-%u (", lo, hi);
	for (size_t i = 0; i < g->nruns; i++)
		strbuf_addf(&sb, "%s%u", i ? ", " : "", c->results[g->runs[i]].config.threads);
	strbuf_addch(&sb, ')');
	return strbuf_detach(&sb, NULL);
}

/* ---- sizing ---- */

double compare_sizing_iops(const struct compare *c, size_t g, bool *lower_end)
{
	const struct cmp_row *row = compare_row(c, "trans_iops");
	const struct cmp_cell *cell = row ? &row->cells[g] : NULL;

	*lower_end = false;
	if (!cell || cell->kind == CELL_NONE)
		return NAN;
	if (!c->groups[g].tuned || !isfinite(cell->s.half))
		return cell->s.mean;
	/* the capacity's 95 % interval: plan with what the volume carried at the worst */
	*lower_end = true;
	return MAX(cell->s.mean - cell->s.half, 0.0);
}

/* ---- the Capacity section ---- */

/* Per label and thread count, the tuner's steps at that count over the label's runs. */
struct step_sum {
	unsigned int threads, steps, passed, stable;
	double iops, read_ms, log_ms; /* sums, for means */
	unsigned int n_read, n_log;
};

/* The steps of group g, summed per count, sorted by count; how many counts. */
static size_t steps_of(const struct compare *c, const struct cmp_group *g, struct step_sum **out)
{
	struct step_sum *s = NULL;
	size_t n = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct tuning *tu = &c->results[g->runs[i]].tuning;

		for (size_t k = 0; k < tu->nsteps; k++) {
			const struct tune_step *st = &tu->steps[k];
			size_t j = 0;

			while (j < n && s[j].threads < st->threads)
				j++;
			if (j == n || s[j].threads != st->threads) {
				s = xrealloc(s, (n + 1) * sizeof(*s));
				memmove(&s[j + 1], &s[j], (n - j) * sizeof(*s));
				s[j] = (struct step_sum){ .threads = st->threads };
				n++;
			}
			s[j].steps++;
			s[j].passed += st->pass;
			s[j].stable += st->stable;
			if (isfinite(st->iops))
				s[j].iops += st->iops;
			if (isfinite(st->db_read_ms)) {
				s[j].read_ms += st->db_read_ms;
				s[j].n_read++;
			}
			if (isfinite(st->log_write_ms)) {
				s[j].log_ms += st->log_write_ms;
				s[j].n_log++;
			}
		}
	}
	*out = s;
	return n;
}

size_t compare_tuning_curve(const struct compare *c, size_t g, unsigned int *threads,
			    double *iops, double *read_ms, double *log_ms, double *passed,
			    size_t max)
{
	struct step_sum *s;
	size_t n = steps_of(c, &c->groups[g], &s), k;

	for (k = 0; k < n && k < max; k++) {
		threads[k] = s[k].threads;
		iops[k] = s[k].iops / s[k].steps;
		read_ms[k] = s[k].n_read ? s[k].read_ms / s[k].n_read : NAN;
		log_ms[k] = s[k].n_log ? s[k].log_ms / s[k].n_log : NAN;
		passed[k] = (double)s[k].passed / s[k].steps;
	}
	free(s);
	return k;
}

/* What the tuner's choice rests on, over the runs: "the largest count that passed in every
 * run", or the runs where it said otherwise (the cap passed, nothing passed, the time cap). */
static void choice_words(struct strbuf *sb, const struct compare *c, const struct cmp_group *g)
{
	size_t capped = 0, none = 0, timed = 0;
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < g->nruns; i++) {
		const struct tuning *tu = &c->results[g->runs[i]].tuning;
		const char *why = tu->reason ? tu->reason : "";

		capped += strstr(why, "every count up to the cap passed") != NULL;
		none += strstr(why, "no count passed") != NULL;
		timed += tu->timed_out;
		lo = fmin(lo, tu->seconds);
		hi = fmax(hi, tu->seconds);
	}
	if (!capped && !none && !timed)
		strbuf_addstr(sb, "the largest count that passed the verdict's limits");
	else
		strbuf_addstr(sb, "the largest count that passed so far");
	strbuf_addf(sb, ", the search taking %.0f", lo);
	if (hi > lo + 0.5)
		strbuf_addf(sb, "-%.0f", hi);
	strbuf_addstr(sb, " s");
	if (capped)
		strbuf_addf(sb, "; in %zu of %zu runs every count up to the cap passed: the volume "
			    "may carry more (raise tune_max_threads)", capped, g->nruns);
	if (none)
		strbuf_addf(sb, "; in %zu of %zu runs no count passed: measured at the fewest", none,
			    g->nruns);
	if (timed)
		strbuf_addf(sb, "; in %zu of %zu runs the search's time cap ended it before it closed "
			    "in", timed, g->nruns);
}

/* One line per tuned label: its count(s), its capacity with the interval over its runs. */
static void capacity_line(struct doc *d, const struct compare *c, size_t g)
{
	const struct cmp_group *grp = &c->groups[g];
	const struct cmp_row *row = compare_row(c, "trans_iops");
	const struct cmp_cell *cell = &row->cells[g];
	struct strbuf sb = STRBUF_INIT;
	char *threads = compare_tuned_threads_text(c, grp);
	size_t failed = 0;

	for (size_t i = 0; i < grp->nruns; i++) {
		const struct verdict *v = &c->results[grp->runs[i]].verdict;

		failed += v->present && !v->pass;
	}
	strbuf_addf(&sb, "capacity %.0f transactional IOPS", cell->s.mean);
	if (cell->kind == CELL_REPEATS && isfinite(cell->s.half))
		strbuf_addf(&sb, " (95 %% interval over its %zu runs: %.0f to %.0f)", grp->nruns,
			    cell->s.mean - cell->s.half, cell->s.mean + cell->s.half);
	else if (cell->kind == CELL_BATCH && isfinite(cell->s.half))
		strbuf_addf(&sb, " (one run: %.0f to %.0f within it, not between runs)",
			    cell->s.mean - cell->s.half, cell->s.mean + cell->s.half);
	strbuf_addf(&sb, " at %s thread(s): ", threads + strlen("auto: "));
	choice_words(&sb, c, grp);
	if (failed)
		strbuf_addf(&sb, ". The measurement at the chosen count failed its verdict in %zu of "
			    "%zu runs: the load that passed while tuning did not pass in the longer "
			    "measurement, so this capacity is an upper estimate", failed, grp->nruns);
	doc_item_lead(d, grp->label, ": %s.", sb.buf);
	strbuf_release(&sb);
	free(threads);
}

/* The steps of every tuned label: per count, how many steps, how many passed, their means. */
static struct doc_table *steps_table(const struct compare *c)
{
	struct doc_table *t = doc_table_new(7, true);

	doc_table_set(t, 0, 0, "Label");
	doc_table_set(t, 0, 1, "Threads");
	doc_table_set(t, 0, 2, "Steps passed");
	doc_table_set(t, 0, 3, "Transactional IOPS");
	doc_table_set(t, 0, 4, "Database reads (ms)");
	doc_table_set(t, 0, 5, "Log writes (ms)");
	doc_table_set(t, 0, 6, "Stable");
	for (size_t g = 0; g < c->ngroups; g++) {
		struct step_sum *s;
		size_t n;

		if (!c->groups[g].tuned || c->groups[g].aborted)
			continue;
		n = steps_of(c, &c->groups[g], &s);
		for (size_t k = 0; k < n; k++) {
			size_t r = doc_table_row(t);

			doc_table_set(t, r, 0, "%s", c->groups[g].label);
			doc_table_set(t, r, 1, "%u", s[k].threads);
			doc_table_set(t, r, 2, "%u of %u", s[k].passed, s[k].steps);
			doc_table_set(t, r, 3, "%.0f", s[k].iops / s[k].steps);
			if (s[k].n_read)
				doc_table_set(t, r, 4, "%.2f", s[k].read_ms / s[k].n_read);
			else
				doc_table_set(t, r, 4, "-");
			if (s[k].n_log)
				doc_table_set(t, r, 5, "%.2f", s[k].log_ms / s[k].n_log);
			else
				doc_table_set(t, r, 5, "-");
			doc_table_set(t, r, 6, "%u of %u", s[k].stable, s[k].steps);
		}
		free(s);
	}
	return t;
}

void report_capacity(struct doc *d, const struct compare *c)
{
	struct doc_table *t;

	doc_para(d, "Each run found its own thread count with fslab run --threads auto, as "
		 "Jetstress's automatic tuning does: the largest count whose load passed the "
		 "verdict's limits once its latency was stable; it then measured there. A label's "
		 "capacity is its achieved transactional IOPS at that count, compared between "
		 "labels like any headline metric (the counts may differ between labels and runs).");
	for (size_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].tuned && !c->groups[g].aborted)
			capacity_line(d, c, g);
	doc_para(d, "The tuner's steps, each count's steps over the runs (means of their judged "
		 "windows; the limits: database reads %g ms, log writes %g ms on average):",
		 compare_limit(c, "db_read_avg_latency", 20),
		 compare_limit(c, "log_write_avg_latency", 10));
	t = steps_table(c);
	doc_table(d, t);
	doc_table_free(t);
}

void report_method_tuning(struct doc *d, const struct compare *c)
{
	const struct run_config *cf = NULL;

	for (size_t i = 0; i < c->nresults && !cf; i++)
		if (run_config_tuned(&c->results[i].config))
			cf = &c->results[i].config;
	if (!cf)
		return;
	doc_item(d, "Tuning (--threads auto, as Jetstress's automatic tuning): from the fewest "
		 "threads (one per database), doubling while a step passes, then bisection to one "
		 "thread, at most %u threads; a step is judged once its database read latency is "
		 "stable (the least-squares line of its last %u samples of %g s moves by at most %g "
		 "%% of their mean), then measured for %g s against the verdict's limits "
		 "(averages, samples above the maximum, page-fault stalls); a step not stable "
		 "within %g s fails; no step starts after %g s; the measurement runs at the count "
		 "chosen, after its warm-up", cf->tune_max_threads, cf->tune_window,
		 cf->tune_interval_s, cf->tune_slope_pct, cf->tune_judge_s, cf->tune_step_cap_s,
		 cf->tune_cap_s);
}
