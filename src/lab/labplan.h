/* SPDX-License-Identifier: MIT */
/* labplan.h: the lab's run order (sequential, interleaved or shuffled rounds), pure. */
#ifndef FSLAB_LABPLAN_H
#define FSLAB_LABPLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "lab/labcfg.h"  /* enum lab_order */


/*
 * lab_plan_order - the run order of nslots x rounds cells.  Cell number r * nslots + s is
 * slot s (config order, from 0) in round r (from 0).  Writes all nslots * rounds cell numbers
 * into out[] in the order they run:
 *   sequential   s0r0 s0r1 .. s1r0 s1r1 ..  (the lab's order before rounds existed)
 *   interleaved  s0r0 s1r0 .. s0r1 s1r1 ..
 *   shuffled     round by round like interleaved, each round Fisher-Yates shuffled with one
 *                xoshiro256** stream seeded with seed (the same seed, the same order)
 */
void lab_plan_order(enum lab_order order, uint64_t seed, unsigned int nslots,
		    unsigned int rounds, unsigned int *out);

/* One slot: a label at one thread count; round r runs repeat r of every slot. */
struct lab_slot {
	char *name;   /* the cell id stem: the [fs] name, "raw", or "<baseline's fs>-aa" */
	char *label;  /* NAME, NAME-Nt in a sweep; the A/A copy <the baseline's label>-aa */
	char *aa_of;  /* the A/A copy: the label it repeats; else NULL */
	int fs;       /* index into cfg->fs, or -1 for the raw baseline (also for its A/A copy) */
	unsigned int threads;
};

/*
 * lab_plan_slots - the slots of cfg in config order: the raw baseline, each [fs], then the
 * A/A copy of the baseline (aa_check), each with its thread counts in order.  *out is heap
 * (free with lab_slots_free()); returns the number of slots.
 */
unsigned int lab_plan_slots(const struct lab_cfg *cfg, struct lab_slot **out);
void lab_slots_free(struct lab_slot *slots, unsigned int n);

/* A seed for a lab without order_seed: from the wall clock and the pid, at most 999999999. */
uint64_t lab_plan_time_seed(void);

#endif
