// SPDX-License-Identifier: MIT
/* jetstress_model.c: transaction mix, log file naming, cache and lazy-writer sizing (the
 * verdict: verdict.c). */
#include "jetstress.h"
#include "lib/random.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "dbfile.h"

const unsigned int js_txn_weights[JS_TXN_NR] = {
	[JS_INSERT] = 40, [JS_DELETE] = 20, [JS_REPLACE] = 5, [JS_READ] = 35,
};
const char *const js_txn_names[JS_TXN_NR] = {
	[JS_INSERT] = "insert", [JS_DELETE] = "delete", [JS_REPLACE] = "replace", [JS_READ] = "read",
};

enum js_txn js_pick_txn(struct rng *r)
{
	unsigned int x = (unsigned int)rng_below(r, 100);

	for (int t = 0; t < JS_TXN_NR; t++) {
		if (x < js_txn_weights[t])
			return (enum js_txn)t;
		x -= js_txn_weights[t];
	}
	return JS_READ;
}

char *js_log_name(char *buf, size_t len, uint64_t gen)
{
	snprintf(buf, len, "E00%08llX.log", (unsigned long long)gen);
	return buf;
}

uint64_t js_log_gen(const char *name)
{
	unsigned long long g = 0;
	char *end;

	if (strlen(name) != 15 || strncmp(name, "E00", 3) || strcmp(name + 11, ".log"))
		return 0;
	for (int i = 3; i < 11; i++)
		if (!strchr("0123456789ABCDEF", name[i]))
			return 0;
	g = strtoull(name + 3, &end, 16);
	return end == name + 11 ? g : 0;
}

uint64_t js_cache_default(uint64_t db_size)
{
	uint64_t c = MAX(db_size / 100 * JS_CACHE_PCT, JS_CACHE_MIN);

	return MIN(MIN(c, JS_CACHE_MAX), db_size / JS_CACHE_MAX_FRACTION);
}

unsigned int js_sessions_of(unsigned int threads, unsigned int databases, unsigned int idx)
{
	return databases ? threads / databases + (idx < threads % databases) : 0;
}

unsigned int js_writer_depth(unsigned int sessions)
{
	uint64_t d = (uint64_t)sessions * JS_WRITER_DEPTH_PER_SESSION;

	return (unsigned int)MIN(MAX(d, JS_WRITER_DEPTH_MIN), JS_WRITER_DEPTH_MAX);
}

unsigned int js_writer_threads(const char *engine, unsigned int depth)
{
	return engine && !strcmp(engine, "psync") && depth ? depth : 1;
}

uint32_t js_cache_slots(uint64_t cache_size, uint64_t npages, unsigned int sessions,
			unsigned int depth)
{
	uint64_t need = (uint64_t)sessions * JS_CACHE_PAGES_PER_SESSION + depth;
	uint64_t want = MIN(cache_size / DB_PAGE_SIZE, npages / 2);

	return (uint32_t)MIN(MAX(want, need), UINT32_MAX / 4);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[n] (n > 0), interpolated between order statistics. */
static double quantile(const double *v, size_t n, double q)
{
	double pos = q * (double)(n - 1);
	size_t i = (size_t)pos;

	return i + 1 < n ? v[i] + (v[i + 1] - v[i]) * (pos - (double)i) : v[n - 1];
}

void js_spread(const double *v, size_t n, struct js_spread *s)
{
	double *w, sum = 0, ss = 0;

	if (!n) {
		*s = (struct js_spread){ NAN, NAN, NAN, NAN, NAN, NAN };
		return;
	}
	w = xmalloc(n * sizeof(*w));
	memcpy(w, v, n * sizeof(*w));
	qsort(w, n, sizeof(*w), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += w[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (w[i] - s->mean) * (w[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	s->min = w[0];
	s->max = w[n - 1];
	s->p50 = quantile(w, n, 0.5);
	s->p95 = quantile(w, n, 0.95);
	free(w);
}
