// SPDX-License-Identifier: MIT
/*
 * test_winprep.c: Windows prep (fsprep/win/) on canned PowerShell output: the inventory parser
 * (ConvertTo-Json's shapes), the refusal rules, option checks, PowerShell quoting, the
 * generated scripts against tests/expected/windows/ (FSLAB_UPDATE_GOLDEN=1 rewrites them) and
 * prep.json from the facts read back after formatting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "fsprep/win/winprep.h"
#include "lib/strbuf.h"

static const char *top(void)
{
	const char *t = getenv("FSLAB_TOP");

	return t ? t : ".";
}

static void load(const char *name, struct win_inventory *inv)
{
	char *path = xasprintf("%s/tests/fixtures/windows/%s", top(), name), *text;
	size_t len;

	assert_int_equal(read_file(path, &text, &len), 0);
	assert_int_equal(win_inventory_parse(text, inv), 0);
	free(text);
	free(path);
}

static struct win_prep_opts opts(const char *fs, int db, int log)
{
	struct win_prep_opts o = { .fs = fs_find(fs), .disk = { db, log }, .mount_root = "C:\\fslab",
				   .cluster = 65536 };

	return o;
}

static void golden(const char *name, const char *got)
{
	char *path = xasprintf("%s/tests/expected/windows/%s", top(), name), *want = NULL;
	const char *u = getenv("FSLAB_UPDATE_GOLDEN");
	size_t len;

	if (u && !strcmp(u, "1"))
		assert_int_equal(write_file_atomic(path, got, strlen(got)), 0);
	assert_int_equal(read_file(path, &want, &len), 0);
	if (strcmp(want, got))
		print_message("%s differs; got:\n%s\n", name, got);
	assert_string_equal(want, got);
	free(want);
	free(path);
}

static void test_parse_shapes(void **state)
{
	struct win_inventory inv;
	const struct win_disk *d;

	(void)state;
	load("disks-fresh.json", &inv);
	assert_int_equal(inv.ndisks, 3);
	assert_string_equal(inv.powershell, "5.1.20348.2849");
	d = win_inventory_disk(&inv, 0);
	assert_true(d->is_system && d->is_boot);
	assert_int_equal(d->style, WIN_STYLE_GPT);
	assert_int_equal(d->nparts, 3);
	assert_string_equal(d->parts[2].drive_letter, "C");
	assert_int_equal(json_array_size(d->parts[2].access_paths), 2);
	d = win_inventory_disk(&inv, 1);
	assert_int_equal(d->style, WIN_STYLE_RAW);
	assert_true(d->is_offline);
	assert_int_equal(d->size, 107374182400ULL);
	assert_int_equal(d->physical_sector, 4096);
	assert_null(win_inventory_disk(&inv, 7));
	win_inventory_free(&inv);

	/* names instead of numbers, a lone partition and a lone access path as plain values */
	load("disks-used.json", &inv);
	assert_int_equal(win_inventory_disk(&inv, 1)->style, WIN_STYLE_GPT);
	assert_int_equal(win_inventory_disk(&inv, 2)->style, WIN_STYLE_RAW);
	d = win_inventory_disk(&inv, 5);
	assert_int_equal(d->style, WIN_STYLE_MBR);
	assert_int_equal(d->nparts, 1);
	assert_string_equal(d->parts[0].fs_label, "Backup");
	assert_string_equal(json_string_value(json_array_get(d->parts[0].access_paths, 0)), "F:\\");
	win_inventory_free(&inv);

	/* a lone disk as an object, not an array */
	assert_int_equal(win_inventory_parse("{\"Disks\":{\"Number\":3,\"PartitionStyle\":0,\"Size\":2147483648}}",
					     &inv), 0);
	assert_int_equal(inv.ndisks, 1);
	win_inventory_free(&inv);
}

