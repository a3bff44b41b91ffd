// SPDX-License-Identifier: MIT
/*
 * test_fsdesc.c: the filesystem table (fsprep/fs.c, fs_<name>.c) and the prep backends
 * (fsprep/backend.c): every entry is complete for each system that makes it, names are
 * unique, the lists users see come out of the table, flags and not names carry the quirks,
 * each system's backend is the one the table marks, the superblock readers on made-up
 * superblocks, and raw (no builder, no verifier) refused cleanly by mkfs_cmd_build() and
 * verify_volume().  No root, no devices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"
#include "lib/strbuf.h"
#include "fsprep/win/winprep.h"

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The mkfs backend's part: a tool, its rules, a verifier, a mount. */
static void check_mkfs(const struct fs_desc *fs)
{
	const struct fs_mkfs *m = fs->mkfs;

	assert_non_null(m->tool);
	assert_non_null(m->package);
	assert_true(m->min_size > 0);
	/* --mkfs-opts is checked against how the tool reads options (mkfs_opts.c) */
	assert_non_null(m->syntax);
	assert_non_null(m->syntax->shortopts);
	assert_non_null(m->version_flag);
	assert_non_null(m->force_flag);
	assert_non_null(m->build);
	assert_true(m->libext2fs || (m->verify_sb && m->sb_size));
	assert_non_null(m->blkid_type);
	assert_non_null(m->mount_type);
	assert_non_null(m->mount_opts);
	assert_non_null(strstr(m->mount_opts, "noatime"));
	/* The default block size must pass the filesystem's own --cluster rules. */
	assert_non_null(m->block_error);
	assert_true(m->block_min <= m->block_default);
	assert_true(m->block_default <= m->block_max);
	if (m->block_pow2)
		assert_true(is_pow2(m->block_default));
	/* The cgroup is entered for the helper that forks the FUSE daemon. */
	if (fs->flags & FS_F_FUSE)
		assert_true(m->mount_helper && m->fuse_daemon);
	if (fs->flags & FS_F_PAGE_CACHE)
		assert_true(fs->flags & FS_F_FUSE);
	/* a kernel without the driver gets a way out: another entry and a kernel option */
	if (m->kernel_fs)
		assert_true(m->kernel_config && fs_makes(m->instead, PREP_LINUX, false) &&
			    m->instead->about);
}

/* The storage backend's part: Format-Volume's default allocation unit passes its own rules. */
static void check_win(const struct fs_desc *fs)
{
	struct win_prep_opts o = { .fs = fs, .disk = { 1, 2 }, .mount_root = "C:\\fslab",
				   .cluster = fs->win->cluster_default };
	char *why = win_prep_opts_problem(&o);

	assert_null(why);
	assert_non_null(fs->win->cluster_error);
	o.cluster = 3 * KiB;
	why = win_prep_opts_problem(&o);
	assert_non_null(strstr(why, fs->win->cluster_error));
	free(why);
}

static void test_entries_complete(void **state)
{
	(void)state;
	assert_true(fs_count() >= 7);
	assert_null(fs_at(fs_count()));
	for (size_t i = 0; i < fs_count(); i++) {
		const struct fs_desc *fs = fs_at(i);
		bool somewhere = false;

		assert_non_null(fs);
		print_message("entry %zu: %s\n", i, fs->name);
		assert_true(fs->name && fs->name[0] && fs->title && fs->title[0]);
		assert_ptr_equal(fs_find(fs->name), fs);
		/* what the table marks per system, and each backend's part, go together */
		assert_true((fs->on[PREP_LINUX] == PREP_BE_MKFS) == (fs->mkfs != NULL));
		assert_true((fs->on[PREP_WINDOWS] == PREP_BE_STORAGE) == (fs->win != NULL));
		assert_true((fs->on[PREP_LINUX] == PREP_BE_RAW) == fs_is_raw(fs));
		for (int s = 0; s < PREP_NSYS; s++)
			somewhere |= fs->on[s] != PREP_BE_NONE;
		assert_true(somewhere);
		if (fs->mkfs)
			check_mkfs(fs);
		if (fs->win)
			check_win(fs);
		if (fs_is_raw(fs))
			assert_false(fs->mkfs || fs->win || fs_cache_limited(fs));
	}
}

