// SPDX-License-Identifier: MIT
/* blocked.c: the randomized complete block design by least squares (normal equations,
 * Cholesky), contrasts, MDE, variance components and the allocation advice (blocked.h). */
#include "compare/blocked.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/stats.h"

double log_pct(double x)
{
	return expm1(x) * 100;
}

double stats_mde_t(double se, double df, double alpha, double power)
{
	if (!(df >= 1) || !isfinite(se))
		return NAN;
	return (stats_t_quantile(1 - alpha / 2, df) + stats_t_quantile(power, df)) * se;
}

void rcbd_release(struct rcbd_fit *f)
{
	free(f->label);
	free(f->block);
	free(f->vlab);
	free(f->resid);
	free(f->stdres);
	memset(f, 0, sizeof(*f));
}

/*
 * Cholesky factorisation A = L L' in place (lower triangle, p x p row-major).  -EDOM when A is
 * not positive definite to working precision: a pivot below 1e-10 of its diagonal entry means
 * a column is a combination of the others (labels and rounds not connected).
 */
static int cholesky(double *a, size_t p)
{
	for (size_t j = 0; j < p; j++) {
		double d = a[j * p + j], orig = d;

		for (size_t k = 0; k < j; k++)
			d -= a[j * p + k] * a[j * p + k];
		if (!(d > 1e-10 * fmax(orig, 1)))
			return -EDOM;
		d = sqrt(d);
		a[j * p + j] = d;
		for (size_t i = j + 1; i < p; i++) {
			double s = a[i * p + j];

			for (size_t k = 0; k < j; k++)
				s -= a[i * p + k] * a[j * p + k];
			a[i * p + j] = s / d;
		}
	}
	return 0;
}

/* Solve L L' x = b in place (b becomes x). */
static void chol_solve(const double *l, size_t p, double *b)
{
	for (size_t i = 0; i < p; i++) {
		for (size_t k = 0; k < i; k++)
			b[i] -= l[i * p + k] * b[k];
		b[i] /= l[i * p + i];
	}
	for (size_t i = p; i-- > 0;) {
		for (size_t k = i + 1; k < p; k++)
			b[i] -= l[k * p + i] * b[k];
		b[i] /= l[i * p + i];
	}
}

/* The columns of observation o's row of X: intercept, label dummies, block dummies. */
static size_t xcols(size_t label, size_t bcol, size_t nlabels, size_t *cols)
{
	size_t n = 0;

	cols[n++] = 0;
	if (label > 0)
		cols[n++] = label;
	if (bcol > 0)
		cols[n++] = nlabels - 1 + bcol;
	return n;
}

/* Who is where in a fit: observations per label and block, each block's column (0 for the
 * reference block and for blocks without data), each label's sum. */
struct design {
	size_t *bcol, *nlab, *nblk;
	double *labsum;
};

static void design_release(struct design *d)
{
	free(d->bcol);
	free(d->nblk);
	free(d->nlab);
	free(d->labsum);
}

/* Count the observations; f->n, nlabels, nblocks (those with data) and p.  -EINVAL for an
 * observation outside the labels or blocks, not finite, or a label without one. */
static int design_count(struct design *d, const struct rcbd_obs *obs, size_t n, size_t nlabels,
			size_t nblocks, struct rcbd_fit *f)
{
	d->bcol = xcalloc(nblocks, sizeof(size_t));
	d->nblk = xcalloc(nblocks, sizeof(size_t));
	d->nlab = xcalloc(nlabels, sizeof(size_t));
	d->labsum = xcalloc(nlabels, sizeof(double));
	for (size_t i = 0; i < n; i++) {
		if (obs[i].label >= nlabels || obs[i].block >= nblocks || !isfinite(obs[i].y))
			return -EINVAL;
		d->nlab[obs[i].label]++;
		d->nblk[obs[i].block]++;
		d->labsum[obs[i].label] += obs[i].y;
	}
	for (size_t l = 0; l < nlabels; l++)
		if (!d->nlab[l])
			return -EINVAL;
	/* blocks without data have no column; the first with data is the reference */
	for (size_t b = 0; b < nblocks; b++)
		if (d->nblk[b])
			d->bcol[b] = f->nblocks++;
	f->n = n;
	f->nlabels = nlabels;
	f->p = 1 + (nlabels - 1) + (f->nblocks - 1);
	return 0;
}

