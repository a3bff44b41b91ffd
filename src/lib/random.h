/* SPDX-License-Identifier: MIT */
/* random.h: seeded random numbers (xoshiro256**) and a 64-bit mixing hash. */
#ifndef FSLAB_RANDOM_H
#define FSLAB_RANDOM_H

#include <stdint.h>

/* mix64 - a 64-bit finaliser (Stafford's variant 13 of MurmurHash3's): a well-spread hash of
 * x, for seeding and tags. */
static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Fast seeded PRNG (xoshiro256**): deterministic per seed, one per thread, no locking. */
struct rng {
	uint64_t s[4];
};
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n) (n > 0), without modulo bias worth speaking of (Lemire). */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double rng_double(struct rng *r);

#endif