/* Each list made from the table, as the usage lines and messages print it. */
static void test_lists(void **state)
{
	static const struct {
		enum prep_sys sys;
		unsigned int how;
		const char *item, *sep, *last, *want;
	} lists[] = {
		{ PREP_LINUX, FSL_RAW, "%s", "|", "|", "ext4|xfs|ntfs|ntfs3|btrfs|raw" },
		{ PREP_LINUX, 0, "%s", ", ", " or ", "ext4, xfs, ntfs, ntfs3 or btrfs" },
		{ PREP_LINUX, FSL_NOT, "%s", ", ", " and ", "refs" },
		{ PREP_WINDOWS, 0, "%s", "|", "|", "ntfs|refs" },
		{ PREP_WINDOWS, FSL_TITLES, "%s", ", ", " or ", "NTFS or ReFS" },
		{ PREP_WINDOWS, 0, "fs = %s", ", ", " or ", "fs = ntfs or fs = refs" },
		{ PREP_WINDOWS, FSL_ONLY | FSL_TITLES, "%s", ", ", " and ", "ReFS" },
		{ PREP_WINDOWS, FSL_NOT, "%s", ", ", " and ", "ext4, xfs, ntfs3 and btrfs" },
		{ PREP_LINUX, FSL_WITH(FS_F_PAGE_CACHE), "%s", ", ", " or ", "ntfs" },
		{ PREP_LINUX, FSL_ABOUT | FSL_WITH(FS_F_FUSE), "%s", ", ", " or ", "ntfs (ntfs-3g)" },
	};

	(void)state;
	for (size_t i = 0; i < fs_count(); i++)
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(fs_at(i)->name, fs_at(j)->name);
	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		char *got = fs_list(lists[i].sys, lists[i].how, lists[i].item, lists[i].sep,
				    lists[i].last);

		print_message("list %zu: %s\n", i, got);
		assert_string_equal(got, lists[i].want);
		free(got);
	}
	assert_string_equal(fs_names(), "ext4, xfs, ntfs, ntfs3, btrfs, raw");
	/* Built once, the same string afterwards. */
	assert_ptr_equal(fs_names(), fs_names());
}

static void test_find_and_flags(void **state)
{
	static const char *const unknown[] = { "EXT4", "", "ext", "ext4 ", "raw2", "fat", NULL };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++) {
		assert_null(fs_find(unknown[i]));
		assert_false(fs_flag(unknown[i], FS_F_COW));
	}
	assert_true(fs_is_raw(fs_find("raw")));
	assert_true(fs_cache_limited(fs_find("ntfs")));
	assert_string_equal(fs_find("raw")->notes, "raw devices: no filesystem; the lab's baseline");
	/* the quirks the run and the Windows prep ask for */
	assert_true(fs_flag("btrfs", FS_F_COW));
	assert_false(fs_flag("ext4", FS_F_COW));
	assert_true(fs_flag("refs", FS_F_INTEGRITY));
	assert_false(fs_flag("ntfs", FS_F_INTEGRITY));
	assert_string_equal(win_format_extra(fs_find("refs")), " -SetIntegrityStreams $false");
	assert_string_equal(win_format_extra(fs_find("ntfs")), "");
}

/* Which backend makes what, and which one prep's arguments go to. */
static void test_backends(void **state)
{
	static const struct {
		const char *argv[8];
		const struct prep_backend *want;
	} cases[] = {
		{ { "prep", "--fs", "ext4", "--image-dir", "/x" }, &prep_be_mkfs },
		{ { "prep", "--fs=raw", "--db-dev", "/dev/x" }, &prep_be_raw },
		{ { "prep", "--fs", "refs", "--db-dev", "/dev/x" }, &prep_be_storage },
		{ { "prep", "--fs", "ntfs", "--db-disk", "1", "--log-disk", "2" }, &prep_be_storage },
		{ { "prep", "--fs", "ntfs", "--db-dev", "/dev/x" }, &prep_be_mkfs },
		{ { "prep", "--fs", "fat" }, &prep_be_mkfs },
		{ { "prep", "--fs", "REFS" }, &prep_be_mkfs },
		{ { "teardown", "--mount-root", "C:\\fslab" }, &prep_be_storage },
		{ { "teardown", "--mount-root", "/mnt/x" }, &prep_be_mkfs },
		{ { "teardown" }, &prep_be_mkfs },
	};

	(void)state;
	assert_ptr_equal(prep_backend_of(fs_find("ext4"), PREP_LINUX), &prep_be_mkfs);
	assert_ptr_equal(prep_backend_of(fs_find("raw"), PREP_LINUX), &prep_be_raw);
	assert_ptr_equal(prep_backend_of(fs_find("ntfs"), PREP_WINDOWS), &prep_be_storage);
	assert_null(prep_backend_of(fs_find("refs"), PREP_LINUX));
	assert_null(prep_backend_of(NULL, PREP_LINUX));
	assert_null(prep_backend(PREP_BE_NONE));
	assert_int_equal(prep_sys_here(), PREP_LINUX);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int argc = 0;

		while (argc < 8 && cases[i].argv[argc])
			argc++;
		print_message("case %zu: %s %s %s\n", i, cases[i].argv[0], cases[i].argv[1],
			      cases[i].argv[2]);
		assert_ptr_equal(prep_backend_for(argc, (char **)cases[i].argv), cases[i].want);
	}
	/* the mkfs backend's preflight: a missing kernel driver names the way out */
	assert_null(prep_fs_missing_driver("ext4", &(const struct fs_desc *){ NULL }));
	assert_null(prep_fs_missing_driver("refs", &(const struct fs_desc *){ NULL }));
}

