// SPDX-License-Identifier: MIT
/*
 * test_sysfs.c: the sysfs reader (src/platform/sysfs.c) on a tree of plain files laid out as the
 * kernel lays out /sys (a prefix, as util-linux's tests do): a disk with two partitions, a
 * device-mapper device on one of them, a loop device, a name with '!', /sys/block.  Test data
 * for the parser, not a stand-in for devices: the code that acts on real devices
 * (src/platform/blockdev.c) is tested on loop devices by t_prep_refuse, t_prep_samestorage and
 * t_run_raw.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/strvec.h"
#include "platform/sysfs.h"

static char root[] = "/tmp/fslab-test-sysfs.XXXXXX";

/* <root>/<rel> holding text (parents made) */
static void put(const char *rel, const char *text)
{
	char *path = path_join(root, rel), *dir = xstrdup(path);
	FILE *f;

	*strrchr(dir, '/') = 0;
	assert_int_equal(mkdir_p(dir, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	free(dir);
	free(path);
}

/* <root>/<rel> -> target (relative, as sysfs's links are) */
static void link_to(const char *rel, const char *target)
{
	char *path = path_join(root, rel), *dir = xstrdup(path);

	*strrchr(dir, '/') = 0;
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(symlink(target, path), 0);
	free(dir);
	free(path);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(root))
		return -1;
	/* a disk with two partitions; sda1 is under device-mapper dm-0 */
	put("sys/devices/pci0/host0/block/sda/dev", "8:0\n");
	put("sys/devices/pci0/host0/block/sda/queue/rotational", "1\n");
	put("sys/devices/pci0/host0/block/sda/queue/logical_block_size", "512\n");
	put("sys/devices/pci0/host0/block/sda/device/model", "QEMU HARDDISK   \n");
	put("sys/devices/pci0/host0/block/sda/size", "not a number\n");
	put("sys/devices/pci0/host0/block/sda/sda1/dev", "8:1\n");
	put("sys/devices/pci0/host0/block/sda/sda1/partition", "1\n");
	put("sys/devices/pci0/host0/block/sda/sda1/start", "2048\n");
	put("sys/devices/pci0/host0/block/sda/sda2/dev", "8:2\n");
	put("sys/devices/pci0/host0/block/sda/sda2/partition", "2\n");
	put("sys/devices/pci0/host0/block/sda/sda2/start", "1050624\n");
	link_to("sys/devices/pci0/host0/block/sda/sda1/holders/dm-0",
		"../../../../../../virtual/block/dm-0");
	put("sys/devices/virtual/block/dm-0/dev", "253:0\n");
	link_to("sys/devices/virtual/block/dm-0/slaves/sda1",
		"../../../../pci0/host0/block/sda/sda1");
	/* a loop device on a file whose name has blanks and a quote */
	put("sys/devices/virtual/block/loop3/dev", "7:3\n");
	put("sys/devices/virtual/block/loop3/loop/backing_file", "/var/tmp/it's a b.img \n");
	put("sys/devices/virtual/block/loop3/loop/dio", "1\n");
	/* a name with a '/' in it, which sysfs writes as '!' */
	put("sys/devices/pci0/host1/block/cciss!c0d0/dev", "104:0\n");
	link_to("sys/dev/block/8:0", "../../devices/pci0/host0/block/sda");
	link_to("sys/dev/block/8:1", "../../devices/pci0/host0/block/sda/sda1");
	link_to("sys/dev/block/8:2", "../../devices/pci0/host0/block/sda/sda2");
	link_to("sys/dev/block/253:0", "../../devices/virtual/block/dm-0");
	link_to("sys/dev/block/7:3", "../../devices/virtual/block/loop3");
	link_to("sys/dev/block/104:0", "../../devices/pci0/host1/block/cciss!c0d0");
	link_to("sys/block/sda", "../devices/pci0/host0/block/sda");
	link_to("sys/block/loop3", "../devices/virtual/block/loop3");
	link_to("sys/class/block/sda1", "../../devices/pci0/host0/block/sda/sda1");
	link_to("sys/class/block/loop3", "../../devices/virtual/block/loop3");
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", root);
	int ret = system(cmd);

	(void)state;
	free(cmd);
	return ret;
}

static void test_parse_devno(void **state)
{
	static const struct {
		const char *in;
		int ret;
		unsigned int ma, mi;
	} cases[] = {
		{ "8:1", 0, 8, 1 },        { "8:1\n", 0, 8, 1 },     { "253:0\n", 0, 253, 0 },
		{ "259:65536", 0, 259, 65536 },
		{ "", -EINVAL, 0, 0 },     { "8", -EINVAL, 0, 0 },   { "8:", -EINVAL, 0, 0 },
		{ ":1", -EINVAL, 0, 0 },   { "a:b", -EINVAL, 0, 0 }, { "8:1x", -EINVAL, 0, 0 },
		{ "-8:1", -EINVAL, 0, 0 }, { "8:-1", -EINVAL, 0, 0 }, { " 8:1", -EINVAL, 0, 0 },
		{ "8:1\n\n", -EINVAL, 0, 0 }, { "4294967296:0", -EINVAL, 0, 0 },
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		dev_t d = makedev(99, 99);

		assert_int_equal(sysfs_parse_devno(cases[i].in, &d), cases[i].ret);
		if (!cases[i].ret) {
			assert_int_equal(major(d), cases[i].ma);
			assert_int_equal(minor(d), cases[i].mi);
		} else {
			assert_int_equal(d, makedev(99, 99));
		}
	}
}

static void test_blkdev(void **state)
{
	struct sysfs_blkdev d;
	uint64_t v = 7;
	char *s;

	(void)state;
	/* a disk */
	assert_int_equal(sysfs_blkdev_init(&d, root, makedev(8, 0)), 0);
	assert_string_equal(d.name, "sda");
	assert_int_equal(d.devno, makedev(8, 0));
	assert_non_null(strstr(d.dir, "/sys/devices/pci0/host0/block/sda"));
	assert_false(sysfs_blkdev_is_partition(&d));
	assert_int_equal(sysfs_blkdev_read_u64(&d, "queue/rotational", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(sysfs_blkdev_read_u64(&d, "queue/logical_block_size", &v), 0);
	assert_int_equal(v, 512);
	assert_int_equal(sysfs_blkdev_read_u64(&d, "size", &v), -EINVAL);
	assert_int_equal(sysfs_blkdev_read_u64(&d, "queue/no_such_attr", &v), -ENOENT);
	assert_int_equal(v, 512);
	s = sysfs_blkdev_read_str(&d, "device/model");
	assert_string_equal(s, "QEMU HARDDISK   "); /* only the newline goes */
	free(s);
	assert_null(sysfs_blkdev_read_str(&d, "loop/backing_file"));
	assert_true(sysfs_blkdev_has(&d, "queue"));
	assert_false(sysfs_blkdev_has(&d, "loop"));
	s = sysfs_blkdev_path(&d, "stat");
	assert_string_equal(s + strlen(s) - 9, "/sda/stat");
	free(s);
	s = sysfs_blkdev_devname(&d);
	assert_string_equal(s, "/dev/sda");
	free(s);
	sysfs_blkdev_release(&d);
	assert_null(d.dir);

	/* a partition, by number and by name */
	assert_int_equal(sysfs_blkdev_init(&d, root, makedev(8, 1)), 0);
	assert_string_equal(d.name, "sda1");
	assert_true(sysfs_blkdev_is_partition(&d));
	assert_int_equal(sysfs_blkdev_read_u64(&d, "start", &v), 0);
	assert_int_equal(v, 2048);
	sysfs_blkdev_release(&d);
	assert_int_equal(sysfs_blkdev_init_name(&d, root, "sda1"), 0);
	assert_int_equal(d.devno, makedev(8, 1));
	assert_true(sysfs_blkdev_is_partition(&d));
	sysfs_blkdev_release(&d);

	/* a loop device: the backing file's name as written, blanks and quote kept */
	assert_int_equal(sysfs_blkdev_init_name(&d, root, "loop3"), 0);
	assert_int_equal(d.devno, makedev(7, 3));
	s = sysfs_blkdev_read_str(&d, "loop/backing_file");
	assert_string_equal(s, "/var/tmp/it's a b.img ");
	free(s);
	assert_int_equal(sysfs_blkdev_read_u64(&d, "loop/dio", &v), 0);
	assert_int_equal(v, 1);
	sysfs_blkdev_release(&d);

	/* '!' in a name is a '/' in /dev */
	assert_int_equal(sysfs_blkdev_init(&d, root, makedev(104, 0)), 0);
	assert_string_equal(d.name, "cciss!c0d0");
	s = sysfs_blkdev_devname(&d);
	assert_string_equal(s, "/dev/cciss/c0d0");
	free(s);
	sysfs_blkdev_release(&d);

	/* no such device */
	assert_int_equal(sysfs_blkdev_init(&d, root, makedev(8, 3)), -ENOENT);
	sysfs_blkdev_release(&d);
	assert_int_equal(sysfs_blkdev_init_name(&d, root, "sdz"), -ENOENT);
	sysfs_blkdev_release(&d);
}

static void test_lists(void **state)
{
	struct sysfs_blkdev d;
	dev_t devs[4], one[1];
	int n;

	(void)state;
	/* the partitions of a disk: its subdirectories with a "partition" file (not queue/,
	 * device/) */
	assert_int_equal(sysfs_blkdev_init(&d, root, makedev(8, 0)), 0);
	n = sysfs_blkdev_list(&d, "", devs, ARRAY_SIZE(devs));
	assert_int_equal(n, 2);
	assert_true((devs[0] == makedev(8, 1) && devs[1] == makedev(8, 2)) ||
		    (devs[0] == makedev(8, 2) && devs[1] == makedev(8, 1)));
	/* more than fit: counted, not written past the end */
	assert_int_equal(sysfs_blkdev_list(&d, "", one, 1), 2);
	/* a disk without holders or slaves directories */
	assert_int_equal(sysfs_blkdev_list(&d, "holders", devs, ARRAY_SIZE(devs)), 0);
	assert_int_equal(sysfs_blkdev_list(&d, "slaves", devs, ARRAY_SIZE(devs)), 0);
	sysfs_blkdev_release(&d);

	/* dm-0 on sda1: sda1's holder, dm-0's slave */
	assert_int_equal(sysfs_blkdev_init(&d, root, makedev(8, 1)), 0);
	assert_int_equal(sysfs_blkdev_list(&d, "holders", devs, ARRAY_SIZE(devs)), 1);
	assert_int_equal(devs[0], makedev(253, 0));
	assert_int_equal(sysfs_blkdev_list(&d, "", devs, ARRAY_SIZE(devs)), 0);
	sysfs_blkdev_release(&d);
	assert_int_equal(sysfs_blkdev_init(&d, root, makedev(253, 0)), 0);
	assert_string_equal(d.name, "dm-0");
	assert_int_equal(sysfs_blkdev_list(&d, "slaves", devs, ARRAY_SIZE(devs)), 1);
	assert_int_equal(devs[0], makedev(8, 1));
	sysfs_blkdev_release(&d);
}

/* The whole disks /sys/block lists (loop.c finds its loop devices among them). */
static void test_disk_names(void **state)
{
	struct strvec names = STRVEC_INIT;
	bool sda = false, loop3 = false;
	char *none = path_join(root, "nowhere");

	(void)state;
	assert_int_equal(sysfs_disk_names(root, &names), 0);
	assert_int_equal(names.nr, 2);
	for (size_t i = 0; i < names.nr; i++) {
		sda |= !strcmp(names.v[i], "sda");
		loop3 |= !strcmp(names.v[i], "loop3");
	}
	assert_true(sda && loop3);
	assert_int_equal(sysfs_disk_names(none, &names), -ENOENT);
	assert_int_equal(names.nr, 2);
	strvec_clear(&names);
	free(none);
}

static void test_line_files(void **state)
{
	char *path = path_join(root, "sys/devices/pci0/host0/block/sda/device/model");
	char buf[8];
	uint64_t v;

	(void)state;
	/* the first line, cut to the buffer */
	assert_int_equal(read_line_file(path, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "QEMU HA");
	free(path);
	path = path_join(root, "sys/devices/pci0/host0/block/sda/sda2/start");
	assert_int_equal(read_u64_file(path, &v), 0);
	assert_int_equal(v, 1050624);
	free(path);
	path = path_join(root, "no/such/file");
	assert_int_equal(read_line_file(path, buf, sizeof(buf)), -ENOENT);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_devno),
		cmocka_unit_test(test_blkdev),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_disk_names),
		cmocka_unit_test(test_line_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
