// SPDX-License-Identifier: MIT
/* test_labplan.c: the lab's run order: pinned shuffles, rounds contiguous, every cell once,
 * the slots of a config (raw baseline, filesystems, A/A copy once per round). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "lab/labplan.h"

#define MAXN 256

/* Every cell number 0..n-1 exactly once. */
static void assert_permutation(const unsigned int *out, unsigned int n)
{
	unsigned char seen[MAXN] = { 0 };

	for (unsigned int i = 0; i < n; i++) {
		assert_true(out[i] < n);
		assert_int_equal(seen[out[i]], 0);
		seen[out[i]] = 1;
	}
}

/* All of round r before any of round r + 1, and each round holds every slot once. */
static void assert_rounds(const unsigned int *out, unsigned int nslots, unsigned int rounds)
{
	for (unsigned int r = 0; r < rounds; r++) {
		unsigned char seen[MAXN] = { 0 };

		for (unsigned int i = r * nslots; i < (r + 1) * nslots; i++) {
			assert_int_equal(out[i] / nslots, r);
			assert_int_equal(seen[out[i] % nslots], 0);
			seen[out[i] % nslots] = 1;
		}
	}
}

static void test_names(void **state)
{
	enum lab_order o;

	(void)state;
	assert_int_equal(lab_order_parse("shuffled", &o), 0);
	assert_int_equal(o, LAB_ORDER_SHUFFLED);
	assert_int_equal(lab_order_parse("interleaved", &o), 0);
	assert_int_equal(o, LAB_ORDER_INTERLEAVED);
	assert_int_equal(lab_order_parse("sequential", &o), 0);
	assert_int_equal(o, LAB_ORDER_SEQUENTIAL);
	assert_int_equal(lab_order_parse("random", &o), -EINVAL);
	assert_int_equal(lab_order_parse("", &o), -EINVAL);
	assert_string_equal(lab_order_name(LAB_ORDER_SHUFFLED), "shuffled");
	assert_string_equal(lab_order_name(LAB_ORDER_INTERLEAVED), "interleaved");
	assert_string_equal(lab_order_name(LAB_ORDER_SEQUENTIAL), "sequential");
	/* the default of a zeroed config */
	assert_int_equal(LAB_ORDER_SHUFFLED, 0);
}

/* 3 slots (ext4, xfs, ext4-aa) x 2 rounds: cell = round * 3 + slot. */
static void test_sequential(void **state)
{
	static const unsigned int want[] = { 0, 3, 1, 4, 2, 5 };
	unsigned int out[6];

	(void)state;
	lab_plan_order(LAB_ORDER_SEQUENTIAL, 42, 3, 2, out);
	assert_memory_equal(out, want, sizeof(want));
}

static void test_interleaved(void **state)
{
	static const unsigned int want[] = { 0, 1, 2, 3, 4, 5 };
	unsigned int out[6];

	(void)state;
	lab_plan_order(LAB_ORDER_INTERLEAVED, 42, 3, 2, out);
	assert_memory_equal(out, want, sizeof(want));
}

/*
 * A seed is a fixed permutation (pinned: a change here changes every recorded lab's
 * meaning of order_seed), and another seed another one.
 */
static void test_shuffled_pinned(void **state)
{
	/* also computed by an independent Python xoshiro256** + Fisher-Yates */
	static const unsigned int want7[] = { 0, 4, 2, 1, 3, 6, 7, 5, 8, 9, 13, 14, 11, 10, 12 };
	unsigned int out[15], again[15];

	(void)state;
	lab_plan_order(LAB_ORDER_SHUFFLED, 7, 5, 3, out);
	assert_memory_equal(out, want7, sizeof(want7));
	lab_plan_order(LAB_ORDER_SHUFFLED, 7, 5, 3, again);
	assert_memory_equal(out, again, sizeof(out));
	lab_plan_order(LAB_ORDER_SHUFFLED, 8, 5, 3, again);
	assert_memory_not_equal(out, again, sizeof(out));
}

/* Every order, many shapes: each cell once; rounds contiguous unless sequential. */
static void test_properties(void **state)
{
	static const struct {
		unsigned int nslots, rounds;
	} shapes[] = { { 1, 1 }, { 1, 5 }, { 3, 1 }, { 3, 3 }, { 5, 4 }, { 16, 10 }, { 2, 100 } };
	unsigned int out[MAXN * 4];

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(shapes); k++) {
		unsigned int ns = shapes[k].nslots, nr = shapes[k].rounds;

		for (uint64_t seed = 0; seed < 20; seed++) {
			lab_plan_order(LAB_ORDER_SHUFFLED, seed, ns, nr, out);
			assert_permutation(out, ns * nr);
			assert_rounds(out, ns, nr);
		}
		lab_plan_order(LAB_ORDER_INTERLEAVED, 1, ns, nr, out);
		assert_rounds(out, ns, nr);
		for (unsigned int i = 0; i < ns * nr; i++)
			assert_int_equal(out[i], i);
		lab_plan_order(LAB_ORDER_SEQUENTIAL, 1, ns, nr, out);
		assert_permutation(out, ns * nr);
		/* all repeats of a slot back to back, slots in config order */
		for (unsigned int i = 0; i < ns * nr; i++)
			assert_int_equal(out[i], (i % nr) * ns + i / nr);
	}
}

/* The shuffle moves things: over many seeds every slot of a round starts it sometimes. */
static void test_shuffled_spreads(void **state)
{
	unsigned int first[4] = { 0 }, out[8];

	(void)state;
	for (uint64_t seed = 0; seed < 400; seed++) {
		lab_plan_order(LAB_ORDER_SHUFFLED, seed, 4, 2, out);
		first[out[0]]++;
	}
	for (int s = 0; s < 4; s++)
		assert_true(first[s] > 60 && first[s] < 140); /* 100 expected */
}

