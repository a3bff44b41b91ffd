/* SPDX-License-Identifier: MIT */
/*
 * sysfs.h: a block device's facts in sysfs, Linux only (util-linux lib/sysfs.c's shape: a
 * path context per device, attributes read relative to it), and the one-line files of /sys
 * and /proc.  The core's volume facts and fsprep both read sysfs through here only.
 *
 * A prefix ("" for the running system) puts the tree elsewhere, as util-linux's
 * ul_path_set_prefix() does: tests give a tree of plain files (test data for the parser).
 */
#ifndef FSLAB_SYSFS_H
#define FSLAB_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/base.h"

/* read_line_file - first line of a (sysfs, proc) file, newline stripped, at most len - 1
 * bytes of it.  0 or -errno. */
int read_line_file(const char *path, char *buf, size_t len) __must_check;
/* read_u64_file - a decimal number from a sysfs file.  0 or -errno. */
int read_u64_file(const char *path, uint64_t *v) __must_check;

/* One block device's directory in sysfs. */
struct sysfs_blkdev {
	char *prefix;  /* where the tree is ("" for /sys itself) */
	char *dir;     /* <prefix>/sys/dev/block/MAJ:MIN resolved: <prefix>/sys/devices/.../sda1 */
	char *name;    /* kernel name as sysfs spells it ("sda1", "loop0", "cciss!c0d0") */
	dev_t devno;
};

/*
 * sysfs_blkdev_init - the sysfs directory of block device @devno (MAJ:MIN) under @prefix
 * ("" or NULL: the running system).  0, -ENOENT when there is no such device, or -errno.
 * Release with sysfs_blkdev_release() (also after a failure).
 */
int sysfs_blkdev_init(struct sysfs_blkdev *d, const char *prefix, dev_t devno) __must_check;
/* sysfs_blkdev_init_name - the same by kernel name ("loop3"), through /sys/block/NAME. */
int sysfs_blkdev_init_name(struct sysfs_blkdev *d, const char *prefix, const char *name)
	__must_check;
void sysfs_blkdev_release(struct sysfs_blkdev *d);

/* sysfs_blkdev_path - "<dir>/<attr>"; caller frees. */
char *sysfs_blkdev_path(const struct sysfs_blkdev *d, const char *attr);
/* sysfs_blkdev_has - does attribute (a file or directory) @attr exist? */
bool sysfs_blkdev_has(const struct sysfs_blkdev *d, const char *attr);
/* sysfs_blkdev_read_str - an attribute's first line, without its newline (caller frees), or
 * NULL when it cannot be read. */
char *sysfs_blkdev_read_str(const struct sysfs_blkdev *d, const char *attr);
/* sysfs_blkdev_read_u64 - an attribute as a decimal number.  0 or -errno (-EINVAL: not one). */
int sysfs_blkdev_read_u64(const struct sysfs_blkdev *d, const char *attr, uint64_t *v)
	__must_check;
/* sysfs_blkdev_is_partition - is it a partition (a "partition" attribute)? */
bool sysfs_blkdev_is_partition(const struct sysfs_blkdev *d);
/* sysfs_blkdev_devname - "/dev/<name>", sysfs's '!' written as '/' ("/dev/cciss/c0d0");
 * caller frees. */
char *sysfs_blkdev_devname(const struct sysfs_blkdev *d);
/*
 * sysfs_blkdev_list - the device numbers of the devices named in directory attribute @what:
 * "slaves" (what device-mapper or md is built on), "holders" (device-mapper or md built on
 * it), or "" (the partitions: subdirectories with a "partition" attribute), at most @max into
 * @out, in directory order.  Returns how many there are (more than @max when cut), or -errno.
 */
int sysfs_blkdev_list(const struct sysfs_blkdev *d, const char *what, dev_t *out, size_t max);

struct strvec;
/* sysfs_disk_names - the kernel names of the whole disks (/sys/block: "sda", "loop3", ...),
 * appended to @names.  0 or -errno. */
int sysfs_disk_names(const char *prefix, struct strvec *names) __must_check;

/* sysfs_parse_devno - "MAJ:MIN" (a sysfs "dev" file) into *devno.  0 or -EINVAL. */
int sysfs_parse_devno(const char *s, dev_t *devno) __must_check;

#endif
