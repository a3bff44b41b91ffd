// SPDX-License-Identifier: MIT
/* labplan.c: the lab's run order: sequential, interleaved or shuffled round-robin rounds. */
#include "lab/labplan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/random.h"

void lab_plan_order(enum lab_order order, uint64_t seed, unsigned int nslots,
		    unsigned int rounds, unsigned int *out)
{
	struct rng rng;
	unsigned int n = 0;

	if (order == LAB_ORDER_SEQUENTIAL) {
		for (unsigned int s = 0; s < nslots; s++)
			for (unsigned int r = 0; r < rounds; r++)
				out[n++] = r * nslots + s;
		return;
	}
	rng_seed(&rng, seed);
	for (unsigned int r = 0; r < rounds; r++) {
		unsigned int *round = out + r * nslots;

		for (unsigned int s = 0; s < nslots; s++)
			round[s] = r * nslots + s;
		if (order != LAB_ORDER_SHUFFLED)
			continue;
		/* Fisher-Yates: every permutation of the round equally likely */
		for (unsigned int i = nslots; i > 1; i--) {
			unsigned int j = (unsigned int)rng_below(&rng, i), t = round[i - 1];

			round[i - 1] = round[j];
			round[j] = t;
		}
	}
}

static char *label_at(const struct lab_cfg *c, const char *name, unsigned int threads)
{
	return c->nthreads > 1 ? xasprintf("%s-%ut", name, threads) : xstrdup(name);
}

unsigned int lab_plan_slots(const struct lab_cfg *c, struct lab_slot **out)
{
	int base = c->aa_check ? lab_cfg_baseline_fs(c) : 0;
	const char *base_name = base < 0 ? "raw" : c->nfs ? c->fs[base].name : "";
	unsigned int n = 0, max = (unsigned int)(c->nfs + c->raw_baseline + c->aa_check) *
				  (unsigned int)c->nthreads;
	struct lab_slot *s = xcalloc(max ? max : 1, sizeof(*s));

	/* f: -1 the raw baseline, 0..nfs-1 the sections, nfs the A/A copy */
	for (int f = c->raw_baseline ? -1 : 0; f < c->nfs + c->aa_check; f++)
		for (int t = 0; t < c->nthreads; t++) {
			struct lab_slot *x = &s[n++];

			x->threads = (unsigned int)c->threads[t];
			if (f == c->nfs) {
				/* the baseline's label + "-aa" at every point of a sweep */
				x->fs = base;
				x->name = xasprintf("%s-aa", base_name);
				x->aa_of = label_at(c, base_name, x->threads);
				x->label = xasprintf("%s-aa", x->aa_of);
			} else {
				x->fs = f;
				x->name = xstrdup(f < 0 ? "raw" : c->fs[f].name);
				x->label = label_at(c, x->name, x->threads);
			}
		}
	*out = s;
	return n;
}

void lab_slots_free(struct lab_slot *s, unsigned int n)
{
	for (unsigned int i = 0; s && i < n; i++) {
		free(s[i].name);
		free(s[i].label);
		free(s[i].aa_of);
	}
	free(s);
}

uint64_t lab_plan_time_seed(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	/* short enough to read in lab.log and type into order_seed */
	return mix64((uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec +
		     ((uint64_t)getpid() << 40)) % 1000000000;
}