static void test_parse_bad(void **state)
{
	static const char *const bad[] = {
		"", "not json", "[]", "{}", "{\"Disks\":[]}", "{\"Disks\":[{\"Size\":1}]}",
		"{\"Disks\":[{\"Number\":1}]}",                         /* no PartitionStyle */
		"{\"Disks\":[{\"Number\":1,\"PartitionStyle\":\"weird\"}]}",
		"{\"Disks\":[{\"Number\":1,\"PartitionStyle\":0,\"Partitions\":[3]}]}",
	};
	struct win_inventory inv;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		print_message("bad inventory %zu: %s\n", i, bad[i]);
		assert_int_equal(win_inventory_parse(bad[i], &inv), -FSLAB_EINPUT);
		assert_int_equal(inv.ndisks, 0);
	}
}

static void expect_refused(const struct win_inventory *inv, struct win_prep_opts o,
			   const char *needle)
{
	bool wipe = true;
	char *why = win_disk_refusal(inv, &o, WIN_DB, &wipe);

	assert_non_null(why);
	print_message("refused: %s\n", why);
	assert_non_null(strstr(why, needle));
	assert_false(wipe);
	free(why);
}

static void test_refusals(void **state)
{
	struct win_inventory fresh, used;
	struct win_prep_opts o;
	bool wipe;
	char *why;

	(void)state;
	load("disks-fresh.json", &fresh);
	load("disks-used.json", &used);

	/* empty disks pass, nothing to wipe */
	o = opts("ntfs", 1, 2);
	for (int r = 0; r < WIN_NROLES; r++) {
		assert_null(win_disk_refusal(&fresh, &o, r, &wipe));
		assert_false(wipe);
	}
	/* the system disk: always, --force or not */
	o = opts("ntfs", 0, 2);
	expect_refused(&fresh, o, "is the system disk: fslab never formats it, not even with --force");
	o.force = true;
	expect_refused(&fresh, o, "not even with --force");
	/* a disk with data: named, refused without --force, wiped with it */
	o = opts("refs", 1, 2);
	expect_refused(&used, o, "is initialised (GPT, 2 partitions: 1 Reserved 16.0 MiB, 2 NTFS 'Data' 931.5 GiB at E:) and may hold data");
	o.force = true;
	assert_null(win_disk_refusal(&used, &o, WIN_DB, &wipe));
	assert_true(wipe);
	o = opts("ntfs", 5, 2);
	expect_refused(&used, o, "(MBR, 1 partition: 1 NTFS 'Backup' 50.0 GiB at F:)");
	/* read-only, too small, missing */
	expect_refused(&used, opts("ntfs", 3, 2), "is read-only");
	o = opts("ntfs", 3, 2);
	o.force = true;
	expect_refused(&used, o, "Set-Disk -Number 3 -IsReadOnly $false");
	expect_refused(&used, opts("ntfs", 4, 2), "too small for a database volume");
	expect_refused(&used, opts("ntfs", 9, 2), "--db-disk 9: no such disk");
	/* the log disk is named as such */
	o = opts("ntfs", 2, 9);
	why = win_disk_refusal(&used, &o, WIN_LOG, &wipe);
	assert_non_null(why);
	assert_non_null(strstr(why, "--log-disk 9"));
	free(why);
	win_inventory_free(&fresh);
	win_inventory_free(&used);
}

/* A disk with 64 partitions, one of them with a 600-character label (the JSON is Windows',
 * not ours): the refusal names every one whole (each piece was cut at 512 bytes before the
 * list was grown in a strbuf). */
