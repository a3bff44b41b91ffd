// SPDX-License-Identifier: MIT
/*
 * fs_ntfs.c: NTFS: on Linux through ntfs-3g (mkntfs options from the topology, verification
 * from the boot sector), on Windows with Format-Volume; its descriptor.
 *
 * mkntfs -Q -c 65536: 64 KiB clusters, Exchange's recommendation for database volumes; -Q
 * because the device was just discarded.  -s 4096 on 4Kn.  ntfs-3g is a FUSE daemon that reads
 * the device through the page cache even for O_DIRECT files, hence FS_F_PAGE_CACHE: prep
 * starts it in a memory cgroup (cgroup.c, --ntfs-cache-limit).
 */
#include <errno.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"
#include "fsprep/win/winprep.h"


void ntfs_build(struct mkfs_cmd *p, const struct topology *t)
{
	/* -Q: quick format; the device was discarded just before, zeroing it again is waste. */
	strvec_push(&p->argv, "-Q");
	strvec_push(&p->argv, "-c");
	strvec_pushf(&p->argv, "%u", p->cluster_size);
	mkfs_cmd_sector_size(p, t, "");
}

/* libblkid 2.38 exports no cluster size: bytes per sector and sectors per cluster from the BPB
 * (the boot sector, @bs: 512 bytes at 0). */
int ntfs_verify_sb(const unsigned char *bs, const char *dev, const struct mkfs_cmd *p,
		   json_t *v)
{
	uint32_t sector, spc, cluster;
	int ret;

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
	ret = verify_expect(dev, "the cluster size", p->cluster_size, cluster);
	if (!ret)
		ret = verify_expect(dev, "the sector size", p->sector_size, sector);
	return ret;
}

/* ntfs-3g ntfsprogs/mkntfs.c (2022.10.3): no option names a file; operands are the device and
 * a sector count. */
static const char *const ntfs_long_arg[] = {
	"cluster-size", "heads", "label", "mft-zone-multiplier", "partition-start", "sector-size",
	"sectors-per-track", NULL,
};
static const char *const ntfs_long_flag[] = {
	"debug", "enable-compression", "fast", "force", "help", "license", "no-action",
	"no-indexing", "quick", "quiet", "verbose", "version", "with-uuid", "zero-time", NULL,
};

const struct mkfs_syntax ntfs_syntax = {
	.shortopts = "-c:CfFhH:IlL:np:qQs:S:TUvVz:",
	.long_arg = ntfs_long_arg,
	.long_flag = ntfs_long_flag,
};

static const struct fs_mkfs ntfs_mkfs = {
	NTFS_MKFS_FIELDS,
	.package = "ntfs-3g",
	.blkid_type = "ntfs",
	.mount_type = "ntfs-3g",
	.mount_helper = "mount.ntfs-3g",
	.fuse_daemon = "ntfs-3g",
	/*
	 * ntfs-3g on Debian 12 (2022.10.3, integrated FUSE 28) still accepts and honours
	 * big_writes: without it the kernel splits buffered writes to the FUSE daemon into
	 * 4 KiB requests.
	 */
	.mount_opts = "noatime,big_writes",
};

/* Windows: Format-Volume -FileSystem NTFS takes allocation units of 4K to 2M. */
static const struct fs_winfmt ntfs_winfmt = {
	.cluster_default = NTFS_CLUSTER_DEFAULT,
	.cluster_min = 4 * KiB,
	.cluster_max = 2 * MiB,
	.cluster_error = "NTFS allocation units are powers of two from 4K to 2M (Exchange: 64K)",
};

/* On Linux through ntfs-3g (FUSE, reading through the page cache), on Windows its own. */
const struct fs_desc fs_ntfs = {
	.name = "ntfs",
	.title = "NTFS",
	.about = "ntfs-3g",
	.flags = FS_F_FUSE | FS_F_PAGE_CACHE,
	.on = { [PREP_LINUX] = PREP_BE_MKFS, [PREP_WINDOWS] = PREP_BE_STORAGE },
	.mkfs = &ntfs_mkfs,
	.win = &ntfs_winfmt,
};
