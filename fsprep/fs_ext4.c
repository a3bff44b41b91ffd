// SPDX-License-Identifier: MIT
/*
 * fs_ext4.c: ext4 for prep: mkfs.ext4 options from the topology, verification with
 * libext2fs, and its descriptor.
 *
 * -b 4096 -E lazy_itable_init=0,lazy_journal_init=0[,stride=S,stripe_width=W]: stride = the
 * RAID chunk in blocks (1 when there is no chunk), stripe_width = the stripe in blocks
 * (topology_stripe()).  mballoc aligns allocations to stripe_width, which is the part that
 * matters.  Never lazy init: no background initialisation during a measurement (verified:
 * every group ITABLE_ZEROED).
 */
#include <errno.h>
#include <ext2fs/ext2fs.h>

#include "base.h"
#include "fsprep/prepP.h"
#include "msg.h"

static void build_ext4(struct mkfs_cmd *p, const struct topology *t)
{
	uint64_t chunk, stripe;

	topology_stripe(t, p->block_size, &chunk, &stripe);
	strvec_push(&p->argv, "-b");
	strvec_pushf(&p->argv, "%u", p->block_size);
	/* one -E only: mke2fs keeps the last -E it is given */
	strvec_push(&p->argv, "-E");
	if (stripe) {
		p->stride = chunk ? (uint32_t)(chunk / p->block_size) : 1;
		p->stripe_width = (uint32_t)(stripe / p->block_size);
		/* No lazy inode-table or journal initialisation: nothing runs during a measurement. */
		strvec_pushf(&p->argv, "lazy_itable_init=0,lazy_journal_init=0,stride=%u,stripe_width=%u%s",
			     p->stride, p->stripe_width, p->nodiscard ? ",nodiscard" : "");
	} else {
		strvec_pushf(&p->argv, "lazy_itable_init=0,lazy_journal_init=0%s",
			     p->nodiscard ? ",nodiscard" : "");
	}
}

/* The ext4 features dumpe2fs names, by the same names. */
static const struct {
	const char *name;
	int word; /* 0 compat, 1 incompat, 2 ro_compat */
	uint32_t mask;
} ext4_features[] = {
	{ "has_journal", 0, EXT3_FEATURE_COMPAT_HAS_JOURNAL },
	{ "ext_attr", 0, EXT2_FEATURE_COMPAT_EXT_ATTR },
	{ "resize_inode", 0, EXT2_FEATURE_COMPAT_RESIZE_INODE },
	{ "dir_index", 0, EXT2_FEATURE_COMPAT_DIR_INDEX },
	{ "sparse_super2", 0, EXT4_FEATURE_COMPAT_SPARSE_SUPER2 },
	{ "fast_commit", 0, EXT4_FEATURE_COMPAT_FAST_COMMIT },
	{ "stable_inodes", 0, EXT4_FEATURE_COMPAT_STABLE_INODES },
	{ "orphan_file", 0, EXT4_FEATURE_COMPAT_ORPHAN_FILE },
	{ "filetype", 1, EXT2_FEATURE_INCOMPAT_FILETYPE },
	{ "needs_recovery", 1, EXT3_FEATURE_INCOMPAT_RECOVER },
	{ "meta_bg", 1, EXT2_FEATURE_INCOMPAT_META_BG },
	{ "extent", 1, EXT3_FEATURE_INCOMPAT_EXTENTS },
	{ "64bit", 1, EXT4_FEATURE_INCOMPAT_64BIT },
	{ "mmp", 1, EXT4_FEATURE_INCOMPAT_MMP },
	{ "flex_bg", 1, EXT4_FEATURE_INCOMPAT_FLEX_BG },
	{ "ea_inode", 1, EXT4_FEATURE_INCOMPAT_EA_INODE },
	{ "metadata_csum_seed", 1, EXT4_FEATURE_INCOMPAT_CSUM_SEED },
	{ "large_dir", 1, EXT4_FEATURE_INCOMPAT_LARGEDIR },
	{ "inline_data", 1, EXT4_FEATURE_INCOMPAT_INLINE_DATA },
	{ "encrypt", 1, EXT4_FEATURE_INCOMPAT_ENCRYPT },
	{ "casefold", 1, EXT4_FEATURE_INCOMPAT_CASEFOLD },
	{ "sparse_super", 2, EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER },
	{ "large_file", 2, EXT2_FEATURE_RO_COMPAT_LARGE_FILE },
	{ "huge_file", 2, EXT4_FEATURE_RO_COMPAT_HUGE_FILE },
	{ "uninit_bg", 2, EXT4_FEATURE_RO_COMPAT_GDT_CSUM },
	{ "dir_nlink", 2, EXT4_FEATURE_RO_COMPAT_DIR_NLINK },
	{ "extra_isize", 2, EXT4_FEATURE_RO_COMPAT_EXTRA_ISIZE },
	{ "quota", 2, EXT4_FEATURE_RO_COMPAT_QUOTA },
	{ "bigalloc", 2, EXT4_FEATURE_RO_COMPAT_BIGALLOC },
	{ "metadata_csum", 2, EXT4_FEATURE_RO_COMPAT_METADATA_CSUM },
	{ "project", 2, EXT4_FEATURE_RO_COMPAT_PROJECT },
	{ "verity", 2, EXT4_FEATURE_RO_COMPAT_VERITY },
};

