/* SPDX-License-Identifier: MIT */
/*
 * steady.h: steady state by the SNIA PTS rule (Solid State Storage Performance Test
 * Specification, "steady state"): a measurement window of W rounds is steady when
 *   1. the data excursion, max(y) - min(y) of the W round means, is within 20 % of their mean;
 *   2. the slope excursion, max - min of the least-squares line fitted to them across the
 *      window (|slope| x (W - 1), rounds numbered 1..W), is within 10 % of their mean.
 * fslab's rounds are intervals of the per-second timeline (W = 5 one-minute means by default);
 * the window slides one interval at a time.  docs/DESIGN.md "Steady state" says what to choose.
 */
#ifndef FSLAB_STEADY_H
#define FSLAB_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result/result.h"

#define STEADY_WINDOW 5           /* SNIA PTS: a measurement window of five rounds */
#define STEADY_INTERVAL_S 60      /* of one minute each */
#define STEADY_RANGE_PCT 20.0     /* data excursion within 20 % of the window's mean */
#define STEADY_EXCURSION_PCT 10.0 /* slope excursion within 10 % */
#define STEADY_MAX_ROUNDS 25      /* SNIA PTS: at most 25 rounds to reach it (the cap) */
#define STEADY_WINDOW_MAX 100     /* the largest W fslab takes */

struct steady_rule {
	unsigned int window;     /* W intervals, 2..STEADY_WINDOW_MAX */
	unsigned int interval_s; /* seconds per interval, >= 1 */
	double range_pct, excursion_pct;
};

/* The rule's figures on one window. */
struct steady_fit {
	double mean, min, max;
	double range_pct;     /* (max - min) in % of mean */
	double slope;         /* least-squares slope, per interval */
	double excursion_pct; /* |slope| x (n - 1) in % of mean */
	bool holds;
};

/* The default rule (5 x 60 s, 20 %, 10 %). */
void steady_rule_default(struct steady_rule *r);
/* The rule of a run's configuration (its steady_* fields; zero ones take the defaults). */
void steady_rule_of(const struct run_config *c, struct steady_rule *r);

/*
 * steady_judge - the rule r on the n (>= 2) interval means y[] into *f.  Returns whether the
 * window holds: false too when a mean is not finite or the window's mean is not positive
 * (then f's percentages are NaN).
 */
bool steady_judge(const double *y, size_t n, const struct steady_rule *r, struct steady_fit *f);

/*
 * The rule on a series given a second at a time (a live warm-up, a timeline): each second
 * adds a numerator and a denominator (IOPS: the second's I/Os and 1; a mean latency: the
 * sum of the latencies and the I/Os); an interval's mean is their sums' ratio (none when
 * its denominator is 0).  Memory is O(W), whatever the length of the series.
 */
struct steady_track {
	struct steady_rule rule;
	double num, den;        /* the interval being filled */
	unsigned int secs;
	double *ring;           /* the last W interval means (NaN: no data) */
	uint64_t intervals;     /* complete intervals so far */
	bool data;              /* an interval had a mean */
	bool attained;
	uint64_t first;         /* attained: the interval the first steady window starts at */
	double *first_means;    /* that window's means */
	struct steady_fit first_fit, last_fit;
	bool last_judged;       /* last_fit is the latest window's */
};

void steady_track_init(struct steady_track *t, const struct steady_rule *r);
void steady_track_release(struct steady_track *t);
/*
 * steady_track_second - one more second.  Returns true when it completed an interval and
 * the window ending there holds.
 */
bool steady_track_second(struct steady_track *t, double num, double den);
/* What the track found, in a result's terms (m released first, its means owned by m). */
void steady_track_result(const struct steady_track *t, struct steady_metric *m);

/*
 * steady_from_timeline - the rule r on transactional IOPS (database reads + writes per
 * second) and database read latency (ms) of a result's per-second timeline, into *out
 * (released first).  0, or -errno when a spilled timeline cannot be read (out then says
 * nothing: not present).
 */
int steady_from_timeline(const struct timeline *t, const struct steady_rule *r,
			 struct steady_state *out) __attribute__((warn_unused_result));

/*
 * steady_metric_text - m in words (heap): "attained from 120 s (window 120-420 s: mean 950,
 * range 8.1 %, excursion 2.0 %)", "NOT attained (last window ...)", "too short to judge (a
 * window is 5 x 60 s)", "no data".  unit follows the mean ("" or " ms"); digits its decimals.
 */
char *steady_metric_text(const struct steady_metric *m, const struct steady_state *rule,
			 const char *unit, int digits);

/* The seconds one window spans (W x interval). */
static inline double steady_rule_span_s(const struct steady_rule *r)
{
	return (double)r->window * r->interval_s;
}

#endif
