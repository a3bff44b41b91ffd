/* SPDX-License-Identifier: MIT */
/*
 * blockdev.h: block devices, Linux only: what a device is (libblkid, sysfs.h, libmount) and
 * the one policy of whether fslab may overwrite it, shared by `fslab prep` (formatting) and
 * `fslab run` on raw devices (the raw-device baseline).  Each refusal is one line naming the
 * device, the problem and the fix; --force overrides only an existing signature, never
 * "mounted", "in use" or "the same storage".
 */
#ifndef FSLAB_BLOCKDEV_H
#define FSLAB_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/base.h"

/* blockdev_wholedisk - the whole disk a partition is on (libblkid's blkid_devno_to_wholedisk),
 * the device itself when it is none or unknown. */
dev_t blockdev_wholedisk(dev_t d);
/* blockdev_on - is @d the device @disk, or a partition of it? */
bool blockdev_on(dev_t d, dev_t disk);
/* blockdev_name - "/dev/<kernel name>" of a block device number (sysfs), or "MAJ:MIN" when
 * unknown; caller frees. */
char *blockdev_name(dev_t d);
/*
 * blockdev_mounted - is the block device @rdev (path @devpath), or a partition of it, mounted
 * (libmount, the kernel's mount table)?  1 with the mount point and the mounted device in
 * *target and *what (caller frees), 0 when not, or -errno.
 */
int blockdev_mounted(dev_t rdev, const char *devpath, char **target, char **what) __must_check;
/* blockdev_root - the block device holding /, or 0 when unknown. */
dev_t blockdev_root(void);
/*
 * blockdev_signature - filesystem, RAID or partition-table signatures on @dev (libblkid
 * safeprobe).  0 when there is none, 1 with a description in *what ("an ext4 filesystem
 * signature (UUID ...)"; caller frees), or -errno.
 */
int blockdev_signature(const char *dev, char **what) __must_check;
/*
 * blockdev_loop_backing - what loop device @dev reads and writes: the backing file's device
 * and inode (LOOP_GET_STATUS64, as losetup -j compares them) and in *path (may be NULL) the
 * name sysfs shows for it (" (deleted)" stripped; NULL when sysfs does not say; caller frees).
 * 0, -ENXIO when @dev is no bound loop device, or -errno.
 */
int blockdev_loop_backing(const char *dev, dev_t *file_dev, ino_t *file_ino, char **path)
	__must_check;

/*
 * blockdev_check_overwrite - may @dev be overwritten?  Refused: missing, not a block device,
 * holding /, mounted (or a partition of it), swap, held by device-mapper or md, busy
 * (exclusive open fails), open by another process, read-only, smaller than @min_size (when
 * not 0: "@min_who needs at least ..."), or, unless @force, carrying a signature.  @opt names
 * the option that gave it ("--db-dev", "--log"), for messages.  Returns 0, or -FSLAB_EINPUT
 * after printing one line.  Changes nothing.  *sig (may be NULL) is what @force will let be
 * overwritten (caller frees), or NULL.
 */
int blockdev_check_overwrite(const char *dev, const char *opt, uint64_t min_size,
			     const char *min_who, bool force, char **sig) __must_check;
/*
 * blockdev_check_pair - may @a and @b (given by options @aopt and @bopt) be written as two
 * separate volumes?  Each is followed down its stack (loop devices to their backing file or
 * device, device-mapper and md to their members, every device to its whole disk): refused when
 * they are one device, one a partition of the other, share a device or a backing file anywhere
 * in their stacks, or are partitions of one disk.  Devices that are not block devices pass
 * (blockdev_check_overwrite() refuses them).  0, or -FSLAB_EINPUT after printing one line.
 */
int blockdev_check_pair(const char *a, const char *aopt, const char *b, const char *bopt)
	__must_check;

#endif
