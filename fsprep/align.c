// SPDX-License-Identifier: MIT
/*
 * align.c: device topology -> mkfs command line, the part common to every filesystem: the
 * block size from --cluster and the descriptor's rules, the tool and its force flag, the
 * label, --mkfs-opts and the device around the options the descriptor's builder adds
 * (fs_<name>.c).  Pure (no I/O), so the alignment rules are unit-tested with made-up
 * topologies (tests/unit/test_align.c).
 *
 * Stripe geometry: opt_io is the stripe (full-width) size, min_io the chunk on one member.
 * Both are used only when opt_io is a multiple of the block size, larger than one block and
 * at most TOPO_MAX_GRAIN (values like 33553920 from USB bridges are noise); min_io counts as
 * a chunk only when it is larger than a block and divides opt_io.  How a filesystem states
 * them (ext4 stride/stripe_width, XFS su/sw) is up to its builder.
 * Sector size: 4Kn devices (logical sector 4096) get "-s" (mkfs_cmd_sector_size()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

uint64_t topology_grain(const struct topology *t)
{
	uint64_t g = MAX(MAX(t->physical_sector, t->min_io), (uint64_t)4096);

	if (t->opt_io && t->opt_io % g == 0 && t->opt_io <= TOPO_MAX_GRAIN)
		g = t->opt_io;
	return g;
}

bool topology_aligned(const struct topology *t)
{
	return t->alignment_offset == 0 && t->partition_start % topology_grain(t) == 0;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Block (or NTFS cluster) size from --cluster, checked against what the filesystem takes. */
static int pick_block_size(const struct mkfs_req *r, const struct topology *t, uint32_t *bs)
{
	const struct fs_mkfs *fs = r->fs->mkfs;
	uint64_t v = r->cluster ? r->cluster : fs->block_default;

	if ((fs->block_pow2 && !is_pow2(v)) || v < fs->block_min || v > fs->block_max)
		return input_error("--cluster %llu: %s", (unsigned long long)v, fs->block_error);
	if (t->logical_sector && v < t->logical_sector)
		return input_error("--cluster %llu: smaller than the %llu-byte logical sector of %s; use at least %llu",
				   (unsigned long long)v, (unsigned long long)t->logical_sector,
				   r->device, (unsigned long long)t->logical_sector);
	*bs = (uint32_t)v;
	return 0;
}

void topology_stripe(const struct topology *t, uint32_t bs, uint64_t *chunk, uint64_t *stripe)
{
	*chunk = *stripe = 0;
	if (t->opt_io <= bs || t->opt_io % bs || t->opt_io > TOPO_MAX_GRAIN)
		return;
	*stripe = t->opt_io;
	if (t->min_io > bs && t->min_io % bs == 0 && t->opt_io % t->min_io == 0)
		*chunk = t->min_io;
}

/* 4Kn devices: state the sector size (-s) rather than leave it to the tool's probing. */
void mkfs_cmd_sector_size(struct mkfs_cmd *p, const struct topology *t, const char *prefix)
{
	if (t->logical_sector <= 512)
		return;
	p->sector_size = (uint32_t)t->logical_sector;
	strvec_push(&p->argv, "-s");
	strvec_pushf(&p->argv, "%s%u", prefix, p->sector_size);
}

int mkfs_cmd_build(struct mkfs_cmd *p, const struct topology *t, const struct mkfs_req *r)
{
	uint32_t bs = 0;
	int ret;

	memset(p, 0, sizeof(*p));
	strvec_init(&p->argv);
	/* raw (and any descriptor without a builder) has no mkfs command to derive. */
	if (!r->fs->mkfs || !r->fs->mkfs->build)
		return input_error("--fs %s: no filesystem is made, so there is no mkfs command to plan",
				   r->fs->name);
	ret = pick_block_size(r, t, &bs);
	if (ret)
		return ret;
	p->aligned = topology_aligned(t);
	p->block_size = p->cluster_size = bs;

	strvec_push(&p->argv, r->fs->mkfs->tool);
	if (r->force)
		strvec_push(&p->argv, r->fs->mkfs->force_flag);
	p->nodiscard = r->nodiscard;
	r->fs->mkfs->build(p, t);
	strvec_push(&p->argv, "-L");
	strvec_push(&p->argv, r->label);
	if (r->extra) {
		char *copy = xstrdup(r->extra), *save = NULL;
		char *why = mkfs_opts_problem(r->fs->mkfs->syntax, r->fs->mkfs->tool, r->extra);
		size_t before = p->argv.nr;

		/* decided in docs/PREP.md "--mkfs-opts naming devices or files": refused, not
		 * checked like --db-dev (one option string goes to both volumes) */
		if (why) {
			ret = input_error("--mkfs-opts \"%s\": %s; prep formats only the devices it checked, and refuses mkfs options that name another: drop it",
					  r->extra, why);
			free(why);
			free(copy);
			mkfs_cmd_release(p);
			return ret;
		}

		for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
			strvec_push(&p->argv, w);
		free(copy);
		if (p->argv.nr == before) {
			mkfs_cmd_release(p);
			return input_error("--mkfs-opts is blank; give options or leave it out");
		}
	}
	strvec_push(&p->argv, r->device);
	return 0;
}

void mkfs_cmd_release(struct mkfs_cmd *p)
{
	strvec_clear(&p->argv);
	memset(p, 0, sizeof(*p));
	strvec_init(&p->argv);
}

char *mkfs_cmd_line(const struct mkfs_cmd *p)
{
	struct strbuf sb = STRBUF_INIT;

	if (p->argv.nr)
		strbuf_add_argv_sq(&sb, p->argv.v);
	return strbuf_detach(&sb, NULL);
}
