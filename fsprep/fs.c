// SPDX-License-Identifier: MIT
/* fs.c: the filesystems prep formats: tools, Debian packages, mount types and options; and
 * "raw", no filesystem at all. */
#include <string.h>

#include "fsprep/prepP.h"

/*
 * Mount options: noatime everywhere, so reads never turn into metadata writes.  ntfs-3g on
 * Debian 12 (2022.10.3, integrated FUSE 28) still accepts and honours big_writes: without it
 * the kernel splits buffered writes to the FUSE daemon into 4 KiB requests.
 *
 * Minimum sizes: mkfs.xfs 6.x refuses filesystems under 300 MiB; mkfs.btrfs needs about
 * 114 MiB for its default (non-mixed) profiles; the others are far below anything useful.
 *
 * raw: the baseline `fslab run --db DEV --log DEV` measures without a filesystem.  prep only
 * attaches, discards and (--force) wipes; no tool, no mount.  fslab run checks its --db-size
 * against the device itself; 16 MiB only keeps out sizes nothing fits on.
 */
static const struct fs_desc fs_table[] = {
	{
		.kind = FS_EXT4,
		.name = "ext4",
		.mkfs = "mkfs.ext4",
		.force_flag = "-F",
		.version_flag = "-V",
		.package = "e2fsprogs",
		.blkid_type = "ext4",
		.mount_type = "ext4",
		.mount_opts = "noatime",
		.min_size = 16 * MiB,
	},
	{
		.kind = FS_XFS,
		.name = "xfs",
		.mkfs = "mkfs.xfs",
		.force_flag = "-f",
		.version_flag = "-V",
		.package = "xfsprogs",
		.blkid_type = "xfs",
		.mount_type = "xfs",
		.mount_opts = "noatime",
		.min_size = 300 * MiB,
	},
	{
		.kind = FS_NTFS,
		.name = "ntfs",
		.mkfs = "mkntfs",
		.force_flag = "-F",
		.version_flag = "--version",
		.package = "ntfs-3g",
		.blkid_type = "ntfs",
		.mount_type = "ntfs-3g",
		.mount_helper = "mount.ntfs-3g",
		.mount_opts = "noatime,big_writes",
		.min_size = 16 * MiB,
	},
	{
		.kind = FS_BTRFS,
		.name = "btrfs",
		.mkfs = "mkfs.btrfs",
		.force_flag = "-f",
		.version_flag = "--version",
		.package = "btrfs-progs",
		.blkid_type = "btrfs",
		.mount_type = "btrfs",
		.mount_opts = "noatime",
		.min_size = 128 * MiB,
	},
	{
		.kind = FS_RAW,
		.name = "raw",
		.min_size = 16 * MiB,
	},
};

const struct fs_desc *fs_desc_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_table); i++)
		if (!strcmp(fs_table[i].name, name))
			return &fs_table[i];
	return NULL;
}

const char *fs_desc_names(void)
{
	return "ext4, xfs, ntfs, btrfs, raw";
}
