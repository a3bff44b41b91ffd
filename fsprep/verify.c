// SPDX-License-Identifier: MIT
/*
 * verify.c: read a freshly made filesystem back independently of the mkfs that made it: the
 * generic flow (libblkid must find exactly one filesystem of the expected type; TYPE and UUID
 * recorded), then libext2fs (the ext2/3/4 family) or the descriptor's superblock reader
 * (fs_<name>.c) reads it back: the mkfs backend's verification.
 */
#include <errno.h>
#include <ext2fs/ext2fs.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsprep/prepP.h"
#include "lib/msg.h"

int verify_read_at(const char *dev, off_t off, unsigned char *buf, size_t len)
{
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, off);
	close(fd);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* The ext2/3/4 features dumpe2fs names, by the same names. */
static const struct {
	const char *name;
	int word; /* 0 compat, 1 incompat, 2 ro_compat */
	uint32_t mask;
} ext2_features[] = {
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

/* libext2fs (the ext2/3/4 family): block size, RAID stride and stripe width, features, inode
 * tables zeroed. */
static int verify_ext2(const char *dev, const struct mkfs_cmd *p, json_t *v)
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
	for (size_t i = 0; i < ARRAY_SIZE(ext2_features); i++) {
		uint32_t word = ext2_features[i].word == 0 ? fs->super->s_feature_compat :
				ext2_features[i].word == 1 ? fs->super->s_feature_incompat :
				fs->super->s_feature_ro_compat;

		if (word & ext2_features[i].mask)
			json_array_append_new(features, json_string(ext2_features[i].name));
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

/* Read @m's superblock back: libext2fs, or its reader on the bytes at sb_offset. */
static int verify_sb(const struct fs_mkfs *m, const char *dev, const struct mkfs_cmd *p,
		     json_t *v)
{
	unsigned char *sb;
	int ret;

	if (m->libext2fs)
		return verify_ext2(dev, p, v);
	sb = xmalloc(m->sb_size);
	ret = verify_read_at(dev, m->sb_offset, sb, m->sb_size);
	if (!ret)
		ret = m->verify_sb(sb, dev, p, v);
	free(sb);
	return ret;
}

int verify_volume(const struct fs_desc *fs, const char *dev, const struct mkfs_cmd *p,
		  json_t **out)
{
	json_t *v = json_object(), *blk = json_object();
	const char *type;
	int ret;

	*out = NULL;
	if (!fs->mkfs) {
		fslab_err("cannot verify %s: --fs %s makes no filesystem to read back", dev, fs->name);
		ret = -EINVAL;
		goto out;
	}
	ret = probe_superblock(dev, blk);
	if (ret) {
		fslab_err("verification of %s failed: libblkid finds no single filesystem on it (%s)",
			  dev, strerror(-ret));
		goto out;
	}
	type = json_string_value(json_object_get(blk, "type"));
	if (!type || strcmp(type, fs->mkfs->blkid_type)) {
		fslab_err("verification of %s failed: libblkid reads type %s, expected %s", dev,
			  type ? type : "(none)", fs->mkfs->blkid_type);
		ret = -EPROTO;
		goto out;
	}
	json_object_set_new(v, "method", json_string(fs_verify_method(fs)));
	json_object_set(v, "type", json_object_get(blk, "type"));
	json_object_set(v, "uuid", json_object_get(blk, "uuid"));
	/* libblkid's BLOCK_SIZE is the sector size for XFS and NTFS: kept for reference. */
	json_object_set(v, "blkid_block_size", json_object_get(blk, "blkid_block_size"));
	json_object_set_new(v, "stride", json_null());
	json_object_set_new(v, "stripe_width", json_null());
	json_object_set_new(v, "features", json_null());
	ret = verify_sb(fs->mkfs, dev, p, v);
	if (ret == -EPROTO && !json_object_get(v, "block_size"))
		fslab_err("verification of %s failed: the %s superblock is not where it should be",
			  dev, fs->name);
out:
	json_decref(blk);
	if (ret)
		json_decref(v);
	else
		*out = v;
	return ret;
}
