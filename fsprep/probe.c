// SPDX-License-Identifier: MIT
/* probe.c: libblkid: device topology, wiping signatures, reading superblocks (finding
 * signatures is the core's overwrite policy, src/platform/blockdev.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>
#include <blkid/blkid.h>

#include "lib/base.h"
#include "fsprep/prepP.h"
#include "platform/sysfs.h"

/* libblkid reports failure as NULL or a negative number, sometimes with errno set. */
static int blkid_errno(void)
{
	return errno > 0 ? -errno : -EIO;
}

int probe_topology(const char *dev, struct topology *t)
{
	blkid_probe pr;
	blkid_topology tp;
	struct stat sb;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	errno = 0;
	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return blkid_errno();
	tp = blkid_probe_get_topology(pr);
	if (!tp) {
		ret = blkid_errno();
		goto out;
	}
	t->logical_sector = blkid_topology_get_logical_sector_size(tp);
	t->physical_sector = blkid_topology_get_physical_sector_size(tp);
	t->min_io = blkid_topology_get_minimum_io_size(tp);
	t->opt_io = blkid_topology_get_optimal_io_size(tp);
	t->alignment_offset = blkid_topology_get_alignment_offset(tp);
	t->size = (uint64_t)blkid_probe_get_size(pr);
	/* A partition's start (in 512-byte units whatever the sector size) is in sysfs. */
	if (!stat(dev, &sb) && S_ISBLK(sb.st_mode)) {
		struct sysfs_blkdev sd;
		uint64_t start;

		if (!sysfs_blkdev_init(&sd, NULL, sb.st_rdev) &&
		    !sysfs_blkdev_read_u64(&sd, "start", &start))
			t->partition_start = start * 512;
		sysfs_blkdev_release(&sd);
	}
out:
	blkid_free_probe(pr);
	return ret;
}

static void lookup(blkid_probe pr, const char *name, const char **val)
{
	if (blkid_probe_lookup_value(pr, name, val, NULL))
		*val = NULL;
}

int probe_wipe(const char *dev, json_t *wiped)
{
	blkid_probe pr = NULL;
	bool reread = false;
	int fd, ret = 0, rc;

	fd = open(dev, O_RDWR | O_CLOEXEC | O_EXCL);
	if (fd < 0)
		return -errno;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, 0)) {
		ret = -ENOMEM;
		goto out;
	}
	/* The wipefs -a loop: MAGIC flags make libblkid remember where each magic is. */
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_MAGIC | BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	while ((rc = blkid_do_probe(pr)) == 0) {
		const char *type;

		lookup(pr, "TYPE", &type);
		if (!type) {
			lookup(pr, "PTTYPE", &type);
			reread = true;
		}
		json_array_append_new(wiped, json_string(type ? type : "unknown"));
		if (blkid_do_wipe(pr, 0)) {
			ret = blkid_errno();
			goto out;
		}
	}
	if (rc < 0)
		ret = blkid_errno();
	if (!ret && fsync(fd))
		ret = -errno;
	/* Like wipefs: a wiped partition table must not leave stale partition devices. */
	if (!ret && reread)
		ioctl(fd, BLKRRPART, NULL);
out:
	blkid_free_probe(pr);
	close(fd);
	return ret;
}

int probe_superblock(const char *dev, json_t *out)
{
	const char *type, *uuid, *bsz;
	blkid_probe pr;
	int ret = 0, rc;

	errno = 0;
	pr = blkid_new_probe_from_filename(dev);
	if (!pr)
		return blkid_errno();
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_UUID);
	rc = blkid_do_safeprobe(pr);
	if (rc == 1 || rc == -2) {
		ret = rc == 1 ? -ENOENT : -EPROTO;
		goto out;
	}
	if (rc < 0) {
		ret = blkid_errno();
		goto out;
	}
	lookup(pr, "TYPE", &type);
	lookup(pr, "UUID", &uuid);
	lookup(pr, "BLOCK_SIZE", &bsz);
	json_object_set_new(out, "type", type ? json_string(type) : json_null());
	json_object_set_new(out, "uuid", uuid ? json_string(uuid) : json_null());
	json_object_set_new(out, "blkid_block_size", bsz ? json_integer(atoll(bsz)) : json_null());
out:
	blkid_free_probe(pr);
	return ret;
}
