// SPDX-License-Identifier: MIT
/* sequential.c: group-sequential boundaries by recursive numerical integration, and the
 * nominal levels of a lab that stops when decided (sequential.h). */
#include "compare/sequential.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "compare/stats.h"

/* Where a standard normal statistic has no mass worth integrating (P(|Z| > 8.5) ~ 2e-17). */
#define SEQ_ZMAX 8.5
/* Grid step of the integration (Simpson's rule): boundaries exact to ~1e-6 with it. */
#define SEQ_STEP 0.025

double seq_spend_obf(double a, double t)
{
	if (!(t > 0))
		return 0;
	if (t >= 1)
		return a;
	return 2 * (1 - stats_norm_cdf(stats_norm_quantile(1 - a / 2) / sqrt(t)));
}

/* A grid over [lo, hi] with Simpson weights: n + 1 points (n even).  Returns n + 1. */
static size_t grid(double lo, double hi, double *x, double *w)
{
	size_t n = (size_t)ceil((hi - lo) / (2 * SEQ_STEP)) * 2;
	double h;

	if (n < 2)
		n = 2;
	h = (hi - lo) / (double)n;
	for (size_t i = 0; i <= n; i++) {
		x[i] = lo + h * (double)i;
		w[i] = h / 3 * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
	}
	return n + 1;
}

/* The standard normal density. */
static double phi(double z)
{
	return exp(-z * z / 2) / sqrt(2 * M_PI);
}

/*
 * The probability of crossing at this look (Z >= c, and with sides 2 also Z <= -c) without
 * having crossed before: the mass g[i] at x[i] of the last look moved on by an independent
 * increment (r = sqrt(I_prev / I), s = sqrt(1 - r^2) of the statistic's scale).
 */
static double cross(const double *x, const double *g, size_t n, double r, double s, double c,
		    int sides)
{
	double p = 0;

	for (size_t i = 0; i < n; i++) {
		double up = 1 - stats_norm_cdf((c - r * x[i]) / s);

		if (sides == 2)
			up += stats_norm_cdf((-c - r * x[i]) / s);
		p += g[i] * up;
	}
	return p;
}

int seq_bounds(const double *info, const double *spent, size_t k, int sides, double *z)
{
	size_t cap = (size_t)(2 * SEQ_ZMAX / SEQ_STEP) + 8, n = 0;
	double *x = xcalloc(cap, sizeof(double)), *g = xcalloc(cap, sizeof(double));
	double *x2 = xcalloc(cap, sizeof(double)), *w2 = xcalloc(cap, sizeof(double));
	double prev = 0;
	int ret = 0;

	for (size_t j = 0; j < k && !ret; j++) {
		double want = spent[j] - prev, r, s, lo = 0, hi = 40, top;
		size_t m;

		if (!(info[j] > 0) || (j && !(info[j] > info[j - 1])) || !(want >= -1e-15) ||
		    !(spent[j] < 1) || (sides != 1 && sides != 2)) {
			ret = -EINVAL;
			break;
		}
		r = j ? sqrt(info[j - 1] / info[j]) : 0;
		s = sqrt(1 - r * r);
		if (!j) {
			/* the first look: Z_1 itself is standard normal */
			n = 1;
			x[0] = 0;
			g[0] = 1;
		}
		if (want <= 1e-15) {
			z[j] = INFINITY;
		} else {
			for (int it = 0; it < 100 && hi - lo > 1e-9; it++) {
				double mid = (lo + hi) / 2;

				if (cross(x, g, n, r, s, mid, sides) > want)
					lo = mid;
				else
					hi = mid;
			}
			z[j] = (lo + hi) / 2;
		}
		prev = spent[j];
		/* the mass that goes on: the density of Z_j on its continuation region */
		top = fmin(z[j], SEQ_ZMAX);
		m = grid(sides == 2 ? -top : -SEQ_ZMAX, top, x2, w2);
		for (size_t i = 0; i < m; i++) {
			double f = 0;

			for (size_t q = 0; q < n; q++)
				f += g[q] * phi((x2[i] - r * x[q]) / s) / s;
			w2[i] *= f;
		}
		memcpy(x, x2, m * sizeof(double));
		memcpy(g, w2, m * sizeof(double));
		n = m;
	}
	free(x);
	free(g);
	free(x2);
	free(w2);
	return ret;
}

static double nominal(const struct seq_plan *p, double a, int sides)
{
	size_t k = p->rounds - p->min_rounds + 1;
	double *info = xcalloc(k, sizeof(double)), *spent = xcalloc(k, sizeof(double));
	double *z = xcalloc(k, sizeof(double)), out = NAN;

	for (size_t j = 0; j < k; j++) {
		double t = (double)(p->min_rounds + j) / p->max_rounds;

		info[j] = (double)(p->min_rounds + j);
		/* two-sided: a / 2 spent per side, both sides counted */
		spent[j] = sides == 2 ? 2 * seq_spend_obf(a / 2, t) : seq_spend_obf(a, t);
	}
	if (p->final)
		spent[k - 1] = a;
	if (!seq_bounds(info, spent, k, sides, z))
		out = isinf(z[k - 1]) ? 0 : sides == 2 ? 2 * (1 - stats_norm_cdf(z[k - 1]))
						      : 1 - stats_norm_cdf(z[k - 1]);
	/* the grid's rounding never makes a look more lenient than a single test */
	out = fmin(out, a);
	free(info);
	free(spent);
	free(z);
	return out;
}

double seq_nominal(const struct seq_plan *p, double a, int sides)
{
	/* a lab asks for a handful, a simulation of many labs for the same few again and
	 * again: searched in full (a computed boundary costs far more than the search) */
	static _Thread_local struct {
		struct seq_plan p;
		double a, v;
		int sides;
	} memo[256];
	static _Thread_local size_t n, next;

	if (!p->min_rounds || p->min_rounds > p->rounds || p->rounds > p->max_rounds)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (memo[i].a == a && memo[i].sides == sides &&
		    memo[i].p.min_rounds == p->min_rounds && memo[i].p.max_rounds == p->max_rounds &&
		    memo[i].p.rounds == p->rounds && memo[i].p.final == p->final)
			return memo[i].v;
	memo[next].p = *p;
	memo[next].a = a;
	memo[next].sides = sides;
	memo[next].v = nominal(p, a, sides);
	n = MAX(n, next + 1);
	next = (next + 1) % ARRAY_SIZE(memo);
	return memo[(next + ARRAY_SIZE(memo) - 1) % ARRAY_SIZE(memo)].v;
}
