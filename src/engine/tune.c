// SPDX-License-Identifier: MIT
/* tune.c: the thread-count tuner's pure parts (tune.h): one step's judgement, the search. */
#include "engine/tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "engine/steady.h"
#include "lib/strbuf.h"

void tune_rule_default(struct tune_rule *r)
{
	r->window = TUNE_WINDOW;
	r->interval_s = TUNE_INTERVAL_S;
	r->slope_pct = TUNE_SLOPE_PCT;
	r->judge_s = TUNE_JUDGE_S;
	r->step_cap_s = TUNE_STEP_CAP_S;
	r->cap_s = TUNE_CAP_S;
	r->max_threads = TUNE_MAX_THREADS;
	r->min_threads = 1;
}

bool tune_slope_holds(const double *y, size_t n, double slope_pct, double *excursion_pct)
{
	/* the SNIA rule's slope excursion (steady.h), its range test out of the way */
	struct steady_rule r = { .window = (unsigned int)n, .interval_s = 1,
				 .range_pct = INFINITY, .excursion_pct = slope_pct };
	struct steady_fit f;
	bool holds = steady_judge(y, n, &r, &f);

	*excursion_pct = f.excursion_pct;
	return holds;
}

/* ---- one step ---- */

static void sums_add(struct tune_sums *s, const struct tune_sums *a)
{
	s->secs += a->secs;
	s->db_read_lat_ms += a->db_read_lat_ms;
	s->log_write_lat_ms += a->log_write_lat_ms;
	s->db_reads += a->db_reads;
	s->db_writes += a->db_writes;
	s->log_writes += a->log_writes;
	s->stalls += a->stalls;
}

static void tick_sums(const struct tune_tick *k, struct tune_sums *s)
{
	*s = (struct tune_sums){ .secs = k->secs, .db_read_lat_ms = k->db_read_lat_ms,
				 .log_write_lat_ms = k->log_write_lat_ms, .db_reads = k->db_reads,
				 .db_writes = k->db_writes, .log_writes = k->log_writes,
				 .stalls = k->stalls };
}

void tune_track_init(struct tune_track *t, const struct tune_rule *r, unsigned int threads)
{
	memset(t, 0, sizeof(*t));
	t->rule = *r;
	if (t->rule.window < 2)
		t->rule.window = 2;
	if (!t->rule.interval_s)
		t->rule.interval_s = 1;
	if (!t->rule.sample_interval_s)
		t->rule.sample_interval_s = 1;
	t->lat = xcalloc(t->rule.window, sizeof(*t->lat));
	t->sums = xcalloc(t->rule.window, sizeof(*t->sums));
	t->step.threads = threads;
	t->step.excursion_pct = NAN;
	t->phase = TUNE_SETTLING;
}

void tune_track_release(struct tune_track *t)
{
	free(t->lat);
	free(t->sums);
	free(t->step.why);
	memset(t, 0, sizeof(*t));
}

void tune_track_take(struct tune_track *t, struct tune_step *out)
{
	*out = t->step;
	t->step.why = NULL;
}

/* The step's figures from sums s: IOPS, average latencies, stalls per second. */
static void step_figures(struct tune_step *st, const struct tune_sums *s)
{
	st->iops = s->secs > 0 ? (double)(s->db_reads + s->db_writes) / s->secs : NAN;
	st->db_read_ms = s->db_reads ? s->db_read_lat_ms / (double)s->db_reads : NAN;
	st->log_write_ms = s->log_writes ? s->log_write_lat_ms / (double)s->log_writes : NAN;
	st->stalls_per_s = s->secs > 0 ? (double)s->stalls / s->secs : NAN;
}

static void set_why(struct tune_step *st, char *why)
{
	if (!st->why)
		st->why = why;
	else
		free(why);
}

/* The judged window against the verdict's limits: st->pass, and st->why when it fails. */
static void judge(struct tune_track *t)
{
	const struct tune_rule *r = &t->rule;
	struct tune_step *st = &t->step;

	step_figures(st, &t->judged);
	st->samples = t->vsamples;
	st->above = t->vabove;
	if (!t->judged.db_reads)
		set_why(st, xstrdup("no database read was measured"));
	else if (st->db_read_ms > r->db_read_avg_ms)
		set_why(st, xasprintf("database reads averaged %.2f ms (limit %g ms)", st->db_read_ms,
				      r->db_read_avg_ms));
	if (!t->judged.log_writes)
		set_why(st, xstrdup("no log write was measured"));
	else if (st->log_write_ms > r->log_write_avg_ms)
		set_why(st, xasprintf("log writes averaged %.2f ms (limit %g ms)", st->log_write_ms,
				      r->log_write_avg_ms));
	if (st->stalls_per_s > r->stalls_per_s)
		set_why(st, xasprintf("%.2f database page fault stalls per second (limit %g)",
				      st->stalls_per_s, r->stalls_per_s));
	if (t->vabove > r->max_latency_errors)
		set_why(st, xasprintf("%u of %u samples (%u s averages) above the maximum, highest "
				      "%.1f ms (%u tolerated)", t->vabove, t->vsamples,
				      r->sample_interval_s, t->vhighest, r->max_latency_errors));
	st->pass = !st->why;
}

/* A verdict sample ended (or the judged window did, partial): above a maximum? */
static void verdict_sample(struct tune_track *t)
{
	const struct tune_sums *v = &t->vsample;
	double rd = v->db_reads ? v->db_read_lat_ms / (double)v->db_reads : 0;
	double lg = v->log_writes ? v->log_write_lat_ms / (double)v->log_writes : 0;

	t->vsamples++;
	t->vabove += rd > t->rule.db_read_max_ms || lg > t->rule.log_write_max_ms;
	t->vhighest = fmax(t->vhighest, fmax(rd, lg));
	memset(&t->vsample, 0, sizeof(t->vsample));
}