/* Least squares: beta (p) and (X'X)^-1 (p x p) from the normal equations (heap, caller frees).
 * 0, or -EDOM when labels and rounds are not connected. */
static int solve(const struct rcbd_obs *obs, const struct design *d, const struct rcbd_fit *f,
		 double **beta, double **inv)
{
	size_t p = f->p, cols[3];
	double *xtx = xcalloc(p * p, sizeof(double)), *xty = xcalloc(p, sizeof(double));
	int ret;

	/* the normal equations, accumulated row by row (X has at most 3 ones per row) */
	for (size_t i = 0; i < f->n; i++) {
		size_t k = xcols(obs[i].label, d->bcol[obs[i].block], f->nlabels, cols);

		for (size_t a = 0; a < k; a++) {
			xty[cols[a]] += obs[i].y;
			for (size_t b = 0; b < k; b++)
				xtx[cols[a] * p + cols[b]] += 1;
		}
	}
	ret = cholesky(xtx, p);
	if (ret) {
		free(xtx);
		free(xty);
		return ret;
	}
	chol_solve(xtx, p, xty); /* xty is now beta */
	/* (X'X)^-1, one column at a time: p is small (labels + rounds) */
	*inv = xcalloc(p * p, sizeof(double));
	for (size_t j = 0; j < p; j++) {
		double *e = xcalloc(p, sizeof(double));

		e[j] = 1;
		chol_solve(xtx, p, e);
		for (size_t i = 0; i < p; i++)
			(*inv)[i * p + j] = e[i];
		free(e);
	}
	free(xtx);
	*beta = xty;
	return 0;
}

/* Residuals, standardised residuals and s2 into f; *sse the residual sum of squares, *sse_lab
 * that of the labels alone (for the block component). */
static void residuals(const struct rcbd_obs *obs, const struct design *d, const double *beta,
		      const double *inv, struct rcbd_fit *f, double *sse, double *sse_lab)
{
	size_t p = f->p, cols[3];

	*sse = *sse_lab = 0;
	f->resid = xcalloc(f->n, sizeof(double));
	f->stdres = xcalloc(f->n, sizeof(double));
	for (size_t i = 0; i < f->n; i++) {
		size_t k = xcols(obs[i].label, d->bcol[obs[i].block], f->nlabels, cols);
		double fit = 0, lm = d->labsum[obs[i].label] / (double)d->nlab[obs[i].label];

		for (size_t a = 0; a < k; a++)
			fit += beta[cols[a]];
		f->resid[i] = obs[i].y - fit;
		*sse += f->resid[i] * f->resid[i];
		*sse_lab += (obs[i].y - lm) * (obs[i].y - lm);
	}
	f->s2 = *sse / f->df;
	for (size_t i = 0; i < f->n; i++) {
		size_t k = xcols(obs[i].label, d->bcol[obs[i].block], f->nlabels, cols);
		double h = 0;

		for (size_t a = 0; a < k; a++)
			for (size_t b = 0; b < k; b++)
				h += inv[cols[a] * p + cols[b]];
		f->stdres[i] = h < 1 - 1e-9 && f->s2 > 0 ? f->resid[i] / sqrt(f->s2 * (1 - h)) : NAN;
	}
}

int rcbd_fit(const struct rcbd_obs *obs, size_t n, size_t nlabels, size_t nblocks,
	     struct rcbd_fit *f)
{
	struct design d = { 0 };
	double *beta = NULL, *inv = NULL, sse, sse_lab;
	size_t p;
	int ret;

