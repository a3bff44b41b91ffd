// SPDX-License-Identifier: MIT
/*
 * fs_ext4.c: ext4: mkfs.ext4 options from the topology, and its descriptor (verified with
 * libext2fs: verify.c).
 *
 * -b 4096 -E lazy_itable_init=0,lazy_journal_init=0[,stride=S,stripe_width=W]: stride = the
 * RAID chunk in blocks (1 when there is no chunk), stripe_width = the stripe in blocks
 * (topology_stripe()).  mballoc aligns allocations to stripe_width, which is the part that
 * matters.  Never lazy init: no background initialisation during a measurement (verified:
 * every group ITABLE_ZEROED).
 */
#include "lib/base.h"
#include "fsprep/prepP.h"

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

/*
 * e2fsprogs misc/mke2fs.c (1.47): -d populates from a directory or tarball, -l reads a bad
 * blocks list, -z writes an undo file, -J device= formats or joins an external journal.
 */
static const struct mkfs_syntax ext4_syntax = {
	.shortopts = "b:cd:e:g:i:jl:m:no:qr:s:t:vC:DE:FG:I:J:KL:M:N:O:R:ST:U:Vz:",
	.paths = "dlz",
	.subopt_paths = (const char *const[]){ "J:device", NULL },
};

static const struct fs_mkfs ext4_mkfs = {
	.tool = "mkfs.ext4",
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
	.cluster_help = "the block size, 1024, 2048 or 4096 (default 4096)",
	.build = build_ext4,
	.blkid_type = "ext4",
	.libext2fs = true,
	.mount_type = "ext4",
	.mount_opts = "noatime",
};

const struct fs_desc fs_ext4 = {
	.name = "ext4",
	.title = "ext4",
	.on = { [PREP_LINUX] = PREP_BE_MKFS },
	.mkfs = &ext4_mkfs,
};