/* A sample of the settling phase ended: into the ring, and the slope test on the window. */
static void settle_sample(struct tune_track *t)
{
	unsigned int w = t->rule.window;
	double *y;
	bool holds;

	t->lat[t->nsamples % w] = t->sample.db_reads
		? t->sample.db_read_lat_ms / (double)t->sample.db_reads : NAN;
	t->sums[t->nsamples % w] = t->sample;
	t->nsamples++;
	memset(&t->sample, 0, sizeof(t->sample));
	t->sample_ticks = 0;
	if (t->nsamples < w)
		return;
	y = xcalloc(w, sizeof(double));
	for (unsigned int k = 0; k < w; k++)
		y[k] = t->lat[(t->nsamples - w + k) % w];
	holds = tune_slope_holds(y, w, t->rule.slope_pct, &t->step.excursion_pct);
	free(y);
	if (!holds)
		return;
	t->step.stable = true;
	t->step.settle_s = t->secs;
	t->phase = TUNE_JUDGING;
}

/* Out of time while settling: the last window's figures, failed as not stable. */
static void unstable(struct tune_track *t)
{
	struct tune_step *st = &t->step;
	struct tune_sums s = { 0 };
	unsigned int w = t->rule.window, n = (unsigned int)MIN(t->nsamples, (uint64_t)w);

	for (unsigned int k = 0; k < n; k++)
		sums_add(&s, &t->sums[(t->nsamples - n + k) % w]);
	if (!n)
		s = t->sample;
	step_figures(st, &s);
	st->settle_s = t->secs;
	st->stable = st->pass = false;
	if (isfinite(st->excursion_pct))
		set_why(st, xasprintf("database read latency not stable within %g s (the window's "
				      "line moved %.1f %%, at most %g %%)", t->rule.step_cap_s,
				      st->excursion_pct, t->rule.slope_pct));
	else
		set_why(st, xasprintf("database read latency not stable within %g s (%s)",
				      t->rule.step_cap_s, t->nsamples < w ? "fewer samples than "
				      "the window" : "a sample without database reads"));
}

enum tune_phase tune_track_tick(struct tune_track *t, const struct tune_tick *k)
{
	struct tune_sums s;

	if (t->phase == TUNE_DONE)
		return TUNE_DONE;
	tick_sums(k, &s);
	t->secs += k->secs;
	t->step.seconds = t->secs;
	if (t->phase == TUNE_SETTLING) {
		sums_add(&t->sample, &s);
		if (++t->sample_ticks >= t->rule.interval_s)
			settle_sample(t);
		if (t->phase == TUNE_SETTLING && t->secs >= t->rule.step_cap_s) {
			unstable(t);
			t->phase = TUNE_DONE;
		}
		return t->phase;
	}
	sums_add(&t->judged, &s);
	sums_add(&t->vsample, &s);
	if (t->vsample.secs + 1e-9 >= t->rule.sample_interval_s)
		verdict_sample(t);
	if (t->judged.secs + 1e-9 >= t->rule.judge_s || t->secs >= t->rule.step_cap_s) {
		/* a judged window shorter than one verdict sample: one partial sample */
		if (!t->vsamples || t->vsample.secs > 0)
			verdict_sample(t);
		judge(t);
		t->phase = TUNE_DONE;
	}
	return t->phase;
}

/* ---- the search ---- */

void tune_search_init(struct tune_search *s, unsigned int min, unsigned int max)
{
	memset(s, 0, sizeof(*s));
	s->min = MAX(min, 1u);
	s->max = MAX(max, s->min);
}

unsigned int tune_search_first(const struct tune_search *s)
{
	return s->min;
}

unsigned int tune_search_next(struct tune_search *s, unsigned int threads, bool pass)
{
	s->steps++;
	if (pass && threads > s->lo)
		s->lo = threads;
	if (!pass && (!s->hi || threads < s->hi))
		s->hi = threads;
	/* a count that failed above one that passed later (noise): the bracket is [lo, hi) */
	if (s->hi && s->hi <= s->lo)
		s->hi = s->lo + 1;
	if (!s->hi) /* raising: double until a count fails or the cap passed */
		return s->lo >= s->max ? 0 : MIN(s->lo * 2, s->max);
	if (!s->lo || s->hi - s->lo <= 1)
		return 0;
	return s->lo + (s->hi - s->lo) / 2;
}

unsigned int tune_search_choice(const struct tune_search *s, bool timed_out, char **reason)
{
	struct strbuf sb = STRBUF_INIT;

	if (timed_out)
		strbuf_addstr(&sb, "the time cap ended the search: ");
	if (!s->lo)
		strbuf_addf(&sb, "no count passed%s: measured at the fewest, %u",
			    s->hi ? "" : " yet", s->min);
	else if (!s->hi && s->lo >= s->max)
		strbuf_addf(&sb, "every count up to the cap passed (%u): the volume may carry more "
			    "(raise --tune-max-threads)", s->max);
	else if (!s->hi)
		strbuf_addf(&sb, "the largest count that passed so far: %u", s->lo);
	else if (s->hi - s->lo <= 1)
		strbuf_addf(&sb, "the largest count that passed: %u passed, %u failed", s->lo,
			    s->hi);
	else
		strbuf_addf(&sb, "the largest count that passed so far: %u passed, %u failed", s->lo,
			    s->hi);
	*reason = strbuf_detach(&sb, NULL);
	return s->lo ? s->lo : s->min;
}