static void test_time_seed(void **state)
{
	(void)state;
	for (int i = 0; i < 100; i++)
		assert_true(lab_plan_time_seed() < 1000000000);
}

static int load(const char *text, struct lab_cfg *cfg)
{
	char path[] = "/tmp/fslab-labplan.XXXXXX";
	FILE *f = fdopen(mkstemp(path), "w");
	int ret;

	fputs(text, f);
	fclose(f);
	ret = lab_cfg_load(cfg, path);
	unlink(path);
	return ret;
}

/* The labels of a config's cells in run order, one string "a b c | d e f" (| between rounds,
 * unless sequential). */
static void run_labels(const char *text, char *buf, size_t len)
{
	struct lab_cfg c;
	struct lab_slot *slots;
	unsigned int n, order[MAXN];
	size_t used = 0;

	assert_int_equal(load(text, &c), 0);
	n = lab_plan_slots(&c, &slots);
	assert_int_equal(n * c.repeats, lab_cfg_ncells(&c));
	lab_plan_order(c.order, c.order_seed, n, c.repeats, order);
	buf[0] = 0;
	for (unsigned int i = 0; i < n * c.repeats; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? "" : i % n || c.order == LAB_ORDER_SEQUENTIAL
					 ? " " : " | ", slots[order[i] % n].label);
	lab_slots_free(slots, n);
	lab_cfg_release(&c);
}

#define CFG(lab, wl, fs) "[lab]\n" lab "[devices]\nimage_dir=/x\n[workload]\n" wl fs

static void test_config_slots(void **state)
{
	static const struct {
		const char *cfg, *want;
	} cases[] = {
		/* A/A after the filesystems, once per round */
		{ CFG("order = interleaved\nrepeats = 2\naa_check = yes\n", "", "[fs ext4]\n[fs xfs]\n"),
		  "ext4 xfs ext4-aa | ext4 xfs ext4-aa" },
		/* sequential: today's order, the A/A copy as one more label at the end */
		{ CFG("order = sequential\nrepeats = 2\naa_check = yes\n", "", "[fs ext4]\n[fs xfs]\n"),
		  "ext4 ext4 xfs xfs ext4-aa ext4-aa" },
		/* a sweep: the baseline's label at each point + "-aa"; the baseline by name */
		{ CFG("order = interleaved\nbaseline = xfs\naa_check = yes\n", "threads = 2,4\n",
		      "[fs ext4]\n[fs xfs]\n"),
		  "ext4-2t ext4-4t xfs-2t xfs-4t xfs-2t-aa xfs-4t-aa" },
		/* the raw baseline takes part like a filesystem, first in config order */
		{ CFG("order = interleaved\nraw_baseline = yes\nrepeats = 2\n", "", "[fs ext4]\n"),
		  "raw ext4 | raw ext4" },
		{ CFG("order = interleaved\nraw_baseline = yes\nbaseline = raw\naa_check = yes\n", "",
		      "[fs ext4]\n"),
		  "raw ext4 raw-aa" },
		/* shuffled with a seed: a fixed order (checked with an independent Python xoshiro256**) */
		{ CFG("order_seed = 7\nrepeats = 3\naa_check = yes\n", "", "[fs ext4]\n[fs xfs]\n[fs btrfs]\n"),
		  "ext4-aa xfs ext4 btrfs | ext4 xfs btrfs ext4-aa | xfs btrfs ext4-aa ext4" },
	};
	char got[4096];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		run_labels(cases[i].cfg, got, sizeof(got));
		if (strcmp(got, cases[i].want))
			fprintf(stderr, "case %zu: got \"%s\"\n", i, got);
		assert_string_equal(got, cases[i].want);
	}
}

/* Shuffled rounds of a config with A/A and a sweep: each A/A point exactly once per round. */
static void test_config_aa_per_round(void **state)
{
	struct lab_cfg c;
	struct lab_slot *slots;
	unsigned int n, order[MAXN];

	(void)state;
	assert_int_equal(load(CFG("repeats = 4\naa_check = yes\norder_seed = 99\n", "threads = 4,8\n",
				  "[fs ext4]\n[fs xfs]\n[fs btrfs]\n"), &c), 0);
	n = lab_plan_slots(&c, &slots);
	assert_int_equal(n, 8); /* (3 filesystems + A/A) x 2 thread counts */
	assert_string_equal(slots[6].label, "ext4-4t-aa");
	assert_string_equal(slots[6].aa_of, "ext4-4t");
	assert_string_equal(slots[6].name, "ext4-aa");
	assert_int_equal(slots[6].fs, 0);
	assert_string_equal(slots[7].label, "ext4-8t-aa");
	assert_null(slots[0].aa_of);
	lab_plan_order(c.order, c.order_seed, n, c.repeats, order);
	assert_permutation(order, n * c.repeats);
	assert_rounds(order, n, c.repeats);
	for (unsigned int r = 0; r < c.repeats; r++) {
		unsigned int aa = 0;

		for (unsigned int i = r * n; i < (r + 1) * n; i++)
			aa += slots[order[i] % n].aa_of != NULL;
		assert_int_equal(aa, 2);
	}
	lab_slots_free(slots, n);
	lab_cfg_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_shuffled_pinned),
		cmocka_unit_test(test_properties),
		cmocka_unit_test(test_shuffled_spreads),
		cmocka_unit_test(test_time_seed),
		cmocka_unit_test(test_config_slots),
		cmocka_unit_test(test_config_aa_per_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
