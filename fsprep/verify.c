// SPDX-License-Identifier: MIT
/*
 * verify.c: read a freshly made filesystem back independently of the mkfs that made it.
 * ext4: libext2fs (block size, RAID stride and stripe width, features, inode tables zeroed).
 * Others: libblkid for type and UUID; libblkid 2.38 exports no cluster size or stripe
 * geometry, so those few fields are read from the on-disk superblock at their documented
 * offsets (XFS sb_blocksize/sb_sectsize/sb_unit/sb_width, NTFS BPB, btrfs sectorsize).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ext2fs/ext2fs.h>

#include "fsprep/prepP.h"

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

/* Compare one verified number with the plan; 0 for "not asked for" skips the check. */
static int expect(const char *dev, const char *what, uint64_t want, uint64_t got)
{
	if (!want || want == got)
		return 0;
	fslab_err("verification of %s failed: %s is %llu, mkfs was asked for %llu", dev, what,
		  (unsigned long long)got, (unsigned long long)want);
	return -EPROTO;
}

static int verify_ext4(const char *dev, const struct mkfs_plan *p, json_t *v)
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

	ret = expect(dev, "the block size", p->block_size, fs->blocksize);
	if (!ret)
		ret = expect(dev, "the RAID stride", p->stride, fs->super->s_raid_stride);
	if (!ret)
		ret = expect(dev, "the RAID stripe width", p->stripe_width,
			     fs->super->s_raid_stripe_width);
	if (!ret && !zeroed) {
		fslab_err("verification of %s failed: inode tables are not all zeroed (lazy_itable_init=0 ignored?)",
			  dev);
		ret = -EPROTO;
	}
	ext2fs_close_free(&fs);
	return ret;
}

static int read_at(const char *dev, off_t off, unsigned char *buf, size_t len)
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

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint32_t le32(const unsigned char *b)
{
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

static int verify_xfs(const char *dev, const struct mkfs_plan *p, json_t *v)
{
	unsigned char sb[512];
	uint32_t bs, sect, unit, width;
	int ret = read_at(dev, 0, sb, sizeof(sb));

	if (ret)
		return ret;
	if (memcmp(sb, "XFSB", 4))
		return -EPROTO;
	bs = be32(sb + 4);                            /* sb_blocksize */
	sect = (uint32_t)sb[102] << 8 | sb[103];      /* sb_sectsize */
	unit = be32(sb + 184);                        /* sb_unit, in blocks */
	width = be32(sb + 188);                       /* sb_width, in blocks */
	json_object_set_new(v, "block_size", json_integer(bs));
	json_object_set_new(v, "cluster_size", json_integer(bs));
	json_object_set_new(v, "sector_size", json_integer(sect));
	json_object_set_new(v, "stride", json_integer(unit));
	json_object_set_new(v, "stripe_width", json_integer(width));
	json_object_set_new(v, "su", json_integer((json_int_t)unit * bs));
	json_object_set_new(v, "sw", json_integer(unit ? width / unit : 0));
	ret = expect(dev, "the block size", p->block_size, bs);
	if (!ret)
		ret = expect(dev, "the sector size", p->sector_size, sect);
	if (!ret)
		ret = expect(dev, "the stripe unit (bytes)", p->su, (uint64_t)unit * bs);
	if (!ret)
		ret = expect(dev, "the stripe width (units)", p->sw, unit ? width / unit : 0);
	return ret;
}

static int verify_ntfs(const char *dev, const struct mkfs_plan *p, json_t *v)
{
	unsigned char bs[512];
	uint32_t sector, spc, cluster;
	int ret = read_at(dev, 0, bs, sizeof(bs));

	if (ret)
		return ret;
	if (memcmp(bs + 3, "NTFS    ", 8))
		return -EPROTO;
	/* BPB: bytes per sector at 0x0b; sectors per cluster at 0x0d, or 2^(256 - v) when
	 * v > 0x80 (clusters of 128 KiB and more with 512-byte sectors). */
	sector = (uint32_t)bs[0x0c] << 8 | bs[0x0b];
	spc = bs[0x0d] <= 0x80 ? bs[0x0d] : 1U << (256 - bs[0x0d]);
	cluster = sector * spc;
	json_object_set_new(v, "block_size", json_integer(sector));
	json_object_set_new(v, "sector_size", json_integer(sector));
	json_object_set_new(v, "cluster_size", json_integer(cluster));
	ret = expect(dev, "the cluster size", p->cluster_size, cluster);
	if (!ret)
		ret = expect(dev, "the sector size", p->sector_size, sector);
	return ret;
}

static int verify_btrfs(const char *dev, const struct mkfs_plan *p, json_t *v)
{
	unsigned char sb[4096];
	uint32_t sect, node;
	int ret = read_at(dev, 64 * KiB, sb, sizeof(sb)); /* primary superblock */

	if (ret)
		return ret;
	if (memcmp(sb + 64, "_BHRfS_M", 8))
		return -EPROTO;
	sect = le32(sb + 144); /* sectorsize */
	node = le32(sb + 148); /* nodesize */
	json_object_set_new(v, "block_size", json_integer(sect));
	json_object_set_new(v, "cluster_size", json_integer(sect));
	json_object_set_new(v, "nodesize", json_integer(node));
	return expect(dev, "the sector size", p->block_size, sect);
}

/* In enum fs_kind order. */
static int (*const verifiers[])(const char *dev, const struct mkfs_plan *p, json_t *v) = {
	[FS_EXT4] = verify_ext4,
	[FS_XFS] = verify_xfs,
	[FS_NTFS] = verify_ntfs,
	[FS_BTRFS] = verify_btrfs,
};

int verify_volume(const struct fs_desc *fs, const char *dev, const struct mkfs_plan *p,
		  json_t **out)
{
	json_t *v = json_object(), *blk = json_object();
	const char *type;
	int ret;

	*out = NULL;
	ret = probe_superblock(dev, blk);
	if (ret) {
		fslab_err("verification of %s failed: libblkid finds no single filesystem on it (%s)",
			  dev, strerror(-ret));
		goto out;
	}
	type = json_string_value(json_object_get(blk, "type"));
	if (!type || strcmp(type, fs->blkid_type)) {
		fslab_err("verification of %s failed: libblkid reads type %s, expected %s", dev,
			  type ? type : "(none)", fs->blkid_type);
		ret = -EPROTO;
		goto out;
	}
	json_object_set_new(v, "method", json_string(fs->kind == FS_EXT4 ? "libext2fs" : "libblkid"));
	json_object_set(v, "type", json_object_get(blk, "type"));
	json_object_set(v, "uuid", json_object_get(blk, "uuid"));
	/* libblkid's BLOCK_SIZE is the sector size for XFS and NTFS: kept for reference. */
	json_object_set(v, "blkid_block_size", json_object_get(blk, "blkid_block_size"));
	json_object_set_new(v, "stride", json_null());
	json_object_set_new(v, "stripe_width", json_null());
	json_object_set_new(v, "features", json_null());
	ret = verifiers[fs->kind](dev, p, v);
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
