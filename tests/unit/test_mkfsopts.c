// SPDX-License-Identifier: MIT
/*
 * test_mkfsopts.c: --mkfs-opts words that name another device or file (fsprep/mkfs_opts.c,
 * issue 16 item 2): every path-valued option and suboption of mkfs.ext4, mkfs.xfs,
 * mkfs.btrfs and mkntfs, in each spelling getopt accepts (separate or attached argument,
 * bundled flags, key lists in any order, long options abbreviated), and operands; options
 * that name nothing pass.  Then mkfs_cmd_build() refuses them.  No root, no devices.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"

/* problem FS OPTS: what mkfs_opts_problem() says (caller frees), or NULL */
static char *problem(const char *fs, const char *opts)
{
	const struct fs_desc *d = fs_find(fs);

	assert_non_null(d);
	assert_non_null(d->mkfs->syntax);
	return mkfs_opts_problem(d->mkfs->syntax, d->mkfs->tool, opts);
}

/* refused: the problem quotes @want (the option as the user wrote it) */
static void refused(const char *fs, const char *opts, const char *want)
{
	char *p = problem(fs, opts);

	print_message("%s '%s': %s\n", fs, opts, p ? p : "(accepted)");
	assert_non_null(p);
	assert_non_null(strstr(p, want));
	free(p);
}

static void accepted(const char *fs, const char *opts)
{
	char *p = problem(fs, opts);

	if (p)
		print_message("%s '%s' refused: %s\n", fs, opts, p);
	assert_null(p);
}

static void test_xfs(void **state)
{
	(void)state;
	refused("xfs", "-l logdev=/dev/sdc,size=64m", "-l logdev=/dev/sdc,size=64m names another device");
	refused("xfs", "-l size=64m,logdev=/dev/sdc", "-l size=64m,logdev=/dev/sdc");
	refused("xfs", "-llogdev=/dev/sdc", "-llogdev=/dev/sdc");
	refused("xfs", "-f -l logdev=/dev/sdc", "-l logdev=/dev/sdc");
	refused("xfs", "-fl logdev=/dev/sdc", "-fl logdev=/dev/sdc");
	refused("xfs", "-l name=/dev/sdc", "name=/dev/sdc");
	refused("xfs", "-r rtdev=/dev/sdc", "-r rtdev=/dev/sdc");
	refused("xfs", "-r extsize=64k,name=/x", "name=/x");
	refused("xfs", "-d name=/dev/sdc", "-d name=/dev/sdc");
	refused("xfs", "-c options=/etc/x.conf", "-c options=/etc/x.conf");
	refused("xfs", "-p /etc/proto", "-p /etc/proto");
	refused("xfs", "-q /dev/sdc", "'/dev/sdc' is not an option (mkfs.xfs would take it");
	refused("xfs", "-- -x", "'-x' is not an option");
	accepted("xfs", "-l size=64m,lazy-count=1,version=2 -i sparse=1,size=512");
	accepted("xfs", "-d su=64k,sw=4,agcount=8 -m crc=1,reflink=0 -n size=8192 -K -L fs");
	/* "internal" and "logdev" only differ in the key: a key that merely contains one is no
	 * path ("lognamex" is not "name") */
	accepted("xfs", "-l internal,size=128m");
	accepted("xfs", "-l lognamex=1");
	/* -L takes a label, whatever it looks like */
	accepted("xfs", "-L /dev/sdc");
}

static void test_ext4(void **state)
{
	(void)state;
	refused("ext4", "-J device=/dev/sdc", "-J device=/dev/sdc names another device");
	refused("ext4", "-Jdevice=/dev/sdc", "-Jdevice=/dev/sdc");
	refused("ext4", "-J size=64,device=UUID=1234", "device=UUID=1234");
	refused("ext4", "-qJ device=LABEL=j", "-qJ device=LABEL=j");
	refused("ext4", "-z /tmp/undo", "-z /tmp/undo");
	refused("ext4", "-z/tmp/undo", "-z/tmp/undo");
	refused("ext4", "-d /etc", "-d /etc");
	refused("ext4", "-l /etc/badblocks", "-l /etc/badblocks");
	refused("ext4", "-m 0 /dev/sdc", "'/dev/sdc' is not an option");
	refused("ext4", "-- /dev/sdc", "'/dev/sdc' is not an option");
	refused("ext4", "1000", "'1000' is not an option");
	accepted("ext4", "-m 0 -O ^metadata_csum,^64bit -E stride=16,stripe_width=64 -J size=64");
	accepted("ext4", "-i 65536 -I 256 -N 1000 -T largefile -t ext4 -e remount-ro -U random");
	accepted("ext4", "-cc -j -M /srv -L x");
	accepted("ext4", "-b4096 -G 16");
}

static void test_btrfs(void **state)
{
	(void)state;
	refused("btrfs", "/dev/sdc", "'/dev/sdc' is not an option (mkfs.btrfs would take it");
	refused("btrfs", "-f -d single /dev/sdc", "'/dev/sdc'");
	refused("btrfs", "--rootdir=/etc", "--rootdir=/etc names");
	refused("btrfs", "--rootdir /etc", "--rootdir /etc");
	refused("btrfs", "--root /etc", "--root /etc");
	refused("btrfs", "--roo=/etc", "--roo=/etc");
	refused("btrfs", "-r /etc", "-r /etc");
	refused("btrfs", "-Mr/etc", "-Mr/etc");
	refused("btrfs", "--subvol x", "--subvol x");
	accepted("btrfs", "--mixed -m single -d single --nodesize=16k -O no-holes -K");
	accepted("btrfs", "--csum xxhash --label x --data=raid0 --meta dup");
	/* --force and -f are flags: the word after them is an operand */
	refused("btrfs", "--force /dev/sdc", "'/dev/sdc'");
}

static void test_ntfs(void **state)
{
	(void)state;
	refused("ntfs", "-f /dev/sdc", "'/dev/sdc' is not an option (mkntfs would take it");
	refused("ntfs3", "-I 1000", "'1000'");
	accepted("ntfs", "-I -T --label x --sectors-per-track=63 -H 255 -z 2");
	accepted("ntfs3", "--fast --no-indexing");
}

/* mkfs_cmd_build() refuses them before any argv exists */
static void test_plan_refuses(void **state)
{
	struct topology t = { .logical_sector = 512, .physical_sector = 512, .min_io = 512,
			      .size = 1ULL << 30 };
	struct mkfs_cmd p = { 0 };
	struct mkfs_req r = { .fs = fs_find("xfs"), .device = "/dev/loop9", .label = "x",
			      .extra = "-l logdev=/dev/loop5,size=64m" };

	(void)state;
	assert_int_equal(mkfs_cmd_build(&p, &t, &r), -FSLAB_EINPUT);
	assert_int_equal(p.argv.nr, 0);
	r.extra = "-l size=64m";
	assert_int_equal(mkfs_cmd_build(&p, &t, &r), 0);
	assert_string_equal(p.argv.v[p.argv.nr - 1], "/dev/loop9");
	assert_string_equal(p.argv.v[p.argv.nr - 2], "size=64m");
	mkfs_cmd_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xfs),
		cmocka_unit_test(test_ext4),
		cmocka_unit_test(test_btrfs),
		cmocka_unit_test(test_ntfs),
		cmocka_unit_test(test_plan_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
