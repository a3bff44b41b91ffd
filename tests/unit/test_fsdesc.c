// SPDX-License-Identifier: MIT
/*
 * test_fsdesc.c: the filesystem descriptor table (fsprep/fs.c, fs_<name>.c): every entry is
 * complete, names are unique and listed in table order, lookups, and raw (no builder, no
 * verifier) refused cleanly by mkfs_cmd_build() and verify_volume().  No root, no devices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "fsprep/prepP.h"

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static void test_entries_complete(void **state)
{
	(void)state;
	assert_true(fs_count() >= 5);
	assert_null(fs_at(fs_count()));
	for (size_t i = 0; i < fs_count(); i++) {
		const struct fs_desc *fs = fs_at(i);

		assert_non_null(fs);
		print_message("entry %zu: %s\n", i, fs->name);
		assert_non_null(fs->name);
		assert_true(fs->name[0]);
		assert_non_null(fs->package);
		assert_true(fs->package[0]);
		assert_true(fs->min_size > 0);
		assert_ptr_equal(fs_find(fs->name), fs);
		if (fs_is_raw(fs)) {
			/* Nothing to format, verify or mount: the callers must never get a NULL call. */
			assert_null(fs->mkfs);
			assert_null(fs->syntax);
			assert_null(fs->build);
			assert_null(fs->verify);
			assert_null(fs->mount_type);
			assert_false(fs_cache_limited(fs));
			continue;
		}
		assert_non_null(fs->mkfs);
		/* --mkfs-opts is checked against how the tool reads options (mkfs_opts.c) */
		assert_non_null(fs->syntax);
		assert_non_null(fs->syntax->shortopts);
		assert_non_null(fs->version_flag);
		assert_non_null(fs->force_flag);
		assert_non_null(fs->build);
		assert_non_null(fs->verify);
		assert_non_null(fs->verify_method);
		assert_true(!strcmp(fs->verify_method, "libext2fs") ||
			    !strcmp(fs->verify_method, "libblkid"));
		assert_non_null(fs->blkid_type);
		assert_non_null(fs->mount_type);
		assert_non_null(fs->mount_opts);
		assert_non_null(strstr(fs->mount_opts, "noatime"));
		/* The default block size must pass the filesystem's own --cluster rules. */
		assert_non_null(fs->block_error);
		assert_true(fs->block_min <= fs->block_default);
		assert_true(fs->block_default <= fs->block_max);
		if (fs->block_pow2)
			assert_true(is_pow2(fs->block_default));
		/* The cgroup is entered for the helper that forks the FUSE daemon. */
		if (fs_cache_limited(fs))
			assert_non_null(fs->mount_helper);
	}
}

static void test_names(void **state)
{
	char built[256] = "";
	size_t len = 0;

	(void)state;
	for (size_t i = 0; i < fs_count(); i++) {
		len += (size_t)snprintf(built + len, sizeof(built) - len, "%s%s", i ? ", " : "",
					fs_at(i)->name);
		assert_true(len < sizeof(built));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(fs_at(i)->name, fs_at(j)->name);
	}
	assert_string_equal(fs_names(), built);
	assert_string_equal(fs_names(), "ext4, xfs, ntfs, ntfs3, btrfs, raw");
	/* Built once, the same string afterwards. */
	assert_ptr_equal(fs_names(), fs_names());
}

static void test_find(void **state)
{
	static const char *const unknown[] = { "refs", "EXT4", "", "ext", "ext4 ", "raw2", "fat" };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++)
		assert_null(fs_find(unknown[i]));
	assert_ptr_equal(fs_find("ext4"), &fs_ext4);
	assert_ptr_equal(fs_find("raw"), &fs_raw);
	assert_true(fs_is_raw(fs_find("raw")));
	assert_true(fs_cache_limited(fs_find("ntfs")));
	assert_string_equal(fs_find("raw")->notes, "raw devices: no filesystem; the lab's baseline");
}

/* Before the table, builders[FS_RAW] read past the end of the array. */
static void test_raw_plan_refused(void **state)
{
	static const struct topology t = { 512, 512, 512, 0, 0, 0, GiB };
	const struct fs_desc nobuild = { .name = "nobuild", .mkfs = "mkfs.nobuild",
					 .package = "none", .block_default = 4096,
					 .block_min = 4096, .block_max = 4096 };
	const struct fs_desc *const descs[] = { fs_find("raw"), &nobuild };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(descs); i++) {
		struct mkfs_req r = { .fs = descs[i], .device = "/dev/x", .label = "l" };
		struct mkfs_cmd p;

		assert_non_null(r.fs);
		assert_int_equal(mkfs_cmd_build(&p, &t, &r), -FSLAB_EINPUT);
		assert_int_equal(p.argv.nr, 0);
		assert_int_equal(p.argv.nr, 0);
		mkfs_cmd_release(&p);
	}
}

/* verifiers[FS_RAW] was out of bounds too; raw is refused before any I/O. */
static void test_raw_verify_refused(void **state)
{
	struct mkfs_cmd p = { 0 };
	json_t *out = (json_t *)&p;

	(void)state;
	assert_int_equal(verify_volume(fs_find("raw"), "/dev/fslab-no-such-device", &p, &out),
			 -EINVAL);
	assert_null(out);
}

/* A --cluster beyond each filesystem's range is refused with its own message. */
static void test_cluster_rules(void **state)
{
	static const struct topology t = { 512, 512, 512, 0, 0, 0, GiB };

	(void)state;
	for (size_t i = 0; i < fs_count(); i++) {
		const struct fs_desc *fs = fs_at(i);
		struct mkfs_req r = { .fs = fs, .device = "/dev/x", .label = "l" };
		struct mkfs_cmd p;

		if (fs_is_raw(fs))
			continue;
		r.cluster = (uint64_t)fs->block_max * 2;
		assert_int_equal(mkfs_cmd_build(&p, &t, &r), -FSLAB_EINPUT);
		assert_int_equal(p.argv.nr, 0);
		r.cluster = 0;
		assert_int_equal(mkfs_cmd_build(&p, &t, &r), 0);
		assert_int_equal(p.block_size, fs->block_default);
		assert_string_equal(p.argv.v[0], fs->mkfs);
		assert_string_equal(p.argv.v[p.argv.nr - 1], "/dev/x");
		mkfs_cmd_release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries_complete),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_raw_plan_refused),
		cmocka_unit_test(test_raw_verify_refused),
		cmocka_unit_test(test_cluster_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
