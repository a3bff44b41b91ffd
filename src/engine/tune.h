/* SPDX-License-Identifier: MIT */
/*
 * tune.h: the thread-count tuner of `fslab run --threads auto`, its pure parts: one step's
 * judgement (settle until the database read latency is stable by a slope test over a window
 * of samples, then measure a judged window and hold it to the verdict's limits) and the
 * search over thread counts (doubling from the fewest, then bisection between the largest
 * count that passed and the smallest that failed).  The run (src/run/tune_run.c) feeds it a
 * tick a second and changes the load's thread count between steps.
 *
 * As Jetstress's tuner does it (docs/DESIGN.md "Automatic tuning"): a tuning cycle is first
 * transient, collecting database read latency samples until the slope of their change is
 * small, then stable, collecting the samples it judges; a cycle that finds no stable slope
 * within 10 minutes fails, and the whole tuning within an hour.  Thread count: "increase the
 * thread count to a value that fails, and then reduce the value until the test passes".
 */
#ifndef FSLAB_TUNE_H
#define FSLAB_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result/result.h"

#define TUNE_WINDOW 30        /* samples in the slope test's window (Jetstress: 30) */
#define TUNE_WINDOW_MAX 600
#define TUNE_INTERVAL_S 1     /* seconds per sample */
#define TUNE_SLOPE_PCT 10.0   /* the window's least-squares line moves by at most this, % */
#define TUNE_JUDGE_S 120      /* a stable step measured for its judgement (Jetstress: 120
				 samples in its stable state) */
#define TUNE_STEP_CAP_S 600   /* a step's longest time (Jetstress: 10 minutes per cycle) */
#define TUNE_CAP_S 3600       /* the whole search's (Jetstress: one hour) */
#define TUNE_MAX_THREADS 64   /* the most threads tried */

/* How a step is judged and how far the search goes (from the run's configuration). */
struct tune_rule {
	unsigned int window;     /* W samples in the slope test */
	unsigned int interval_s; /* seconds per sample */
	double slope_pct;        /* the largest |slope| x (W - 1), % of the window's mean */
	double judge_s;          /* seconds a stable step is measured for its judgement */
	double step_cap_s, cap_s; /* a step's and the search's longest time */
	unsigned int min_threads, max_threads;
	/* the verdict's limits (its threshold set): averages, the maximum of a sample average,
	 * samples tolerated above it, the verdict's sample interval; stalls per second */
	double db_read_avg_ms, log_write_avg_ms, db_read_max_ms, log_write_max_ms;
	unsigned int max_latency_errors, sample_interval_s;
	double stalls_per_s;
};

/* What the load did since the previous tick (about a second). */
struct tune_tick {
	double secs;                            /* the time that really passed */
	uint64_t db_reads, db_writes, log_writes, stalls;
	double db_read_lat_ms, log_write_lat_ms; /* latency sums of those I/Os, ms */
};

/* Sums over some ticks. */
struct tune_sums {
	double secs, db_read_lat_ms, log_write_lat_ms;
	uint64_t db_reads, db_writes, log_writes, stalls;
};

enum tune_phase {
	TUNE_SETTLING, /* waiting for the slope test to hold */
	TUNE_JUDGING,  /* stable: measuring the judged window */
	TUNE_DONE,     /* judged (or out of time): t->step says how */
};

/* One step: the load at one thread count until it is judged. */
struct tune_track {
	struct tune_rule rule;
	enum tune_phase phase;
	struct tune_step step;
	double secs;              /* the step's time so far */
	struct tune_sums sample;  /* the sample being filled */
	unsigned int sample_ticks;
	uint64_t nsamples;        /* complete samples */
	double *lat;              /* ring of the last W samples' database read latency, ms */
	struct tune_sums *sums;   /* and their sums */
	struct tune_sums judged;  /* the judged window so far */
	struct tune_sums vsample; /* the verdict sample being filled (judging) */
	unsigned int vsamples, vabove; /* complete verdict samples, those above a maximum */
	double vhighest;          /* the highest verdict sample average, ms */
};

/* The default rule's tuning parts (Jetstress's figures above); the limits are the caller's. */
void tune_rule_default(struct tune_rule *r);

/*
 * tune_slope_holds - the slope test on n (>= 2) sample means y[]: the least-squares line
 * moves by at most slope_pct % of their mean across them (|slope| x (n - 1) <= slope_pct % x
 * mean; decided by products).  *excursion_pct: that movement in % of the mean (NaN when a
 * value is not finite or the mean not positive, and then false).
 */
bool tune_slope_holds(const double *y, size_t n, double slope_pct, double *excursion_pct);

void tune_track_init(struct tune_track *t, const struct tune_rule *r, unsigned int threads);
void tune_track_release(struct tune_track *t);
/*
 * tune_track_tick - one more tick.  Returns the phase after it; at TUNE_DONE t->step holds
 * the judgement (its why owned by t until moved out: tune_track_take()).  A step that finds
 * no stable window within step_cap_s is done: not stable, failed, its figures those of the
 * last window.
 */
enum tune_phase tune_track_tick(struct tune_track *t, const struct tune_tick *k);
/* The step's record, moved out of t (its why is then the caller's). */
void tune_track_take(struct tune_track *t, struct tune_step *out);

/*
 * The search: the fewest threads first, doubling while steps pass (up to max_threads), then
 * bisection between the largest count that passed and the smallest that failed, to one
 * thread.  tune_search_next() takes the outcome of the step at threads and returns the next
 * count to try, or 0 when the search is over (tune_search_choice() then says what to
 * measure and why).
 */
struct tune_search {
	unsigned int min, max;
	unsigned int lo;      /* the largest count that passed (0: none yet) */
	unsigned int hi;      /* the smallest that failed (0: none yet) */
	unsigned int steps;
};
void tune_search_init(struct tune_search *s, unsigned int min, unsigned int max);
/* The first count to try (the fewest). */
unsigned int tune_search_first(const struct tune_search *s);
unsigned int tune_search_next(struct tune_search *s, unsigned int threads, bool pass);
/*
 * tune_search_choice - the count to measure: the largest that passed, else the fewest.  A
 * sentence saying why into *reason (heap): "the largest count that passed: 8 passed, 9
 * failed", "every count up to the cap passed (32): the volume may carry more",
 * "no count passed: measured at the fewest, 1", "the time cap ended the search: ...".
 */
unsigned int tune_search_choice(const struct tune_search *s, bool timed_out, char **reason);

#endif
