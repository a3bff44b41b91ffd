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
	.tool = "mkntfs",
	.force_flag = "-F",
	.version_flag = "--version",
	.package = "ntfs-3g",
	.syntax = &ntfs_syntax,
	.min_size = 16 * MiB,
	.block_default = 64 * KiB, /* Exchange's recommendation for database volumes */
	.block_min = 512,
	.block_max = 64 * KiB,
	.block_pow2 = true,
	.block_error = "NTFS clusters are a power of two from 512 to 65536 bytes",
	.cluster_help = "the cluster size, 512 to 64K (default 64K, Exchange's recommendation)",
	.build = ntfs_build,
	.blkid_type = "ntfs",
	.sb_offset = 0,
	.sb_size = 512,
	.verify_sb = ntfs_verify_sb,
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
