// SPDX-License-Identifier: MIT
/* verdict.c: the Jetstress-style verdict: threshold sets, latency samples, the checks. */
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/strbuf.h"

/* Jetstress 2013: strict is the default; lenient raises the maximum for stress runs. */
static const struct js_thresholds sets[] = {
	{ .name = "strict", .avg_ms = { [LS_DB_READ] = 20, [LS_LOG_WRITE] = 10 },
	  .max_ms = { [LS_DB_READ] = 100, [LS_LOG_WRITE] = 100 } },
	{ .name = "lenient", .avg_ms = { [LS_DB_READ] = 20, [LS_LOG_WRITE] = 10 },
	  .max_ms = { [LS_DB_READ] = 200, [LS_LOG_WRITE] = 200 } },
};

const struct js_thresholds *js_thresholds_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(sets); i++)
		if (!strcmp(sets[i].name, name))
			return &sets[i];
	return NULL;
}

/* ---- latency samples ---- */

void lat_sampler_init(struct lat_sampler *ls, unsigned int interval_s)
{
	memset(ls, 0, sizeof(*ls));
	ls->interval_s = interval_s ? interval_s : 1;
}

/* The current interval (full, or the partial whole) becomes one sample per class with I/O. */
static void emit(struct lat_sampler *ls)
{
	for (int k = 0; k < LS_NR; k++) {
		struct latency_series *o = &ls->out;

		if (!ls->ops[k])
			continue; /* no I/O of this class: no sample */
		if (o->n[k] == ls->cap[k]) {
			ls->cap[k] = ls->cap[k] ? ls->cap[k] * 2 : 64;
			o->avg_ms[k] = xrealloc(o->avg_ms[k], ls->cap[k] * sizeof(double));
		}
		o->avg_ms[k][o->n[k]++] = (double)ls->lat_ns[k] / (double)ls->ops[k] / 1e6;
	}
	memset(ls->ops, 0, sizeof(ls->ops));
	memset(ls->lat_ns, 0, sizeof(ls->lat_ns));
	ls->secs = 0;
}

void lat_sampler_add(struct lat_sampler *ls, const uint64_t *ops, const uint64_t *lat_ns)
{
	for (int k = 0; k < LS_NR; k++) {
		ls->ops[k] += ops[k];
		ls->lat_ns[k] += lat_ns[k];
	}
	ls->seconds++;
	if (++ls->secs == ls->interval_s) {
		emit(ls);
		ls->intervals++;
	}
}

void lat_sampler_finish(struct lat_sampler *ls, const char *scope, struct latency_series *dst)
{
	if (!ls->intervals && ls->seconds) {
		/* shorter than one interval: the whole measurement is the one (partial) sample */
		emit(ls);
		ls->partial = true;
	}
	*dst = ls->out;
	dst->scope = xstrdup(scope);
	memset(&ls->out, 0, sizeof(ls->out));
	memset(ls->cap, 0, sizeof(ls->cap));
}

void lat_sampler_release(struct lat_sampler *ls)
{
	latency_series_release(&ls->out);
	memset(ls->cap, 0, sizeof(ls->cap));
}

size_t lat_samples_above(const double *avg_ms, size_t n, double limit_ms, double *highest)
{
	size_t above = 0;

	*highest = 0;
	for (size_t i = 0; i < n; i++) {
		if (avg_ms[i] > limit_ms)
			above++;
		if (avg_ms[i] > *highest)
			*highest = avg_ms[i];
	}
	return above;
}

/* ---- checks ---- */

static const struct {
	const char *avg, *max, *tail;
} names[LS_NR] = {
	[LS_DB_READ] = { "db_read_avg_latency", "db_read_max_latency", "db_read_io_tail" },
	[LS_LOG_WRITE] = { "log_write_avg_latency", "log_write_max_latency", "log_write_io_tail" },
};

#define NO_IO "no I/O of this class was measured"

/* Maximum check: at most N sample averages above the maximum. */
static bool check_max(struct verdict *v, const char *scope, const struct js_verdict_opts *o,
		      const struct js_scope_data *d, int k)
{
	const struct latency_series *s = d->samples;
	size_t n = s ? s->n[k] : 0, above;
	double highest, lim = o->th->max_ms[k];
	char note[192], rule[64], what[96];
	bool ok;

	above = lat_samples_above(n ? s->avg_ms[k] : NULL, n, lim, &highest);
	ok = d->cls[lat_series_cls[k]].ops > 0 && n > 0 && above <= o->max_latency_errors;
	if (o->partial)
		snprintf(what, sizeof(what), "one partial sample: the whole %.0f s measurement",
			 d->seconds);
	else
		snprintf(what, sizeof(what), "%g s averages", o->interval_s);
	if (!d->cls[lat_series_cls[k]].ops)
		snprintf(note, sizeof(note), NO_IO);
	else if (!s)
		snprintf(note, sizeof(note), "no latency samples were taken");
	else
		snprintf(note, sizeof(note), "%zu of %zu samples (%s) above %g ms; %u tolerated",
			 above, n, what, lim, o->max_latency_errors);
	snprintf(rule, sizeof(rule), "samples above limit <= %u", o->max_latency_errors);
	verdict_add_rule(v, scope, names[k].max, highest, lim, "ms", rule, ok, note);
	return ok;
}