static void test_refusal_many_parts(void **state)
{
	struct strbuf js = STRBUF_INIT, label = STRBUF_INIT, want = STRBUF_INIT;
	struct win_inventory inv;
	struct win_prep_opts o = opts("ntfs", 1, 2);

	(void)state;
	for (int i = 0; i < 60; i++)
		strbuf_addstr(&label, "long label");
	strbuf_addstr(&js, "{\"Disks\":[{\"Number\":1,\"FriendlyName\":\"JBOD\","
			   "\"SerialNumber\":\"J1\",\"Size\":4000787030016,"
			   "\"PartitionStyle\":\"GPT\",\"Partitions\":[");
	for (int i = 1; i <= 64; i++)
		strbuf_addf(&js, "%s{\"PartitionNumber\":%d,\"Type\":\"Basic\",\"Size\":1073741824,"
			    "\"FileSystem\":\"NTFS\",\"FileSystemLabel\":\"%s\"}",
			    i > 1 ? "," : "", i, i == 2 ? label.buf : "v");
	strbuf_addstr(&js, "]}]}");
	assert_int_equal(win_inventory_parse(js.buf, &inv), 0);
	expect_refused(&inv, o, "(GPT, 64 partitions: 1 NTFS 'v' 1 GiB, 2 NTFS 'long label");
	strbuf_addf(&want, "2 NTFS '%s' 1 GiB, 3 NTFS 'v' 1 GiB,", label.buf);
	expect_refused(&inv, o, want.buf);
	expect_refused(&inv, o, "64 NTFS 'v' 1 GiB) and may hold data");
	win_inventory_free(&inv);
	strbuf_release(&js);
	strbuf_release(&label);
	strbuf_release(&want);
}

static void expect_problem(struct win_prep_opts o, const char *needle)
{
	char *why = win_prep_opts_problem(&o);

	assert_non_null(why);
	print_message("problem: %s\n", why);
	assert_non_null(strstr(why, needle));
	free(why);
}

static void test_opts(void **state)
{
	struct win_prep_opts o;

	(void)state;
	o = opts("ntfs", 1, 2);
	assert_null(win_prep_opts_problem(&o));
	o.cluster = 2 * MiB;
	assert_null(win_prep_opts_problem(&o));
	o = opts("refs", 1, 2);
	o.cluster = 4096;
	assert_null(win_prep_opts_problem(&o));
	o.mount_root = "D:\\bench lab\\it's";
	assert_null(win_prep_opts_problem(&o));

	expect_problem(opts("ntfs", 2, 2), "the same disk (2)");
	o = opts("refs", 1, 2);
	o.cluster = 32 * KiB;
	expect_problem(o, "ReFS formats with 4K or 64K");
	o = opts("ntfs", 1, 2);
	o.cluster = 3 * KiB;
	expect_problem(o, "powers of two from 4K to 2M");
	o.cluster = 4 * MiB;
	expect_problem(o, "powers of two from 4K to 2M");
	o = opts("ntfs", 1, 2);
	o.mount_root = "fslab";
	expect_problem(o, "absolute folder");
	o.mount_root = "/mnt/lab";
	expect_problem(o, "absolute folder");
	o.mount_root = "C:\\a|b";
	expect_problem(o, "cannot hold");
	o.mount_root = "C:\\a\nb";
	expect_problem(o, "cannot hold");
}

static void test_quote(void **state)
{
	char *q;

	(void)state;
	q = ps_quote("C:\\it's $HOME `n");
	assert_string_equal(q, "'C:\\it''s $HOME `n'");
	free(q);
	/* U+2019 closes a single-quoted string in PowerShell too */
	q = ps_quote("a\xe2\x80\x99" "b");
	assert_string_equal(q, "'a\xe2\x80\x99\xe2\x80\x99" "b'");
	free(q);
	q = ps_quote("");
	assert_string_equal(q, "''");
	free(q);
}

