/* SPDX-License-Identifier: MIT */
/* verdict.h: the Jetstress-style verdict: threshold sets, latency samples, the checks. */
#ifndef FSLAB_VERDICT_H
#define FSLAB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result/result.h"

/*
 * Jetstress 2013 threshold sets.  strict (the default): database reads average at most 20 ms,
 * log writes 10 ms, sample averages above 100 ms are maximum-latency errors; lenient (what
 * Jetstress applies to stress runs): the maximum goes to 200 ms.
 */
struct js_thresholds {
	const char *name;                 /* "strict", "lenient" */
	double avg_ms[LS_NR], max_ms[LS_NR]; /* per series class: db reads, log writes */
};
/* The set called name, or NULL. */
const struct js_thresholds *js_thresholds_find(const char *name);
/* "strict or lenient", for messages. */
#define JS_THRESHOLD_NAMES "strict or lenient"

#define JS_SAMPLE_INTERVAL_S 15 /* Jetstress's LogInterval: one counter sample per 15 s */
#define JS_MAX_LATENCY_ERRORS 6 /* Jetstress's MaximumLatencyErrors: samples tolerated above max */
#define JS_STALLS_PER_S 1.0     /* "Average Database Page Fault Stalls/sec ... not higher than 1" */

/*
 * lat_sampler - turns a per-second timeline of (ops, latency sum) per series class into
 * sample averages over interval_s seconds.  Only full intervals give samples; an interval
 * without I/O of a class gives no sample of that class.  Memory: one double per class per
 * full interval.
 */
struct lat_sampler {
	unsigned int interval_s;
	unsigned int secs;                 /* seconds in the current interval so far */
	uint64_t seconds;                  /* seconds fed in total */
	uint64_t intervals;                /* full intervals completed */
	uint64_t ops[LS_NR], lat_ns[LS_NR]; /* the current interval */
	bool partial;                      /* set by finish: one partial sample */
	size_t cap[LS_NR];
	struct latency_series out;         /* samples so far (scope set by finish) */
};

/* Start empty with interval_s seconds per sample (>= 1). */
void lat_sampler_init(struct lat_sampler *ls, unsigned int interval_s);
/* Feed one second: ops[k] completions of series class k with lat_ns[k] nanoseconds of
 * latency in total. */
void lat_sampler_add(struct lat_sampler *ls, const uint64_t *ops, const uint64_t *lat_ns);
/*
 * lat_sampler_finish - end of the measurement.  The unfinished interval is dropped unless no
 * interval was completed, when everything fed becomes one partial sample (ls->partial).
 * Moves the samples into *dst (scope copied; dst owns the arrays, release it with
 * latency_series_release) and leaves ls empty.
 */
void lat_sampler_finish(struct lat_sampler *ls, const char *scope, struct latency_series *dst);
/* Free what ls holds (after finish: nothing). */
void lat_sampler_release(struct lat_sampler *ls);

/* Samples in avg_ms[0..n) above limit_ms; *highest = the highest sample (0 when n == 0). */
size_t lat_samples_above(const double *avg_ms, size_t n, double limit_ms, double *highest);

/* How the verdict judges (from the result's config). */
struct js_verdict_opts {
	const struct js_thresholds *th;
	unsigned int max_latency_errors; /* samples tolerated above the maximum */
	double interval_s;               /* sampling interval, for notes */
	bool partial;                    /* the samples are one partial sample */
	bool strict_io_tail;             /* add the per-I/O tail checks */
};

/* What one scope measured. */
struct js_scope_data {
	const struct class_result *cls;         /* CLS_NR classes over the whole measurement */
	const struct latency_series *samples;   /* may be NULL: the maximum checks then fail */
	uint64_t io_errors, checksum_errors;
	uint64_t page_fault_stalls;
	uint64_t cache_pages;                   /* database cache pages (0: not known) */
	double seconds;                         /* measured seconds */
	/* threads that stopped on a failure (the run was cut short) and the first one's
	 * message (may be NULL); a load_failures check is added only when there were any */
	uint64_t load_failures;
	const char *load_failure;
	const char *first_io_error;             /* the first failed I/O, named; may be NULL */
};

struct strbuf;
/*
 * js_stall_note - the note of the db_page_fault_stalls check appended to sb: the count, and when the
 * check fails, what it means and what would fix it in plain words (the cache had no clean
 * page because the database writes, named with their rate and latency, did not keep up).
 */
void js_stall_note(struct strbuf *sb, const struct js_scope_data *d);

/*
 * js_verdict_scope - add the checks of one scope ("overall" or an instance name) to v and
 * return whether they all pass: per series class the whole-measurement average and the
 * maximum (at most o->max_latency_errors samples above the maximum), optionally the per-I/O
 * tail; page-fault stalls per second; I/O errors (the note names the first one),
 * checksum errors; load failures when any.
 */
bool js_verdict_scope(struct verdict *v, const char *scope, const struct js_verdict_opts *o,
		      const struct js_scope_data *d);

/* Target transactional IOPS from --mailboxes and --iops-per-mailbox. */
double js_target_from_mailboxes(unsigned int mailboxes, double iops_per_mailbox);

/*
 * js_verdict_target - add the overall target_iops check (achieved >= target) to v and return
 * whether it passes; origin says where the target came from (a note, may be NULL).
 */
bool js_verdict_target(struct verdict *v, double achieved, double target, const char *origin);

#endif
