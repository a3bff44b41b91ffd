// SPDX-License-Identifier: MIT
/* test_hist.c: value -> bucket -> value round trips, percentiles against a sorted reference,
 * merge, mean/stddev. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/hist.h"
#include "lib/random.h"

static void test_round_trip(void **state)
{
	struct rng r;

	(void)state;
	/* exact below 128 */
	for (uint64_t v = 0; v < 128; v++)
		assert_int_equal(hist_bucket_value(hist_index(v)), v);
	/* under 1 % error everywhere else, including bucket edges */
	rng_seed(&r, 1);
	for (int i = 0; i < 200000; i++) {
		uint64_t v = rng_next(&r) >> (27 + rng_below(&r, 37)); /* 1 ns .. 137 s */
		uint64_t b;

		if (v < 128 || v >= (1ULL << 37))
			continue;
		b = hist_bucket_value(hist_index(v));
		assert_true(fabs((double)b - (double)v) / (double)v < 0.01);
	}
	for (int e = 7; e < 37; e++) {
		uint64_t edge = 1ULL << e;

		assert_true(fabs((double)hist_bucket_value(hist_index(edge)) - edge) / edge < 0.01);
		assert_true(fabs((double)hist_bucket_value(hist_index(edge - 1)) - (edge - 1)) /
			    (edge - 1) < 0.01);
	}
	/* indexes are monotonic in value and stay in range */
	for (uint64_t v = 1, prev = 0; v < (1ULL << 40); v = v * 3 / 2 + 1) {
		unsigned int idx = hist_index(v);

		assert_true(idx >= prev);
		assert_true(idx < HIST_NR);
		prev = idx;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_percentiles_vs_sorted(void **state)
{
	static const double ps[] = { 1, 10, 50, 90, 99, 99.9, 99.99 };
	const size_t n = 100000;
	uint64_t *v = xmalloc(n * sizeof(*v));
	struct hist *h = xmalloc(sizeof(*h));
	struct rng r;
	double sum = 0;

	(void)state;
	rng_seed(&r, 7);
	hist_init(h);
	for (size_t i = 0; i < n; i++) {
		/* a latency-like long-tailed distribution: 50 us .. ~50 ms */
		double x = 50e3 * exp(rng_double(&r) * 7);

		v[i] = (uint64_t)x;
		sum += v[i];
		hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < ARRAY_SIZE(ps); i++) {
		uint64_t want = v[(size_t)ceil(ps[i] / 100 * n) - 1];
		uint64_t got = hist_percentile(h, ps[i]);

		assert_true(fabs((double)got - want) / want < 0.01);
	}
	assert_int_equal(hist_percentile(h, 0), v[0]);
	assert_int_equal(hist_percentile(h, 100), v[n - 1]);
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	assert_true(fabs(hist_mean(h) - sum / n) / (sum / n) < 1e-9);
	free(v);
	free(h);
}

static void test_merge_and_stddev(void **state)
{
	struct hist *a = xmalloc(sizeof(*a)), *b = xmalloc(sizeof(*b)), *all = xmalloc(sizeof(*all));

	(void)state;
	hist_init(a);
	hist_init(b);
	hist_init(all);
	for (uint64_t i = 1; i <= 1000; i++) {
		hist_add(i % 3 ? a : b, i * 1000);
		hist_add(all, i * 1000);
	}
	hist_merge(a, b);
	assert_int_equal(a->n, 1000);
	assert_int_equal(a->min, 1000);
	assert_int_equal(a->max, 1000000);
	assert_true(fabs(hist_mean(a) - 500500.0) < 1e-6);
	assert_true(fabs(hist_stddev(a) - hist_stddev(all)) < 1e-6);
	/* sample stddev of 1..1000 is 288.8194; times 1000 */
	assert_true(fabs(hist_stddev(a) - 288819.4) < 1);
	assert_memory_equal(a->buckets, all->buckets, sizeof(a->buckets));
	/* merging an empty histogram changes nothing; empty percentile is 0 */
	hist_init(b);
	hist_merge(a, b);
	assert_int_equal(a->n, 1000);
	assert_int_equal(hist_percentile(b, 50), 0);
	free(a);
	free(b);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_percentiles_vs_sorted),
		cmocka_unit_test(test_merge_and_stddev),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
