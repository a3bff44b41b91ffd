// SPDX-License-Identifier: MIT
/* test_align.c: device topology -> exact mkfs argv (fsprep/align.c), no root, no devices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"

/* Topologies: logical, physical, min_io, opt_io, alignment offset, partition start, size. */
#define T512 { 512, 512, 512, 0, 0, 0, 8 * GiB }
#define T4KN { 4096, 4096, 4096, 0, 0, 0, 8 * GiB }
#define T512E { 512, 4096, 4096, 0, 0, 0, 8 * GiB }
#define TOPT64K { 512, 4096, 4096, 64 * KiB, 0, 0, 8 * GiB }
#define TRAID { 512, 4096, 64 * KiB, 256 * KiB, 0, 0, 8 * GiB }
#define TCHUNK64K { 512, 512, 64 * KiB, 64 * KiB, 0, 0, 8 * GiB }

static const struct {
	const char *name;
	const char *fs;
	struct topology t;
	uint64_t cluster;
	bool force;
	const char *extra;
	const char *argv; /* joined, device "/dev/x", label "fslab-db" */
	uint32_t bs, cluster_size, stride, stripe_width, su, sw;
} cases[] = {
	{ "ext4 512/512, no opt_io", "ext4", T512, 0, false, NULL,
	  "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -L fslab-db /dev/x",
	  4096, 4096, 0, 0, 0, 0 },
	{ "ext4 4Kn", "ext4", T4KN, 0, false, NULL,
	  "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -L fslab-db /dev/x",
	  4096, 4096, 0, 0, 0, 0 },
	{ "ext4 opt_io 64K, min_io 4K", "ext4", TOPT64K, 0, false, NULL,
	  "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0,stride=1,stripe_width=16 -L fslab-db /dev/x",
	  4096, 4096, 1, 16, 0, 0 },
	{ "ext4 RAID chunk 64K stripe 256K", "ext4", TRAID, 0, false, NULL,
	  "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0,stride=16,stripe_width=64 -L fslab-db /dev/x",
	  4096, 4096, 16, 64, 0, 0 },
	{ "ext4 min_io = opt_io = 64K", "ext4", TCHUNK64K, 0, false, NULL,
	  "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0,stride=16,stripe_width=16 -L fslab-db /dev/x",
	  4096, 4096, 16, 16, 0, 0 },
	{ "ext4 bogus opt_io 0xffff sectors", "ext4", { 512, 512, 512, 33553920, 0, 0, 8 * GiB },
	  0, false, NULL,
	  "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -L fslab-db /dev/x",
	  4096, 4096, 0, 0, 0, 0 },
	{ "ext4 opt_io 32M over the grain cap", "ext4", { 512, 4096, 4096, 32 * MiB, 0, 0, 8 * GiB },
	  0, false, NULL,
	  "mkfs.ext4 -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 -L fslab-db /dev/x",
	  4096, 4096, 0, 0, 0, 0 },
	{ "ext4 --cluster 2048 --force --mkfs-opts", "ext4", TOPT64K, 2048, true, " -O ^has_journal  -m 0 ",
	  "mkfs.ext4 -F -b 2048 -E lazy_itable_init=0,lazy_journal_init=0,stride=2,stripe_width=32 -L fslab-db -O ^has_journal -m 0 /dev/x",
	  2048, 2048, 2, 32, 0, 0 },
	{ "xfs 512/512", "xfs", T512, 0, false, NULL,
	  "mkfs.xfs -b size=4096 -L fslab-db /dev/x", 4096, 4096, 0, 0, 0, 0 },
	{ "xfs 4Kn", "xfs", T4KN, 0, false, NULL,
	  "mkfs.xfs -b size=4096 -s size=4096 -L fslab-db /dev/x", 4096, 4096, 0, 0, 0, 0 },
	{ "xfs 512e (no -s: mkfs.xfs picks the physical size)", "xfs", T512E, 0, false, NULL,
	  "mkfs.xfs -b size=4096 -L fslab-db /dev/x", 4096, 4096, 0, 0, 0, 0 },
	{ "xfs opt_io 64K, min_io 4K", "xfs", TOPT64K, 0, false, NULL,
	  "mkfs.xfs -b size=4096 -d su=65536,sw=1 -L fslab-db /dev/x", 4096, 4096, 0, 0, 65536, 1 },
	{ "xfs RAID chunk 64K stripe 256K, --force", "xfs", TRAID, 0, true, NULL,
	  "mkfs.xfs -f -b size=4096 -d su=65536,sw=4 -L fslab-db /dev/x", 4096, 4096, 0, 0, 65536, 4 },
	{ "ntfs default 64K cluster", "ntfs", T512, 0, false, NULL,
	  "mkntfs -Q -c 65536 -L fslab-db /dev/x", 65536, 65536, 0, 0, 0, 0 },
	{ "ntfs 4Kn", "ntfs", T4KN, 0, false, NULL,
	  "mkntfs -Q -c 65536 -s 4096 -L fslab-db /dev/x", 65536, 65536, 0, 0, 0, 0 },
	{ "ntfs --cluster 4096 --force", "ntfs", TRAID, 4096, true, NULL,
	  "mkntfs -F -Q -c 4096 -L fslab-db /dev/x", 4096, 4096, 0, 0, 0, 0 },
	{ "btrfs", "btrfs", TOPT64K, 0, false, NULL,
	  "mkfs.btrfs -s 4096 -L fslab-db /dev/x", 4096, 4096, 0, 0, 0, 0 },
	{ "btrfs --force", "btrfs", T4KN, 4096, true, NULL,
	  "mkfs.btrfs -f -s 4096 -L fslab-db /dev/x", 4096, 4096, 0, 0, 0, 0 },
};

