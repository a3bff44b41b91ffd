// SPDX-License-Identifier: MIT
/*
 * test_prep.c: fsprep helpers that need no devices: prep.json found for a directory
 * (volume_probe() and volume_prep_json(), in a private mount namespace with tmpfs mounts, when
 * run as root; skipped otherwise), the missing-tool message
 * (and raw needing no tool), path and name helpers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "fsprep/prepP.h"
#include "os/os.h"
#include "platform/volume.h"

static char root[] = "/tmp/fslab-test-prep.XXXXXX";

static void write_prep_json(const char *db_mp, const char *log_mp, const char *schema)
{
	json_t *j = json_pack("{s:s, s:s, s:{s:{s:s}, s:{s:s}}}", "schema", schema, "fs", "ext4",
			      "volumes", "db", "mountpoint", db_mp, "log", "mountpoint", log_mp);
	char *path = path_join(root, PREP_JSON_NAME);

	assert_int_equal(json_dump_file(j, path, 0), 0);
	json_decref(j);
	free(path);
}

/* The prep.json of the volume holding dir, as fslab run finds it, or NULL. */
static json_t *prep_json_for_dir(const char *dir)
{
	struct volume v;
	json_t *j = volume_probe(&v, "db", dir) ? NULL : volume_prep_json(&v);

	volume_release(&v);
	return j;
}

static void test_prep_json_for_dir(void **state)
{
	char *db, *log, *sub, *other;
	json_t *j;

	(void)state;
	if (geteuid())
		skip();
	/* A private mount namespace: nothing we mount is seen outside or outlives the test. */
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		skip();
	assert_non_null(mkdtemp(root));
	db = path_join(root, "db");
	log = path_join(root, "log");
	other = path_join(root, "other");
	sub = path_join(db, "fslab/instance1");
	assert_int_equal(mkdir(db, 0755), 0);
	assert_int_equal(mkdir(log, 0755), 0);
	assert_int_equal(mkdir(other, 0755), 0);
	assert_int_equal(mount("tmpfs", db, "tmpfs", 0, "size=1m"), 0);
	assert_int_equal(mount("tmpfs", log, "tmpfs", 0, "size=1m"), 0);
	assert_int_equal(mount("tmpfs", other, "tmpfs", 0, "size=1m"), 0);
	assert_int_equal(mkdir_p(sub, 0755), 0);

	/* No prep.json yet. */
	assert_null(prep_json_for_dir(sub));

	write_prep_json(db, log, PREP_SCHEMA);
	j = prep_json_for_dir(sub);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "fs")), "ext4");
	json_decref(j);
	j = prep_json_for_dir(log);
	assert_non_null(j);
	json_decref(j);
	/* A mount point prep.json does not name, and the mount root itself (not a volume). */
	assert_null(prep_json_for_dir(other));
	assert_null(prep_json_for_dir(root));
	/* Wrong schema. */
	write_prep_json(db, log, "something-else/1");
	assert_null(prep_json_for_dir(sub));
	/* prep.json naming other mount points. */
	write_prep_json("/elsewhere/db", "/elsewhere/log", PREP_SCHEMA);
	assert_null(prep_json_for_dir(sub));
	assert_null(prep_json_for_dir("/nonexistent/fslab"));

	umount2(db, MNT_DETACH);
	umount2(log, MNT_DETACH);
	umount2(other, MNT_DETACH);
	{
		char *p = path_join(root, PREP_JSON_NAME);

		unlink(p);
		free(p);
	}
	rmdir(db);
	rmdir(log);
	rmdir(other);
	rmdir(root);
	free(db);
	free(log);
	free(sub);
	free(other);
}

static void test_missing_tool(void **state)
{
	const struct fs_mkfs fake_mkfs = { .tool = "mkfs.fslab-no-such-tool",
					   .package = "fslab-fake-package" };
	const struct fs_desc fake = { .name = "fakefs", .mkfs = &fake_mkfs };
	const struct fs_desc *ext4 = fs_find("ext4"), *raw = fs_find("raw"), *instead = NULL;

	(void)state;
	assert_int_equal(format_tool_check(&fake), -FSLAB_EINPUT);
	if (os_have_program(ext4->mkfs->tool))
		assert_int_equal(format_tool_check(ext4), 0);
	/* raw formats and mounts nothing, so it needs no tool. */
	assert_non_null(raw);
	assert_true(fs_is_raw(raw));
	assert_null(raw->mkfs);
	assert_int_equal(format_tool_check(raw), 0);
	/* a driver the running kernel has (ext4 is built in on every kernel prep runs on) and
	 * one no kernel has: refused before the tool is looked at */
	assert_true(fs_kernel_has("ext4"));
	assert_false(fs_kernel_has("fslab-no-such-fs"));
	{
		struct fs_mkfs nokernel_mkfs = *ext4->mkfs;
		const struct fs_desc nokernel = { .name = "nokfs", .mkfs = &nokernel_mkfs };

		nokernel_mkfs.kernel_fs = "fslab-no-such-fs";
		nokernel_mkfs.instead = ext4;
		nokernel_mkfs.kernel_config = "CONFIG_FSLAB_NO_SUCH_FS";
		assert_int_equal(format_tool_check(&nokernel), -FSLAB_EINPUT);
		assert_string_equal(format_missing_driver(&nokernel, &instead), "fslab-no-such-fs");
		assert_ptr_equal(instead, ext4);
	}
	assert_null(prep_fs_missing_driver("ext4", &instead));
	assert_null(prep_fs_missing_driver("no-such-fs", &instead));
}

static void test_abs_path(void **state)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "/", "/" },
		{ "/tmp", "/tmp" },
		{ "/tmp/", "/tmp" },
		{ "/tmp/fslab-no-such-dir/a/b", "/tmp/fslab-no-such-dir/a/b" },
		{ "/tmp//fslab-no-such-dir//a/", "/tmp/fslab-no-such-dir/a" },
		{ "/tmp/fslab-no-such-dir/../x", NULL },
		{ "", NULL },
	};
	char *real_tmp = realpath("/tmp", NULL);

	(void)state;
	assert_non_null(real_tmp);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = abs_path(cases[i].in), *want = NULL;

		if (cases[i].want && !strncmp(cases[i].want, "/tmp", 4))
			want = xasprintf("%s%s", real_tmp, cases[i].want + 4);
		else if (cases[i].want)
			want = xstrdup(cases[i].want);
		if (want)
			assert_string_equal(got, want);
		else
			assert_null(got);
		free(got);
		free(want);
	}
	free(real_tmp);
}

static void test_escape_name(void **state)
{
	char *a = escape_name("/var/tmp/x"), *b = escape_name("/var/tmp-x"),
	     *c = escape_name("/var_tmp/x");

	(void)state;
	assert_string_equal(a, "-var-tmp-x");
	assert_string_equal(b, "-var-tmp_2dx");
	assert_string_equal(c, "-var_5ftmp-x");
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prep_json_for_dir),
		cmocka_unit_test(test_missing_tool),
		cmocka_unit_test(test_abs_path),
		cmocka_unit_test(test_escape_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
