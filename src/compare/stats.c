// SPDX-License-Identifier: MIT
/* stats.c: Student t distribution, confidence intervals, Welch's t-test and batch means. */
#include "compare/stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One step of the modified Lentz algorithm for the coefficient aa; returns the factor for h. */
static double lentz(double aa, double *c, double *d)
{
	const double tiny = 1e-300;

	*d = 1 + aa * *d;
	if (fabs(*d) < tiny)
		*d = tiny;
	*c = 1 + aa / *c;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1 / *d;
	return *d * *c;
}

/* Continued fraction of the incomplete beta function (modified Lentz), NR 6.4 betacf. */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1, h;

	/* the first term: d = 1 / (1 - qab x / qap), c = 1, h = d */
	lentz(-qab * x / qap, &c, &d);
	c = 1;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		double del;

		h *= lentz(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		del = lentz(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

double stats_ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* The continued fraction converges fast for x below the mean; use the symmetry above. */
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* P(|T| >= |t|): the two-sided tail, computed directly so small p-values keep precision. */
static double t_two_sided(double t, double df)
{
	if (isinf(t))
		return 0;
	return stats_ibeta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail = t_two_sided(t, df) / 2;

	return t > 0 ? 1 - tail : tail;
}

/* The quantile by bisection on the CDF (200 steps of the incomplete beta at most). */
static double t_quantile(double p, double df);

/*
 * A small memo of quantiles: a comparison asks for the same few (0.975, 0.8, 1 - alpha/2m at
 * a handful of degrees of freedom) thousands of times, and a simulation of many labs (tests/
 * unit/test_relabel.c) millions.  Direct-mapped, per thread; exact keys.
 */
double stats_t_quantile(double p, double df)
{
	static _Thread_local struct {
		double p, df, q;
	} memo[256];
	uint64_t bp, bd, h;

	memcpy(&bp, &p, sizeof(bp));
	memcpy(&bd, &df, sizeof(bd));
	h = (bp * 0x9e3779b97f4a7c15ULL) ^ (bd * 0xc2b2ae3d27d4eb4fULL);
	h = (h ^ (h >> 29)) & 255;
	if (memo[h].p == p && memo[h].df == df && memo[h].df != 0)
		return memo[h].q;
	memo[h].p = p;
	memo[h].df = df;
	memo[h].q = t_quantile(p, df);
	return memo[h].q;
}

static double t_quantile(double p, double df)
{
	double lo, hi;

	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p < 0.5)
		return -t_quantile(1 - p, df);
	lo = 0;
	hi = 1;
	while (stats_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_t_sf(double t, double df)
{
	double tail = t_two_sided(t, df) / 2;

	return t > 0 ? tail : 1 - tail;
}

double stats_tost(double est, double se, double df, double lo, double hi)
{
	if (!(df >= 1) || !isfinite(se) || se < 0 || isnan(est))
		return NAN;
	if (se == 0)
		return est > lo && est < hi ? 0 : 1;
	/* H01: true <= lo, rejected by a large (est - lo) / se; H02: true >= hi, by a small one */
	return fmax(stats_t_sf((est - lo) / se, df), stats_t_sf((hi - est) / se, df));
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

double stats_norm_quantile(double p)
{
	double lo = -40, hi = 40;

	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	if (p > 0.5)
		return -stats_norm_quantile(1 - p); /* the lower tail keeps its precision */
	for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Regularized lower incomplete gamma P(a, x): its series below a + 1, else 1 - the continued
 * fraction of Q (Numerical Recipes 6.2, gser and gcf). */
static double gamma_p(double a, double x)
{
	double gln = lgamma(a);

	if (x <= 0)
		return 0;
	if (x < a + 1) {
		double ap = a, sum = 1 / a, del = sum;

		for (int n = 0; n < 1000 && fabs(del) > fabs(sum) * 1e-16; n++) {
			ap += 1;
			del *= x / ap;
			sum += del;
		}
		return sum * exp(-x + a * log(x) - gln);
	} else {
		double b = x + 1 - a, c = 1 / 1e-300, d = 1 / b, h = d;

		for (int i = 1; i <= 1000; i++) {
			double an = -i * (i - a), del;

			b += 2;
			d = an * d + b;
			if (fabs(d) < 1e-300)
				d = 1e-300;
			c = b + an / c;
			if (fabs(c) < 1e-300)
				c = 1e-300;
			d = 1 / d;
			del = d * c;
			h *= del;
			if (fabs(del - 1) < 1e-16)
				break;
		}
		return 1 - exp(-x + a * log(x) - gln) * h;
	}
}

double stats_chi2_cdf(double x, double df)
{
	return gamma_p(df / 2, x / 2);
}

double stats_chi2_quantile(double p, double df)
{
	double lo = 0, hi = df + 10;

	if (p <= 0)
		return 0;
	if (p >= 1)
		return INFINITY;
	while (stats_chi2_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (stats_chi2_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_ci_half(size_t n, double sd)
{
	if (n < 2)
		return NAN;
	return stats_t_quantile(1 - (1 - STATS_CONF) / 2, (double)(n - 1)) * sd / sqrt((double)n);
}

void stats_sample(const double *x, size_t n, struct sample *s)
{
	double mean = 0, m2 = 0;
	size_t k = 0;

	/* Welford: one pass, no cancellation. */
	for (size_t i = 0; i < n; i++) {
		double d;

		if (isnan(x[i]))
			continue;
		k++;
		d = x[i] - mean;
		mean += d / (double)k;
		m2 += d * (x[i] - mean);
	}
	s->n = k;
	s->mean = k ? mean : NAN;
	s->sd = k > 1 ? sqrt(m2 / (double)(k - 1)) : NAN;
	s->half = stats_ci_half(k, s->sd);
}

int stats_welch(const struct sample *a, const struct sample *b, struct welch *w)
{
	double va, vb, se2;

	if (a->n < 2 || b->n < 2)
		return -EINVAL;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (se2 == 0) {
		/* No spread on either side: equal means are equal, anything else is certain. */
		w->df = (double)(a->n + b->n - 2);
		w->t = a->mean == b->mean ? 0 : copysign(INFINITY, a->mean - b->mean);
		w->p = a->mean == b->mean ? 1 : 0;
		return 0;
	}
	w->t = (a->mean - b->mean) / sqrt(se2);
	w->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w->p = t_two_sided(w->t, w->df);
	return 0;
}

void stats_holm(const double *p, size_t n, double *adj)
{
	size_t *idx = malloc(n * sizeof(*idx)), m = 0;
	double run = 0;

	if (!idx) {
		/* no memory: Bonferroni, the conservative bound Holm improves on */
		for (size_t i = 0; i < n; i++)
			adj[i] = isnan(p[i]) ? NAN : fmin(1, p[i] * (double)n);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			idx[m++] = i;
	/* insertion sort by p: families are a few dozen tests at most; stable for ties */
	for (size_t i = 1; i < m; i++) {
		size_t k = idx[i], j = i;

		while (j && p[idx[j - 1]] > p[k]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = k;
	}
	for (size_t j = 0; j < m; j++) {
		double v = fmin(1, (double)(m - j) * p[idx[j]]);

		/* adj may alias p: each index is read here once, before it is written */
		run = fmax(run, v);
		adj[idx[j]] = run;
	}
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	free(idx);
}

double stats_mde(const struct sample *a, const struct sample *b, double alpha, double power)
{
	double va, vb, se2, df;

	if (a->n < 2 || b->n < 2 || isnan(a->sd) || isnan(b->sd))
		return NAN;
	va = a->sd * a->sd / (double)a->n;
	vb = b->sd * b->sd / (double)b->n;
	se2 = va + vb;
	if (se2 == 0)
		return 0;
	df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	return (stats_t_quantile(1 - alpha / 2, df) + stats_t_quantile(power, df)) * sqrt(se2);
}

int stats_batch_plan(size_t nrows, struct batch_plan *bp)
{
	size_t k = STATS_BATCHES;

	if (nrows < k * STATS_MIN_BATCH_LEN)
		k = nrows / STATS_MIN_BATCH_LEN;
	if (k < STATS_MIN_BATCHES) {
		bp->k = bp->len = bp->skip = 0;
		return -EINVAL;
	}
	bp->k = k;
	bp->len = nrows / k;
	bp->skip = nrows - bp->k * bp->len;
	return 0;
}

size_t stats_batch_means(const double *num, const double *den, const struct batch_plan *bp,
			 double *out)
{
	size_t nout = 0;

	for (size_t b = 0; b < bp->k; b++) {
		size_t first = bp->skip + b * bp->len;
		double sn = 0, sd = 0;

		for (size_t i = first; i < first + bp->len; i++) {
			sn += num[i];
			sd += den ? den[i] : 1;
		}
		if (sd > 0 && isfinite(sn))
			out[nout++] = sn / sd;
	}
	return nout;
}