	memset(f, 0, sizeof(*f));
	if (!n || !nlabels || !nblocks)
		return -EINVAL;
	ret = design_count(&d, obs, n, nlabels, nblocks, f);
	if (!ret && n <= f->p)
		ret = -EDOM;
	if (!ret) {
		f->df = (double)(n - f->p);
		ret = solve(obs, &d, f, &beta, &inv);
	}
	if (ret)
		goto out;
	p = f->p;
	f->label = xcalloc(nlabels, sizeof(double));
	for (size_t l = 1; l < nlabels; l++)
		f->label[l] = beta[l];
	f->block = xcalloc(nblocks, sizeof(double));
	for (size_t b = 0; b < nblocks; b++)
		f->block[b] = !d.nblk[b] ? NAN : d.bcol[b] ? beta[nlabels - 1 + d.bcol[b]] : 0;
	f->vlab = xcalloc(nlabels * nlabels, sizeof(double));
	for (size_t a = 1; a < nlabels; a++)
		for (size_t b = 1; b < nlabels; b++)
			f->vlab[a * nlabels + b] = inv[a * p + b];
	residuals(obs, &d, beta, inv, f, &sse, &sse_lab);
	/* blocks after labels: the reduction of the residual sum of squares, per block df;
	 * n0 = (n - sum n_b^2 / n) / (b - 1), the ANOVA coefficient of an unbalanced one-way
	 * layout (= the number of labels when every round is complete) */
	if (f->nblocks > 1) {
		double sq = 0;

		for (size_t b = 0; b < nblocks; b++)
			sq += (double)d.nblk[b] * (double)d.nblk[b];
		f->ms_block = (sse_lab - sse) / (double)(f->nblocks - 1);
		f->n0 = ((double)n - sq / (double)n) / (double)(f->nblocks - 1);
	} else {
		f->ms_block = f->n0 = NAN;
	}
out:
	design_release(&d);
	free(beta);
	free(inv);
	if (ret)
		rcbd_release(f);
	return ret;
}

void rcbd_contrast(const struct rcbd_fit *f, size_t a, size_t b, struct rcbd_contrast *c)
{
	size_t L = f->nlabels;
	double v = f->vlab[a * L + a] + f->vlab[b * L + b] - 2 * f->vlab[a * L + b];
	double q = stats_t_quantile(1 - (1 - STATS_CONF) / 2, f->df);

	c->est = f->label[a] - f->label[b];
	c->se = sqrt(fmax(v, 0) * f->s2);
	c->df = f->df;
	if (c->se > 0) {
		c->t = c->est / c->se;
		c->p = stats_ibeta(c->df / 2, 0.5, c->df / (c->df + c->t * c->t));
	} else {
		/* no residual spread at all: equal is equal, anything else certain */
		c->t = c->est == 0 ? 0 : copysign(INFINITY, c->est);
		c->p = c->est == 0 ? 1 : 0;
	}
	c->lo = c->est - q * c->se;
	c->hi = c->est + q * c->se;
}

/* ---- where the noise is, and what to do about it ---- */

double noise_ucb(double s2, double df)
{
	if (!(df >= 1) || !isfinite(s2))
		return NAN;
	return df * s2 / stats_chi2_quantile(1 - NOISE_UCB_CONF, df);
}

double noise_mde_pct(const struct noise *nz, unsigned int cells_per_round, size_t m,
		     double t_s, unsigned int rounds)
{
	double w1 = isfinite(nz->within) ? nz->within * nz->t_s : 0; /* per-second variance */
	double v = nz->between + w1 / t_s;
	double df = (double)(cells_per_round - 1) * (rounds - 1);

	if (rounds < 2 || cells_per_round < 2 || !m)
		return NAN;
	return log_pct(stats_mde_t(sqrt(2 * v / rounds), df, STATS_ALPHA / (double)m,
				   STATS_POWER));
}

int noise_allocate(const struct noise *nz, unsigned int cells_per_round, size_t m,
		   double target_pct, double min_t_s, double max_t_s, unsigned int max_rounds,
		   struct allocation *out)
{
	double w1, t;
	unsigned int r;

	if (!isfinite(nz->between) || !isfinite(nz->within) || !isfinite(nz->fixed_s) ||
	    !(nz->t_s > 0) || cells_per_round < 2 || max_rounds < 2 || !m)
		return -EDOM;
	w1 = nz->within * nz->t_s;
	/* Kalibera and Jones, eq. for two levels: the optimal repetitions of the inner level,
	 * n2 = sqrt(c1 S2^2 / (c2 S1^2)), with c1 the cost of a new run (fixed_s), c2 = 1 s per
	 * measured second, S2^2 the per-second variance and S1^2 the between-run variance */
	t = nz->between > 0 ? sqrt(fmax(nz->fixed_s, 1) * w1 / nz->between) : max_t_s;
	t = fmin(fmax(round(t), min_t_s), max_t_s);
	for (r = 2; r < max_rounds; r++)
		if (target_pct > 0 && noise_mde_pct(nz, cells_per_round, m, t, r) <= target_pct)
			break;
	out->t_s = t;
	out->rounds = r;
	out->mde_pct = noise_mde_pct(nz, cells_per_round, m, t, r);
	out->minutes = r * (double)cells_per_round * (t + fmax(nz->fixed_s, 0)) / 60;
	return 0;
}
