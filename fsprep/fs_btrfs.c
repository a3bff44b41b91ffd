// SPDX-License-Identifier: MIT
/*
 * fs_btrfs.c: btrfs: mkfs.btrfs options, verification from the superblock, and its
 * descriptor.
 *
 * -s 4096 and the default profiles (data single, metadata DUP since btrfs-progs 5.15): that is
 * what btrfs users get, and changing it would compare a tuned btrfs with default others.
 */
#include <errno.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"

static void build_btrfs(struct mkfs_cmd *p, const struct topology *t)
{
	(void)t;
	/* Default profiles (data single, metadata DUP): what btrfs users get; see docs/PREP.md. */
	strvec_push(&p->argv, "-s");
	strvec_pushf(&p->argv, "%u", p->block_size);
	if (p->nodiscard)
		strvec_push(&p->argv, "-K");
}

/* sectorsize and nodesize (little-endian) from the primary superblock at 64 KiB. */
static int verify_btrfs(const unsigned char *sb, const char *dev, const struct mkfs_cmd *p,
			json_t *v)
{
	uint32_t sect, node;

	if (memcmp(sb + 64, "_BHRfS_M", 8))
		return -EPROTO;
	sect = get_le32(sb + 144); /* sectorsize */
	node = get_le32(sb + 148); /* nodesize */
	json_object_set_new(v, "block_size", json_integer(sect));
	json_object_set_new(v, "cluster_size", json_integer(sect));
	json_object_set_new(v, "nodesize", json_integer(node));
	return verify_expect(dev, "the sector size", p->block_size, sect);
}

/*
 * btrfs-progs mkfs/main.c (6.2, and the options later versions added): every operand is a
 * device of the new filesystem; --rootdir (-r) populates it from a directory, --subvol (-u)
 * and --inode-flags name paths in it.
 */
static const struct mkfs_syntax btrfs_syntax = {
	.shortopts = "A:b:fl:n:s:m:d:L:R:O:r:U:VvMKqu:",
	.long_arg = (const char *const[]){ "alloc-start", "byte-count", "csum", "checksum",
					   "leafsize", "label", "metadata", "nodesize",
					   "sectorsize", "data", "rootdir", "subvol", "features",
					   "runtime-features", "uuid", "num-global-roots",
					   "device-uuid", "compress", "inode-flags", NULL },
	.long_flag = (const char *const[]){ "force", "mixed", "version", "nodiscard", "quiet",
					    "verbose", "shrink", "help", NULL },
	.paths = "ru",
	.long_paths = (const char *const[]){ "rootdir", "subvol", "inode-flags", NULL },
};

static const struct fs_mkfs btrfs_mkfs = {
	.tool = "mkfs.btrfs",
	.force_flag = "-f",
	.version_flag = "--version",
	.package = "btrfs-progs",
	.syntax = &btrfs_syntax,
	.min_size = 128 * MiB, /* about 114 MiB for the default (non-mixed) profiles */
	/* The sector size must equal the page size on this kernel: 4096 only. */
	.block_default = 4096,
	.block_min = 4096,
	.block_max = 4096,
	.block_pow2 = true,
	.block_error = "btrfs here takes only a 4096-byte sector size (the page size); leave --cluster out",
	.cluster_help = "only 4096 (the sector size: the page size here)",
	.build = build_btrfs,
	.blkid_type = "btrfs",
	.sb_offset = 64 * KiB, /* the primary superblock */
	.sb_size = 4096,
	.verify_sb = verify_btrfs,
	.mount_type = "btrfs",
	.mount_opts = "noatime",
};

/* Copy-on-write: partially overwritten extents are kept, so databases being rewritten grow
 * towards twice their size (ENOSPC otherwise, seen here). */
const struct fs_desc fs_btrfs = {
	.name = "btrfs",
	.title = "btrfs",
	.flags = FS_F_COW,
	.on = { [PREP_LINUX] = PREP_BE_MKFS },
	.mkfs = &btrfs_mkfs,
};