/* Opt-in per-I/O tail: at most N single I/Os slower than the maximum. */
static bool check_tail(struct verdict *v, const char *scope, const struct js_verdict_opts *o,
		       const struct class_result *c, int k)
{
	char note[128], rule[64];
	bool ok = c->ops > 0 && c->ios_above_max_limit <= o->max_latency_errors;

	snprintf(rule, sizeof(rule), "I/Os above %g ms <= limit", o->th->max_ms[k]);
	if (c->ops)
		snprintf(note, sizeof(note), "%llu of %llu I/Os above %g ms; p99.9 %.1f ms, max "
			 "%.1f ms", (unsigned long long)c->ios_above_max_limit,
			 (unsigned long long)c->ops, o->th->max_ms[k], c->lat_us.p99_9 / 1e3,
			 c->lat_us.max / 1e3);
	else
		snprintf(note, sizeof(note), NO_IO);
	verdict_add_rule(v, scope, names[k].tail, (double)c->ios_above_max_limit,
			 o->max_latency_errors, "count", rule, ok, note);
	return ok;
}

void js_stall_note(struct strbuf *sb, const struct js_scope_data *d)
{
	const struct class_result *w = &d->cls[CLS_DB_WRITE];

	strbuf_addf(sb, "%llu waits for a free cache page in %.0f s",
		    (unsigned long long)d->page_fault_stalls, d->seconds);
	if (!(d->seconds > 0) || d->page_fault_stalls / d->seconds <= JS_STALLS_PER_S)
		return;
	/* Jetstress's reading of the counter: the storage did not keep up with the checkpoint */
	strbuf_addstr(sb, ": the database cache");
	if (d->cache_pages)
		strbuf_addf(sb, " (%llu pages)", (unsigned long long)d->cache_pages);
	strbuf_addf(sb, " had no clean page left (all dirty or being read or written) because the "
		    "database writes (%.0f/s, %.2f ms on average) did not keep up with the changes; "
		    "faster database writes, a larger --cache or fewer --threads would fix it",
		    w->iops, w->lat_us.mean / 1e3);
}

bool js_verdict_scope(struct verdict *v, const char *scope, const struct js_verdict_opts *o,
		      const struct js_scope_data *d)
{
	double rate = d->seconds > 0 ? (double)d->page_fault_stalls / d->seconds : 0;
	struct strbuf note = STRBUF_INIT;
	char rule[32], *first;
	bool all = true, ok;

	for (int k = 0; k < LS_NR; k++) {
		const struct class_result *c = &d->cls[lat_series_cls[k]];
		double avg = c->lat_us.mean / 1e3;

		ok = c->ops > 0 && avg <= o->th->avg_ms[k];
		verdict_add_rule(v, scope, names[k].avg, avg, o->th->avg_ms[k], "ms", "avg <= limit",
				 ok, c->ops ? NULL : NO_IO);
		all = all && ok;
		all = check_max(v, scope, o, d, k) && all;
		if (o->strict_io_tail)
			all = check_tail(v, scope, o, c, k) && all;
	}
	ok = rate <= JS_STALLS_PER_S;
	js_stall_note(&note, d);
	snprintf(rule, sizeof(rule), "stalls/s <= %g", JS_STALLS_PER_S);
	verdict_add_rule(v, scope, "db_page_fault_stalls", rate, JS_STALLS_PER_S, "/s", rule, ok,
			 note.buf);
	strbuf_release(&note);
	all = all && ok;
	first = d->io_errors && d->first_io_error ? xasprintf("first: %s", d->first_io_error)
						   : NULL;
	verdict_add_rule(v, scope, "io_errors", (double)d->io_errors, 0, "count", "count == 0",
			 d->io_errors == 0, first);
	free(first);
	verdict_add_rule(v, scope, "checksum_errors", (double)d->checksum_errors, 0, "count",
			 "count == 0", d->checksum_errors == 0, NULL);
	if (d->load_failures)
		verdict_add_rule(v, scope, "load_failures", (double)d->load_failures, 0, "count",
				 "count == 0", false, d->load_failure);
	return all && d->io_errors == 0 && d->checksum_errors == 0 && !d->load_failures;
}

double js_target_from_mailboxes(unsigned int mailboxes, double iops_per_mailbox)
{
	return (double)mailboxes * iops_per_mailbox;
}

bool js_verdict_target(struct verdict *v, double achieved, double target, const char *origin)
{
	bool ok = achieved >= target; /* NaN fails */

	verdict_add_rule(v, "overall", "target_iops", achieved, target, "IOPS",
			 "achieved >= target", ok, origin);
	return ok;
}
