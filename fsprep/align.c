// SPDX-License-Identifier: MIT
/*
 * align.c: device topology -> mkfs command line.  Pure (no I/O), so the alignment rules are
 * unit-tested with made-up topologies (tests/unit/test_align.c).
 *
 * Stripe geometry: opt_io is the stripe (full-width) size, min_io the chunk on one member.
 * Both are used only when opt_io is a multiple of the block size, larger than one block and
 * at most TOPO_MAX_GRAIN (values like 33553920 from USB bridges are noise); min_io counts as
 * a chunk only when it is larger than a block and divides opt_io.
 *  - ext4: stride = chunk in blocks (1 when there is no chunk), stripe_width = stripe in
 *    blocks.  mballoc aligns allocations to stripe_width, which is the part that matters.
 *  - XFS: su = chunk, or the whole stripe when there is no chunk, sw = stripe / su.  XFS
 *    aligns allocations to su, so a one-block su would ask for nothing.
 * Sector size: 4Kn devices (logical sector 4096) get XFS -s size=4096 and mkntfs -s 4096.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fsprep/prepP.h"

#define NTFS_CLUSTER_DEFAULT (64 * KiB) /* Exchange's recommendation for database volumes */
#define BLOCK_DEFAULT 4096

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

/* argv_take - append @s, taking ownership of it. */
static void argv_take(struct mkfs_plan *p, char *s)
{
	p->argv = xrealloc(p->argv, (p->argc + 2) * sizeof(*p->argv));
	p->argv[p->argc++] = s;
	p->argv[p->argc] = NULL;
}

