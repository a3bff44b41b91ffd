// SPDX-License-Identifier: MIT
/* hist.c: log-linear latency histogram, after fio's plat_val_to_idx()/plat_idx_to_val(). */
#include "lib/hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned int hist_index(uint64_t v)
{
	unsigned int msb, error_bits, base, offset, idx;

	if (v < 2 * HIST_VAL)
		return (unsigned int)v;
	msb = 63 - __builtin_clzll(v);
	error_bits = msb - HIST_BITS;
	base = (error_bits + 1) << HIST_BITS;
	offset = (HIST_VAL - 1) & (v >> error_bits);
	idx = base + offset;
	return idx < HIST_NR ? idx : HIST_NR - 1;
}

uint64_t hist_bucket_value(unsigned int idx)
{
	unsigned int k = idx >> HIST_BITS, error_bits;
	uint64_t base;

	if (k <= 1)
		return idx;
	error_bits = k - 1;
	base = 1ULL << (error_bits + HIST_BITS);
	return base + (((uint64_t)(idx % HIST_VAL) << error_bits) | (1ULL << (error_bits - 1)));
}

void hist_add(struct hist *h, uint64_t v)
{
	h->buckets[hist_index(v)]++;
	h->n++;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->n)
		return;
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned int i = 0; i < HIST_NR; i++)
		dst->buckets[i] += src->buckets[i];
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t want, seen = 0, v = 0;

	if (!h->n)
		return 0;
	if (p <= 0)
		return h->min;
	if (p >= 100)
		return h->max;
	want = (uint64_t)ceil(p / 100.0 * (double)h->n);
	if (want == 0)
		want = 1;
	for (unsigned int i = 0; i < HIST_NR; i++) {
		seen += h->buckets[i];
		if (seen >= want) {
			v = hist_bucket_value(i);
			break;
		}
	}
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0.0;
}

double hist_m2(const struct hist *h)
{
	long double m2;

	if (!h->n)
		return 0;
	/* 64-bit mantissa: the cancellation costs well under a nanosecond squared per sample */
	m2 = (long double)h->sumsq - (long double)h->sum * (long double)h->sum / (long double)h->n;
	return m2 > 0 ? (double)m2 : 0.0;
}

double hist_stddev(const struct hist *h)
{
	return h->n > 1 ? sqrt(hist_m2(h) / (double)(h->n - 1)) : 0.0;
}