/* Before the table, builders[FS_RAW] read past the end of the array. */
static void test_raw_plan_refused(void **state)
{
	static const struct topology t = { 512, 512, 512, 0, 0, 0, GiB };
	const struct fs_mkfs nobuild_mkfs = { .tool = "mkfs.nobuild", .package = "none",
					      .block_default = 4096, .block_min = 4096,
					      .block_max = 4096 };
	const struct fs_desc nobuild = { .name = "nobuild", .mkfs = &nobuild_mkfs };
	const struct fs_desc *const descs[] = { fs_find("raw"), fs_find("refs"), &nobuild };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(descs); i++) {
		struct mkfs_req r = { .fs = descs[i], .device = "/dev/x", .label = "l" };
		struct mkfs_cmd p;

		assert_non_null(r.fs);
		assert_int_equal(mkfs_cmd_build(&p, &t, &r), -FSLAB_EINPUT);
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

		if (!fs->mkfs)
			continue;
		r.cluster = (uint64_t)fs->mkfs->block_max * 2;
		assert_int_equal(mkfs_cmd_build(&p, &t, &r), -FSLAB_EINPUT);
		assert_int_equal(p.argv.nr, 0);
		r.cluster = 0;
		assert_int_equal(mkfs_cmd_build(&p, &t, &r), 0);
		assert_int_equal(p.block_size, fs->mkfs->block_default);
		assert_string_equal(p.argv.v[0], fs->mkfs->tool);
		assert_string_equal(p.argv.v[p.argv.nr - 1], "/dev/x");
		mkfs_cmd_release(&p);
	}
}

static void put_be32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)(v >> 24);
	b[1] = (unsigned char)(v >> 16);
	b[2] = (unsigned char)(v >> 8);
	b[3] = (unsigned char)v;
}

static void put_le32(unsigned char *b, uint32_t v)
{
	b[3] = (unsigned char)(v >> 24);
	b[2] = (unsigned char)(v >> 16);
	b[1] = (unsigned char)(v >> 8);
	b[0] = (unsigned char)v;
}

/* The superblock readers on made-up superblocks: what mkfs was asked, what differs, and a
 * superblock of something else. */
static void test_superblocks(void **state)
{
	unsigned char xfs[512] = "XFSB", btrfs[4096] = { 0 }, ntfs[512] = { 0 };
	const struct {
		const char *fs;
		unsigned char *sb;
		uint32_t cluster;
	} cases[] = { { "xfs", xfs, 4096 }, { "btrfs", btrfs, 4096 }, { "ntfs", ntfs, 65536 } };

	(void)state;
	put_be32(xfs + 4, 4096);                  /* sb_blocksize */
	xfs[102] = 0x02;                          /* sb_sectsize 512 */
	memcpy(btrfs + 64, "_BHRfS_M", 8);
	put_le32(btrfs + 144, 4096);              /* sectorsize */
	put_le32(btrfs + 148, 16384);             /* nodesize */
	memcpy(ntfs + 3, "NTFS    ", 8);
	ntfs[0x0c] = 0x02;                        /* 512 bytes per sector */
	ntfs[0x0d] = 128;                         /* 128 sectors per cluster: 64 KiB */
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct fs_mkfs *m = fs_find(cases[i].fs)->mkfs;
		struct mkfs_cmd p = { .block_size = 4096, .cluster_size = cases[i].cluster };
		json_t *v = json_object();

		if (m->verify_sb == ntfs_verify_sb)
			p.block_size = 0;
		assert_int_equal(m->verify_sb(cases[i].sb, "/dev/x", &p, v), 0);
		assert_int_equal(json_integer_value(json_object_get(v, "cluster_size")),
				 cases[i].cluster);
		p.cluster_size = p.block_size = 2048;
		assert_int_equal(m->verify_sb(cases[i].sb, "/dev/x", &p, v), -EPROTO);
		cases[i].sb[i == 0 ? 0 : i == 1 ? 64 : 3] ^= 0xff;
		assert_int_equal(m->verify_sb(cases[i].sb, "/dev/x", &p, v), -EPROTO);
		json_decref(v);
	}
}

/* scripts/deps.sh reads each filesystem's package from the descriptors' sources (it runs
 * before anything is built): what it reads is what the compiled table says. */
static void test_deps_packages(void **state)
{
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	const char *top = getenv("FSLAB_TOP");
	char *cmd = xasprintf("%s/scripts/deps.sh --fs-packages", top ? top : ".");
	FILE *f;

	(void)state;
	for (size_t i = 0; i < fs_count(); i++)
		if (fs_at(i)->mkfs)
			strbuf_addf(&want, "%s %s\n", fs_at(i)->name, fs_at(i)->mkfs->package);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(strbuf_read_stream(&got, f), 0);
	assert_int_equal(pclose(f), 0);
	assert_string_equal(got.buf, want.buf);
	strbuf_release(&want);
	strbuf_release(&got);
	free(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entries_complete),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_find_and_flags),
		cmocka_unit_test(test_backends),
		cmocka_unit_test(test_raw_plan_refused),
		cmocka_unit_test(test_raw_verify_refused),
		cmocka_unit_test(test_cluster_rules),
		cmocka_unit_test(test_superblocks),
		cmocka_unit_test(test_deps_packages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
