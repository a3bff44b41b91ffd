/* SPDX-License-Identifier: MIT */
/* hist.h: log-linear latency histogram (fio's scheme), constant memory, under 1 % error. */
#ifndef FSLAB_HIST_H
#define FSLAB_HIST_H

#include <stdint.h>

/*
 * fio's layout (stat.h, FIO_IO_U_PLAT_*): values below 2^(BITS+1) get a bucket each; above,
 * each power of two is split into 2^BITS equal buckets, so a bucket's midpoint is within
 * 1/2^(BITS+1) = 0.78 % of any value in it.  Values are nanoseconds; 32 groups cover up to
 * 2^37 ns (137 s); larger values land in the last bucket (max is still exact).
 */
#define HIST_BITS 6
#define HIST_VAL (1 << HIST_BITS)
#define HIST_GROUPS 32
#define HIST_NR (HIST_GROUPS * HIST_VAL)

/*
 * Mean and variance come from exact integer sums (sum and sum of squares in 128 bits) rather
 * than Welford's update: values are integer nanoseconds, so the sums are exact, merging is
 * addition, and the hot path has no division.  128 bits hold 2^37 ns squared times 2^53
 * samples.
 */
struct hist {
	uint64_t n;
	uint64_t min, max;
	unsigned __int128 sum, sumsq;
	uint64_t buckets[HIST_NR];
};

void hist_init(struct hist *h);
/* Record one value (ns).  Hot path: no allocation, no locking; one hist per thread. */
void hist_add(struct hist *h, uint64_t v);
/* dst += src. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Value -> bucket index, and bucket index -> representative value (bucket midpoint). */
unsigned int hist_index(uint64_t v);
uint64_t hist_bucket_value(unsigned int idx);
/* p in [0, 100]: smallest bucket value with at least p % of samples at or below it, clamped to
 * [min, max]; 0 for an empty histogram. */
uint64_t hist_percentile(const struct hist *h, double p);
double hist_stddev(const struct hist *h);
double hist_mean(const struct hist *h);
/* m2 = sum of squared deviations from the mean (for serialisation). */
double hist_m2(const struct hist *h);

#endif