/* libext2fs: block size, RAID stride and stripe width, features, inode tables zeroed. */
static int verify_ext4(const char *dev, const struct mkfs_cmd *p, json_t *v)
{
	ext2_filsys fs = NULL;
	errcode_t err;
	json_t *features = json_array();
	bool zeroed = true;
	int ret = 0;

	err = ext2fs_open(dev, 0, 0, 0, unix_io_manager, &fs);
	if (err) {
		/* errcode_t: small values are errno, the rest com_err codes of libext2fs. */
		fslab_err("libext2fs cannot open %s (error %ld)", dev, (long)err);
		json_decref(features);
		return err > 0 && err < 4096 ? -(int)err : -EIO;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ext4_features); i++) {
		uint32_t word = ext4_features[i].word == 0 ? fs->super->s_feature_compat :
				ext4_features[i].word == 1 ? fs->super->s_feature_incompat :
				fs->super->s_feature_ro_compat;

		if (word & ext4_features[i].mask)
			json_array_append_new(features, json_string(ext4_features[i].name));
	}
	/* mke2fs -E lazy_itable_init=0 zeroes every inode table and says so per group. */
	if (ext2fs_has_group_desc_csum(fs))
		for (dgrp_t g = 0; g < fs->group_desc_count; g++)
			if (!ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_ZEROED))
				zeroed = false;

	json_object_set_new(v, "block_size", json_integer(fs->blocksize));
	json_object_set_new(v, "cluster_size", json_integer(EXT2_CLUSTER_SIZE(fs->super)));
	json_object_set_new(v, "stride", json_integer(fs->super->s_raid_stride));
	json_object_set_new(v, "stripe_width", json_integer(fs->super->s_raid_stripe_width));
	json_object_set_new(v, "features", features);
	json_object_set_new(v, "itable_zeroed", json_boolean(zeroed));

	ret = verify_expect(dev, "the block size", p->block_size, fs->blocksize);
	if (!ret)
		ret = verify_expect(dev, "the RAID stride", p->stride, fs->super->s_raid_stride);
	if (!ret)
		ret = verify_expect(dev, "the RAID stripe width", p->stripe_width,
				    fs->super->s_raid_stripe_width);
	if (!ret && !zeroed) {
		fslab_err("verification of %s failed: inode tables are not all zeroed (lazy_itable_init=0 ignored?)",
			  dev);
		ret = -EPROTO;
	}
	ext2fs_close_free(&fs);
	return ret;
}

/*
 * e2fsprogs misc/mke2fs.c (1.47): -d populates from a directory or tarball, -l reads a bad
 * blocks list, -z writes an undo file, -J device= formats or joins an external journal.
 */
static const struct mkfs_syntax ext4_syntax = {
	.shortopts = "b:cd:e:g:i:jl:m:no:qr:s:t:vC:DE:FG:I:J:KL:M:N:O:R:ST:U:Vz:",
	.paths = "dlz",
	.subopt_paths = (const char *const[]){ "J:device", NULL },
};

const struct fs_desc fs_ext4 = {
	.name = "ext4",
	.mkfs = "mkfs.ext4",
	.force_flag = "-F",
	.version_flag = "-V",
	.package = "e2fsprogs",
	.syntax = &ext4_syntax,
	.min_size = 16 * MiB,
	.block_default = 4096,
	.block_min = 1024,
	.block_max = 4096,
	.block_pow2 = true,
	.block_error = "ext4 block sizes are 1024, 2048 or 4096 bytes (at most the page size)",
	.build = build_ext4,
	.blkid_type = "ext4",
	.verify_method = "libext2fs",
	.verify = verify_ext4,
	.mount_type = "ext4",
	.mount_opts = "noatime",
};