static void argv_push(struct mkfs_plan *p, const char *s)
{
	argv_take(p, xstrdup(s));
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Block (or NTFS cluster) size from --cluster, checked against what the filesystem takes. */
static int pick_block_size(const struct mkfs_req *r, const struct topology *t, uint32_t *bs)
{
	const char *fs = r->fs->name;
	uint64_t v;

	if (r->fs->kind == FS_NTFS) {
		v = r->cluster ? r->cluster : NTFS_CLUSTER_DEFAULT;
		if (!is_pow2(v) || v < 512 || v > 64 * KiB)
			return input_error("--cluster %llu: NTFS clusters are a power of two from 512 to 65536 bytes",
					   (unsigned long long)v);
	} else {
		v = r->cluster ? r->cluster : BLOCK_DEFAULT;
		if (r->fs->kind == FS_BTRFS && v != 4096)
			return input_error("--cluster %llu: btrfs here takes only a 4096-byte sector size (the page size); leave --cluster out",
					   (unsigned long long)v);
		if (!is_pow2(v) || v < 1024 || v > 4096)
			return input_error("--cluster %llu: %s block sizes are 1024, 2048 or 4096 bytes (at most the page size)",
					   (unsigned long long)v, fs);
	}
	if (t->logical_sector && v < t->logical_sector)
		return input_error("--cluster %llu: smaller than the %llu-byte logical sector of %s; use at least %llu",
				   (unsigned long long)v, (unsigned long long)t->logical_sector,
				   r->device, (unsigned long long)t->logical_sector);
	*bs = (uint32_t)v;
	return 0;
}

/* Stripe geometry in bytes (see the top of the file); both 0 when the topology says nothing. */
static void stripe_geometry(const struct topology *t, uint32_t bs, uint64_t *chunk,
			    uint64_t *stripe)
{
	*chunk = *stripe = 0;
	if (t->opt_io <= bs || t->opt_io % bs || t->opt_io > TOPO_MAX_GRAIN)
		return;
	*stripe = t->opt_io;
	if (t->min_io > bs && t->min_io % bs == 0 && t->opt_io % t->min_io == 0)
		*chunk = t->min_io;
}

/* 4Kn devices: state the sector size (-s) rather than leave it to the tool's probing. */
static void sector_size_opt(struct mkfs_plan *p, const struct topology *t, const char *prefix)
{
	if (t->logical_sector <= 512)
		return;
	p->sector_size = (uint32_t)t->logical_sector;
	argv_push(p, "-s");
	argv_take(p, xasprintf("%s%u", prefix, p->sector_size));
}

static void build_ext4(struct mkfs_plan *p, const struct topology *t)
{
	uint64_t chunk, stripe;

	stripe_geometry(t, p->block_size, &chunk, &stripe);
	argv_push(p, "-b");
	argv_take(p, xasprintf("%u", p->block_size));
	argv_push(p, "-E");
	if (stripe) {
		p->stride = chunk ? (uint32_t)(chunk / p->block_size) : 1;
		p->stripe_width = (uint32_t)(stripe / p->block_size);
		/* No lazy inode-table or journal initialisation: nothing runs during a measurement. */
		argv_take(p, xasprintf("lazy_itable_init=0,lazy_journal_init=0,stride=%u,stripe_width=%u",
				       p->stride, p->stripe_width));
	} else {
		argv_push(p, "lazy_itable_init=0,lazy_journal_init=0");
	}
}

static void build_xfs(struct mkfs_plan *p, const struct topology *t)
{
	uint64_t chunk, stripe;

	stripe_geometry(t, p->block_size, &chunk, &stripe);
	argv_push(p, "-b");
	argv_take(p, xasprintf("size=%u", p->block_size));
	sector_size_opt(p, t, "size=");
	if (stripe) {
		p->su = (uint32_t)(chunk ? chunk : stripe);
		p->sw = (uint32_t)(stripe / p->su);
		argv_push(p, "-d");
		argv_take(p, xasprintf("su=%u,sw=%u", p->su, p->sw));
	}
}

static void build_ntfs(struct mkfs_plan *p, const struct topology *t)
{
	/* -Q: quick format; the device was discarded just before, zeroing it again is waste. */
	argv_push(p, "-Q");
	argv_push(p, "-c");
	argv_take(p, xasprintf("%u", p->cluster_size));
	sector_size_opt(p, t, "");
}

static void build_btrfs(struct mkfs_plan *p, const struct topology *t)
{
	(void)t;
	/* Default profiles (data single, metadata DUP): what btrfs users get; see docs/PREP.md. */
	argv_push(p, "-s");
	argv_take(p, xasprintf("%u", p->block_size));
}

/* The filesystem-specific options, in enum fs_kind order. */
static void (*const builders[])(struct mkfs_plan *p, const struct topology *t) = {
	[FS_EXT4] = build_ext4,
	[FS_XFS] = build_xfs,
	[FS_NTFS] = build_ntfs,
	[FS_BTRFS] = build_btrfs,
};

int mkfs_plan_build(struct mkfs_plan *p, const struct topology *t, const struct mkfs_req *r)
{
	uint32_t bs = 0;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = pick_block_size(r, t, &bs);
	if (ret)
		return ret;
	p->aligned = topology_aligned(t);
	p->block_size = p->cluster_size = bs;

	argv_push(p, r->fs->mkfs);
	if (r->force)
		argv_push(p, r->fs->force_flag);
	builders[r->fs->kind](p, t);
	argv_push(p, "-L");
	argv_push(p, r->label);
	if (r->extra) {
		char *copy = xstrdup(r->extra), *save = NULL;
		size_t before = p->argc;

		for (char *w = strtok_r(copy, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
			argv_push(p, w);
		free(copy);
		if (p->argc == before) {
			mkfs_plan_release(p);
			return input_error("--mkfs-opts is blank; give options or leave it out");
		}
	}
	argv_push(p, r->device);
	return 0;
}

void mkfs_plan_release(struct mkfs_plan *p)
{
	for (size_t i = 0; i < p->argc; i++)
		free(p->argv[i]);
	free(p->argv);
	memset(p, 0, sizeof(*p));
}

char *argv_join(char *const *argv)
{
	size_t cap = 64, len = 0;
	char *s = xmalloc(cap);

	s[0] = 0;
	for (size_t i = 0; argv[i]; i++) {
		bool quote = !argv[i][0] || strpbrk(argv[i], " \t\n'\"\\$`;&|<>*?()[]{}!#~");
		size_t need = strlen(argv[i]) * 4 + 4;

		if (len + need >= cap) {
			cap = (len + need) * 2;
			s = xrealloc(s, cap);
		}
		if (i)
			s[len++] = ' ';
		if (quote)
			s[len++] = '\'';
		for (const char *c = argv[i]; *c; c++) {
			if (*c == '\'') {
				memcpy(s + len, "'\\''", 4);
				len += 4;
			} else {
				s[len++] = *c;
			}
		}
		if (quote)
			s[len++] = '\'';
		s[len] = 0;
	}
	return s;
}
