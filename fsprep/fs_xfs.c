// SPDX-License-Identifier: MIT
/*
 * fs_xfs.c: XFS: mkfs.xfs options from the topology, verification from the
 * superblock, and its descriptor.
 *
 * -b size=4096; -s size=4096 on 4Kn (logical sector 4096; 512e is left to mkfs.xfs, which
 * picks the physical size); -d su=,sw= with su = the RAID chunk, or the whole stripe when
 * there is no chunk (XFS aligns allocations to su, so a one-block su would ask for nothing),
 * sw = stripe / su.
 */
#include <errno.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"

static void build_xfs(struct mkfs_cmd *p, const struct topology *t)
{
	uint64_t chunk, stripe;

	topology_stripe(t, p->block_size, &chunk, &stripe);
	strvec_push(&p->argv, "-b");
	strvec_pushf(&p->argv, "size=%u", p->block_size);
	mkfs_cmd_sector_size(p, t, "size=");
	if (p->nodiscard)
		strvec_push(&p->argv, "-K");
	if (stripe) {
		p->su = (uint32_t)(chunk ? chunk : stripe);
		p->sw = (uint32_t)(stripe / p->su);
		strvec_push(&p->argv, "-d");
		strvec_pushf(&p->argv, "su=%u,sw=%u", p->su, p->sw);
	}
}

/*
 * libblkid 2.38 exports no stripe geometry: sb_blocksize, sb_sectsize, sb_unit and sb_width
 * (big-endian, at their documented offsets), recorded as stride/stripe_width in blocks like
 * xfs_info's sunit/swidth, and as su bytes/sw.
 */
static int verify_xfs(const unsigned char *sb, const char *dev, const struct mkfs_cmd *p,
		      json_t *v)
{
	uint32_t bs, sect, unit, width;
	int ret;

	if (memcmp(sb, "XFSB", 4))
		return -EPROTO;
	bs = get_be32(sb + 4);                        /* sb_blocksize */
	sect = (uint32_t)sb[102] << 8 | sb[103];      /* sb_sectsize */
	unit = get_be32(sb + 184);                    /* sb_unit, in blocks */
	width = get_be32(sb + 188);                   /* sb_width, in blocks */
	json_object_set_new(v, "block_size", json_integer(bs));
	json_object_set_new(v, "cluster_size", json_integer(bs));
	json_object_set_new(v, "sector_size", json_integer(sect));
	json_object_set_new(v, "stride", json_integer(unit));
	json_object_set_new(v, "stripe_width", json_integer(width));
	json_object_set_new(v, "su", json_integer((json_int_t)unit * bs));
	json_object_set_new(v, "sw", json_integer(unit ? width / unit : 0));
	ret = verify_expect(dev, "the block size", p->block_size, bs);
	if (!ret)
		ret = verify_expect(dev, "the sector size", p->sector_size, sect);
	if (!ret)
		ret = verify_expect(dev, "the stripe unit (bytes)", p->su, (uint64_t)unit * bs);
	if (!ret)
		ret = verify_expect(dev, "the stripe width (units)", p->sw, unit ? width / unit : 0);
	return ret;
}

/*
 * xfsprogs mkfs/xfs_mkfs.c (6.1): -l logdev=/-r rtdev= put the log or realtime section on
 * another device, name= of -d/-l/-r names the section's device or file, -c options= reads a
 * config file, -p a prototype file (and the files it lists).
 */
static const struct mkfs_syntax xfs_syntax = {
	.shortopts = "b:c:d:i:l:L:m:n:KNp:qr:s:CfV",
	.paths = "p",
	.subopt_paths = (const char *const[]){ "c:options", "d:name", "l:logdev", "l:name",
						"r:rtdev", "r:name", NULL },
};

static const struct fs_mkfs xfs_mkfs = {
	.tool = "mkfs.xfs",
	.force_flag = "-f",
	.version_flag = "-V",
	.package = "xfsprogs",
	.syntax = &xfs_syntax,
	.min_size = 300 * MiB, /* mkfs.xfs 6.x refuses filesystems under 300 MiB */
	.block_default = 4096,
	.block_min = 1024,     /* v5 (CRC) XFS needs 1024 or more */
	.block_max = 4096,
	.block_pow2 = true,
	.block_error = "xfs block sizes are 1024, 2048 or 4096 bytes (at most the page size)",
	.cluster_help = "the block size, 1024, 2048 or 4096 (default 4096)",
	.build = build_xfs,
	.blkid_type = "xfs",
	.sb_offset = 0,
	.sb_size = 512,
	.verify_sb = verify_xfs,
	.mount_type = "xfs",
	.mount_opts = "noatime",
};

const struct fs_desc fs_xfs = {
	.name = "xfs",
	.title = "XFS",
	.on = { [PREP_LINUX] = PREP_BE_MKFS },
	.mkfs = &xfs_mkfs,
};