static void test_scripts_golden(void **state)
{
	struct win_inventory fresh, used;
	struct win_prep_opts o;
	int disks[] = { 1, 2 };
	char *s;

	(void)state;
	load("disks-fresh.json", &fresh);
	load("disks-used.json", &used);
	s = win_query_script(disks, 2);
	golden("query.ps1", s);
	free(s);
	o = opts("ntfs", 1, 2);
	s = win_prep_script(&o, &fresh);
	golden("prep-ntfs.ps1", s);
	assert_non_null(strstr(s, "-FileSystem NTFS -AllocationUnitSize 65536 `"));
	assert_null(strstr(s, "SetIntegrityStreams"));
	assert_non_null(strstr(s, "-Wipe $false"));
	free(s);
	o = opts("refs", 1, 2);
	o.force = true;
	o.mount_root = "D:\\bench lab\\it's\\";
	s = win_prep_script(&o, &used);
	golden("prep-refs-force.ps1", s);
	assert_non_null(strstr(s, "-FileSystem ReFS -AllocationUnitSize 65536 -SetIntegrityStreams $false"));
	assert_non_null(strstr(s, "-Number 1 -Serial 'S64DNF0R123456' -Size 1000204886016 -Wipe $true"));
	assert_non_null(strstr(s, "-Number 2 -Serial '6002248045A2' -Size 21474836480 -Wipe $false"));
	assert_non_null(strstr(s, "-Path 'D:\\bench lab\\it''s\\db\\'"));
	free(s);
	win_inventory_free(&fresh);
	win_inventory_free(&used);
}

static void test_prep_json(void **state)
{
	struct win_inventory facts;
	struct win_prep_opts o;
	json_t *j, *db;
	char *s;

	(void)state;
	load("facts-refs.json", &facts);
	o = opts("refs", 1, 2);
	j = win_prep_json(&o, &facts);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "schema")), "fslab-prep/1");
	assert_string_equal(json_string_value(json_object_get(j, "os")), "windows");
	assert_string_equal(json_string_value(json_object_get(j, "fs")), "refs");
	db = json_object_get(json_object_get(j, "volumes"), "db");
	assert_string_equal(json_string_value(json_object_get(db, "device")), "\\\\.\\PhysicalDrive1");
	assert_string_equal(json_string_value(json_object_get(db, "mountpoint")), "C:\\fslab\\db\\");
	assert_int_equal(json_integer_value(json_object_get(db, "cluster")), 65536);
	assert_true(json_is_false(json_object_get(db, "integrity_streams")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(db, "mount"), "fstype")), "ReFS");
	assert_true(json_is_true(json_object_get(json_object_get(db, "topology"), "aligned")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(db, "topology"), "partition_start")),
			 16777216 / 512);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(db, "topology"), "physical_sector")),
			 4096);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(j, "volumes"), "log"), "serial")),
			    "6002248045A2");
	/* teardown of exactly that prep */
	s = win_teardown_script(j, false);
	golden("teardown.ps1", s);
	assert_non_null(strstr(s, "Remove-FslabVolume -Number 1 -Serial '6002248045A1' -Size 107374182400 -Path 'C:\\fslab\\db\\' -Keep $false"));
	free(s);
	s = win_teardown_script(j, true);
	assert_non_null(strstr(s, "-Keep $true"));
	free(s);
	json_decref(j);
	/* asked for NTFS, got ReFS: no prep.json */
	o = opts("ntfs", 1, 2);
	assert_null(win_prep_json(&o, &facts));
	win_inventory_free(&facts);
	/* the wrong cluster size, or a mount root nothing is mounted on */
	load("facts-wrong-cluster.json", &facts);
	assert_null(win_prep_json(&o, &facts));
	win_inventory_free(&facts);
	load("facts-ntfs.json", &facts);
	assert_non_null(j = win_prep_json(&o, &facts));
	json_decref(j);
	o.mount_root = "C:\\other";
	assert_null(win_prep_json(&o, &facts));
	win_inventory_free(&facts);
}

static void test_facts_extract(void **state)
{
	char *s;

	(void)state;
	s = win_facts_extract("WARNING: x\r\n" WIN_FACTS_BEGIN "\r\n{\"a\":1}\r\n" WIN_FACTS_END "\r\n");
	assert_non_null(s);
	assert_non_null(strstr(s, "{\"a\":1}"));
	free(s);
	assert_null(win_facts_extract("no markers"));
	assert_null(win_facts_extract(WIN_FACTS_BEGIN " {} but no end"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_shapes),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_refusal_many_parts),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_scripts_golden),
		cmocka_unit_test(test_prep_json),
		cmocka_unit_test(test_facts_extract),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
