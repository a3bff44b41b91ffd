/* SPDX-License-Identifier: MIT */
/*
 * blocked.h: the randomized complete block design of a lab (value ~ label + round, additive,
 * least squares, residual variance pooled over every label), its contrasts, minimum detectable
 * differences, variance components and the Kalibera-Jones allocation of repetitions.  Pure
 * computation (no result files, no output); docs/COMPARE.md says why each piece is there.
 */
#ifndef FSLAB_BLOCKED_H
#define FSLAB_BLOCKED_H

#include <stddef.h>

/* One observation: y (the caller takes logs) of label (0..nlabels-1) in block (0..nblocks-1). */
struct rcbd_obs {
	size_t label, block;
	double y;
};

/*
 * The least-squares fit of y = mu + label + block + e on any subset of cells (missing cells
 * are simply absent: the unbalanced additive model is solved exactly by the normal equations,
 * Cholesky).  Label 0 and the first block with data are the reference levels.
 */
struct rcbd_fit {
	size_t n;          /* observations */
	size_t nlabels;    /* labels (every one has an observation) */
	size_t nblocks;    /* blocks with at least one observation */
	size_t p;          /* parameters: 1 + (nlabels - 1) + (nblocks - 1) */
	double df;         /* residual degrees of freedom, n - p (>= 1) */
	double s2;         /* residual variance, SSE / df */
	double *label;     /* nlabels: effect against label 0 (label[0] = 0) */
	double *block;     /* nblocks given to rcbd_fit: effect against the reference block, NAN
			      for a block without data */
	double *vlab;      /* nlabels x nlabels, row-major: the label part of (X'X)^-1 (row and
			      column 0 are 0); s2 * vlab is the covariance of the label effects */
	double *resid;     /* n: y - fitted, in the order of the observations */
	double *stdres;    /* n: internally studentised residual e / (s sqrt(1 - h)); NAN when
			      the leverage h is 1 (a block with a single observation) */
	double ms_block;   /* mean square of the blocks adjusted for labels (NAN: one block) */
	double n0;         /* observations per block for the block variance component (the
			      unbalanced ANOVA coefficient; nlabels when complete) */
};

/*
 * rcbd_fit - fit obs[0..n).  0; -EINVAL when a label in 0..nlabels-1 has no observation or an
 * index is out of range; -EDOM when the label effects cannot be estimated (labels and blocks
 * not connected) or no residual degree of freedom is left.  rcbd_release() f in every case.
 */
int rcbd_fit(const struct rcbd_obs *obs, size_t n, size_t nlabels, size_t nblocks,
	     struct rcbd_fit *f) __attribute__((warn_unused_result));
void rcbd_release(struct rcbd_fit *f);

/* Label a against label b: estimate, standard error, t on df, two-sided p, 95 % interval. */
struct rcbd_contrast {
	double est, se, df, t, p, lo, hi;
};
void rcbd_contrast(const struct rcbd_fit *f, size_t a, size_t b, struct rcbd_contrast *c);

/*
 * stats_mde_t - the minimum detectable difference of a two-sided t-test at level alpha with the
 * given power: (t(1 - alpha/2, df) + t(power, df)) * se.  NAN when df < 1 or se is not finite.
 */
double stats_mde_t(double se, double df, double alpha, double power);

/* The variance components (on the log scale, i.e. squared coefficients of variation). */
struct noise {
	double cell;      /* a cell's variance around its label and round: the blocked residual */
	double within;    /* of a cell's mean from the noise inside its run (batch means), at the
			     cells' measured length t_s; NAN when unknown */
	double between;   /* cell - within (floored at 0): what a new run adds */
	double between_ucb; /* its upper confidence bound: the cell variance's one-sided 80 %
			     bound from its df (df cell / chi2(0.20, df)) - within; what the
			     advice plans with (never a clamp to 0 from a handful of df) */
	double df;        /* the cell variance's degrees of freedom */
	double drift;     /* between rounds: (ms_block - cell) / n0, floored at 0 */
	double t_s;       /* measured seconds of a cell */
	double fixed_s;   /* a cell's other wall-clock seconds: prep, initialisation, warm-up,
			     checksum pass, teardown; NAN when unknown */
};

/* What a design of rounds x cells would give, for the allocation advice. */
struct allocation {
	double t_s;       /* measured seconds per cell */
	unsigned int rounds;
	double mde_pct;   /* the claims' MDE it would reach, % */
	double minutes;   /* wall clock of that many rounds */
};

/*
 * noise_allocate - Kalibera and Jones's allocation of repetitions between levels ("Rigorous
 * benchmarking in reasonable time", ISMM 2013, section 4), for a lab of cells_per_round cells
 * per round whose claims form a family of m tests: the cell length that minimises the cost of
 * a given precision, t* = sqrt(fixed_s * within-per-second / between) (clamped to min_t_s..
 * max_t_s), then the fewest rounds (at least 2, at most max_rounds) whose MDE of one label
 * against another (balanced design, df (cells_per_round - 1)(rounds - 1), level alpha / m,
 * power STATS_POWER) is at most target_pct (0: the rounds reach max_rounds).  0, or -EDOM when
 * a component is unknown.
 */
int noise_allocate(const struct noise *nz, unsigned int cells_per_round, size_t m,
		   double target_pct, double min_t_s, double max_t_s, unsigned int max_rounds,
		   struct allocation *out) __attribute__((warn_unused_result));

/* The claims' MDE in % for r rounds of cells of length t_s (the model of noise_allocate). */
double noise_mde_pct(const struct noise *nz, unsigned int cells_per_round, size_t m,
		     double t_s, unsigned int rounds);

/* The confidence of the upper bound the advice plans with: Browne's (1995) rule for a
 * variance from a pilot sample, the plan then reaches its power at least this often. */
#define NOISE_UCB_CONF 0.80
/* noise_ucb - the one-sided NOISE_UCB_CONF upper confidence bound of a variance s2 estimated
 * with df degrees of freedom: df s2 / chi2(1 - NOISE_UCB_CONF, df).  NAN when df < 1. */
double noise_ucb(double s2, double df);

/* A difference on the log scale as % of the reference: (exp(x) - 1) * 100. */
double log_pct(double x);

#endif
