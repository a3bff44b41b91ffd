/* SPDX-License-Identifier: MIT */
/*
 * precision.h: a comparison of one lab's rounds as blocks: which results qualify, each row's
 * blocked model, where the noise is, the advice, and the adaptive lab's stop rule (which looks
 * at interval widths only).  docs/COMPARE.md, "Blocked analysis" and "Precision".
 */
#ifndef FSLAB_PRECISION_H
#define FSLAB_PRECISION_H

#include "compare/compare.h"

/* Cells shorter than this are never advised: batch means need a few seconds per batch, and a
 * Jetstress-like load needs its cache warm. */
#define ADVICE_MIN_CELL_S 10
#define ADVICE_MAX_CELL_S 7200
/* The advice stretches the cells' measured length at most this much: the noise inside a run
 * is only known to average out as 1 / length as far as the runs went. */
#define ADVICE_MAX_STRETCH 4

/*
 * compare_design - blocked when every result that counts (not aborted) comes from one lab
 * (the same lab id) and the method is repeats: sets c->blocked, c->design (why, in words),
 * c->lab_id and c->nrounds.
 */
void compare_design(struct compare *c);
/*
 * compare_block_row - the deltas of row from the blocked model of its values (log scale,
 * value ~ label + round over every non-aborted, not cache-served label): ratio, interval,
 * t-test on the pooled residual; where the model cannot be used (a value <= 0, labels and
 * rounds not connected) the row keeps Welch's test and row->unblocked_why says why.  Called
 * after the Welch deltas are filled, before the Holm correction.
 */
void compare_block_row(struct compare *c, struct cmp_row *row);
/* compare_noise - c->noise (transactional IOPS) and c->outliers (every headline row), from
 * the blocked models; nothing when not blocked. */
void compare_noise(struct compare *c);

/* The widest MDE among the claims (headline metrics of every claim pair). */
struct precision_check {
	double worst_pct;   /* widest MDE in %, NAN when no claim is tested */
	int group;          /* its label (group index), -1 when none */
	const char *metric; /* its metric's words ("transactional IOPS") */
	size_t npairs;      /* claim pairs looked at */
};
/*
 * compare_precision - the stop rule's input: only the minimum detectable differences of the
 * tested headline deltas of claim pairs (never p-values, estimates or signs).  0, or -ENOENT
 * when no claim is tested (single runs, every pair untestable).
 */
int compare_precision(const struct compare *c, struct precision_check *pc);

/*
 * compare_advice - Kalibera and Jones's allocation for this comparison's noise (c->noise):
 * cells per round = the labels, family = c->nclaims (at least 1).  target_pct > 0: the fewest
 * rounds reaching it (at most max_rounds).  0, or -EDOM when the noise is not known.
 */
int compare_advice(const struct compare *c, double target_pct, unsigned int max_rounds,
		   struct allocation *a);

#endif
