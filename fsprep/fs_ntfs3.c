// SPDX-License-Identifier: MIT
/*
 * fs_ntfs3.c: NTFS through the in-kernel ntfs3 driver (Linux 5.15 and later; Debian 12's own
 * 6.1 has it disabled, its 6.12 has it as a module), the second NTFS driver beside ntfs-3g.
 *
 * The volume is the same as --fs ntfs makes (mkntfs from ntfs-3g, 64 KiB clusters, the same
 * boot-sector check); only the mount differs: mount -t ntfs3, no FUSE daemon and so no memory
 * cgroup, O_DIRECT reaches the device.  prep refuses it, naming why, when the running kernel
 * has no ntfs3 (kernel_fs; format.c: format_tool_check).
 */
#include "lib/base.h"
#include "fsprep/prepP.h"

extern const struct fs_desc fs_ntfs; /* fs_ntfs.c: what a kernel without ntfs3 can use */

static const struct fs_mkfs ntfs3_mkfs = {
	NTFS_MKFS_FIELDS,
	.package = "ntfs-3g",
	.blkid_type = "ntfs",
	.mount_type = "ntfs3",
	.kernel_fs = "ntfs3",
	.kernel_config = "CONFIG_NTFS3_FS (Debian's linux-image-6.12 has it as a module)",
	.instead = &fs_ntfs,
	.mount_opts = "noatime",
};

const struct fs_desc fs_ntfs3 = {
	.name = "ntfs3",
	.title = "ntfs3",
	.about = "the in-kernel NTFS driver; refused when the running kernel has none",
	.notes = "NTFS through the in-kernel ntfs3 driver (mount -t ntfs3), formatted by mkntfs",
	.on = { [PREP_LINUX] = PREP_BE_MKFS },
	.mkfs = &ntfs3_mkfs,
};