static void test_mkfs_argv(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct mkfs_req r = {
			.fs = fs_find(cases[i].fs),
			.device = "/dev/x",
			.label = "fslab-db",
			.cluster = cases[i].cluster,
			.force = cases[i].force,
			.extra = cases[i].extra,
		};
		struct mkfs_cmd p;
		char *joined;

		print_message("case: %s\n", cases[i].name);
		assert_non_null(r.fs);
		assert_int_equal(mkfs_cmd_build(&p, &cases[i].t, &r), 0);
		joined = mkfs_cmd_line(&p);
		assert_string_equal(joined, cases[i].argv);
		assert_null(p.argv.v[p.argv.nr]);
		assert_int_equal(p.block_size, cases[i].bs);
		assert_int_equal(p.cluster_size, cases[i].cluster_size);
		assert_int_equal(p.stride, cases[i].stride);
		assert_int_equal(p.stripe_width, cases[i].stripe_width);
		assert_int_equal(p.su, cases[i].su);
		assert_int_equal(p.sw, cases[i].sw);
		assert_true(p.aligned);
		free(joined);
		mkfs_cmd_release(&p);
	}
}

static void test_bad_cluster(void **state)
{
	static const struct {
		const char *fs;
		struct topology t;
		uint64_t cluster;
		const char *extra;
	} bad[] = {
		{ "ext4", T512, 8192, NULL },       /* above the page size */
		{ "ext4", T512, 3000, NULL },       /* not a power of two */
		{ "ext4", T4KN, 1024, NULL },       /* below the logical sector */
		{ "xfs", T512, 512, NULL },         /* v5 XFS needs 1024 or more */
		{ "btrfs", T512, 65536, NULL },     /* only the page size */
		{ "ntfs", T512, 128 * KiB, NULL },  /* beyond 64K */
		{ "ntfs", T512, 3000, NULL },
		{ "ntfs", T4KN, 2048, NULL },       /* smaller than a 4Kn sector */
		{ "ext4", T512, 0, " \t " },        /* blank --mkfs-opts */
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct mkfs_req r = { .fs = fs_find(bad[i].fs), .device = "/dev/x",
				      .label = "l", .cluster = bad[i].cluster,
				      .extra = bad[i].extra };
		struct mkfs_cmd p;

		assert_int_equal(mkfs_cmd_build(&p, &bad[i].t, &r), -FSLAB_EINPUT);
		assert_int_equal(p.argv.nr, 0);
	}
}

static void test_alignment(void **state)
{
	static const struct {
		struct topology t;
		uint64_t grain;
		bool aligned;
	} cases[] = {
		{ T512, 4096, true },
		{ { 512, 512, 512, 0, 0, 63 * 512, GiB }, 4096, false },     /* DOS-era start */
		{ { 512, 4096, 4096, 0, 0, 2048 * 512, GiB }, 4096, true },  /* 1 MiB start */
		{ { 512, 4096, 4096, 0, 0, 4096 + 512, GiB }, 4096, false },
		{ { 512, 4096, 4096, 0, 3584, 0, GiB }, 4096, false },       /* alignment offset */
		{ { 512, 4096, 4096, 64 * KiB, 0, 32 * KiB, GiB }, 64 * KiB, false },
		{ { 512, 4096, 4096, 64 * KiB, 0, MiB, GiB }, 64 * KiB, true },
		{ { 512, 4096, 64 * KiB, 256 * KiB, 0, MiB, GiB }, 256 * KiB, true },
		{ { 512, 512, 512, 33553920, 0, MiB, GiB }, 4096, true },    /* bogus opt_io */
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct mkfs_req r = { .fs = fs_find("xfs"), .device = "/dev/x", .label = "l" };
		struct mkfs_cmd p;

		assert_int_equal(topology_grain(&cases[i].t), cases[i].grain);
		assert_int_equal(topology_aligned(&cases[i].t), cases[i].aligned);
		/* The warning flag travels with the plan. */
		assert_int_equal(mkfs_cmd_build(&p, &cases[i].t, &r), 0);
		assert_int_equal(p.aligned, cases[i].aligned);
		mkfs_cmd_release(&p);
	}
}

/* the command line prep.json and the plan show: strbuf_add_sq() per word (test_strbuf.c) */
static void test_cmd_line(void **state)
{
	const char *argv[] = { "mkfs", "-L", "a b", "it's", "", "x=1,y=2", NULL };
	struct mkfs_cmd p = { .argv = STRVEC_INIT };
	char *s;

	strvec_pushv(&p.argv, argv);
	s = mkfs_cmd_line(&p);
	mkfs_cmd_release(&p);

	(void)state;
	assert_string_equal(s, "mkfs -L 'a b' 'it'\\''s' '' x=1,y=2");
	free(s);
}

static void test_fs_table(void **state)
{
	static const char *const names[] = { "ext4", "xfs", "ntfs", "btrfs" };
	static const char *const packages[] = { "e2fsprogs", "xfsprogs", "ntfs-3g", "btrfs-progs" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct fs_desc *fs = fs_find(names[i]);

		assert_non_null(fs);
		assert_string_equal(fs->mkfs->package, packages[i]);
		assert_non_null(strstr(fs->mkfs->mount_opts, "noatime"));
	}
	/* ReFS is in the table, but no Linux tool makes it */
	assert_null(fs_find("refs")->mkfs);
	assert_null(fs_find("EXT4"));
	assert_null(fs_find(""));
	assert_string_equal(fs_find("ntfs")->mkfs->mount_helper, "mount.ntfs-3g");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mkfs_argv),
		cmocka_unit_test(test_bad_cluster),
		cmocka_unit_test(test_alignment),
		cmocka_unit_test(test_cmd_line),
		cmocka_unit_test(test_fs_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
