// SPDX-License-Identifier: MIT
/*
 * verify.c: read a freshly made filesystem back independently of the mkfs that made it: the
 * generic flow (libblkid must find exactly one filesystem of the expected type; TYPE and UUID
 * recorded), then the descriptor's verifier (fs_<name>.c) reads its superblock, plus the small
 * helpers those verifiers share.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsprep/prepP.h"
#include "msg.h"

int verify_expect(const char *dev, const char *what, uint64_t want, uint64_t got)
{
	if (!want || want == got)
		return 0;
	fslab_err("verification of %s failed: %s is %llu, mkfs was asked for %llu", dev, what,
		  (unsigned long long)got, (unsigned long long)want);
	return -EPROTO;
}

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

uint32_t get_be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

uint32_t get_le32(const unsigned char *b)
{
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

int verify_volume(const struct fs_desc *fs, const char *dev, const struct mkfs_cmd *p,
		  json_t **out)
{
	json_t *v = json_object(), *blk = json_object();
	const char *type;
	int ret;

	*out = NULL;
	if (!fs->verify) {
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
	if (!type || strcmp(type, fs->blkid_type)) {
		fslab_err("verification of %s failed: libblkid reads type %s, expected %s", dev,
			  type ? type : "(none)", fs->blkid_type);
		ret = -EPROTO;
		goto out;
	}
	json_object_set_new(v, "method", json_string(fs->verify_method));
	json_object_set(v, "type", json_object_get(blk, "type"));
	json_object_set(v, "uuid", json_object_get(blk, "uuid"));
	/* libblkid's BLOCK_SIZE is the sector size for XFS and NTFS: kept for reference. */
	json_object_set(v, "blkid_block_size", json_object_get(blk, "blkid_block_size"));
	json_object_set_new(v, "stride", json_null());
	json_object_set_new(v, "stripe_width", json_null());
	json_object_set_new(v, "features", json_null());
	ret = fs->verify(dev, p, v);
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
