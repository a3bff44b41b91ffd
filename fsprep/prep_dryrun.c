// SPDX-License-Identifier: MIT
/*
 * prep_dryrun.c: the plan `fslab prep --dry-run` prints once every check passed: images and
 * loop devices, each device's topology, discard and wipe, the exact mkfs command and the
 * verification method, the cgroup, mkdirs and mounts with their options and helpers.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fsprep/prepP.h"
#include "lib/units.h"

static void print_topology(const struct prep_ctx *c, const struct prep_vol *v)
{
	const struct topology *t = &v->topo;

	printf("  %-4s %s: logical sector %llu, physical sector %llu, min I/O %llu, optimal I/O %llu, alignment offset %llu, partition start %llu (%s)%s\n",
	       v->role, v->device, (unsigned long long)t->logical_sector,
	       (unsigned long long)t->physical_sector, (unsigned long long)t->min_io,
	       (unsigned long long)t->opt_io, (unsigned long long)t->alignment_offset,
	       (unsigned long long)t->partition_start,
	       topology_aligned(t) ? "aligned" : "NOT aligned",
	       !v->image ? "" : !c->be->plan ? "; assumed until attached" :
	       "; assumed until attached, mkfs options follow the real one");
}

void prep_print_dry_run(const struct prep_ctx *c)
{
	const struct prep_opts *o = c->o;
	const char *cg = json_string_value(json_object_get(c->cache_fix, "cgroup"));
	char a[32];

	printf("fslab prep --dry-run: nothing is changed.  Plan for %s:\n", o->fs->name);
	printf("  mkdir -p %s\n  record state in %s/ (root's only)\n", c->root, PREP_STATE_DIR);
	if (c->image_dir)
		printf("  lock %s for this prep (flock: one prep per image directory)\n", c->image_dir);
	for (int i = 0; i < VOL_NR; i++) {
		const struct prep_vol *v = &c->vol[i];

		if (!v->image)
			continue;
		printf("  %-4s create %s (%s, allocated%s)%s\n", v->role, v->image,
		       fmt_size(a, sizeof(a), v->size), strcmp(v->role, "log") ? "" :
		       " and written once with zeros", path_exists(v->image) ? ", replacing it "
		       "(--force)" : "");
		printf("  %-4s attach %s to a free loop device (/dev/loopN) with direct I/O\n",
		       v->role, v->image);
	}
	for (int i = 0; i < VOL_NR; i++) {
		const struct prep_vol *v = &c->vol[i];
		char *cmd;

		print_topology(c, v);
		if (v->image)
			printf("  %-4s no discard (a new allocated image)\n", v->role);
		else
			printf("  %-4s discard %s (BLKDISCARD, whole device)\n", v->role, v->device);
		if (v->signature)
			printf("  %-4s wipe %s on %s (--force)\n", v->role, v->signature, v->device);
		if (!c->be->format)
			continue;
		cmd = mkfs_cmd_line(&v->mkfs);
		printf("  %-4s %s\n", v->role, cmd);
		printf("  %-4s verify with %s\n", v->role, fs_verify_method(o->fs));
		free(cmd);
	}
	if (cg)
		printf("  cgroup %s with memory.limit_in_bytes %llu; %s is started inside it\n",
		       cg, (unsigned long long)o->ntfs_cache_limit, o->fs->mkfs->fuse_daemon);
	/*
	 * raw: no <root>/db and <root>/log either.  An empty directory there would let
	 * `fslab run --db <root>/db` measure the mount root's filesystem and call it the
	 * baseline; without it that mistake fails at once.
	 */
	if (!c->be->mount)
		printf("  no mkfs, no mount (%s): fslab run --db DEV --log DEV uses the devices\n",
		       o->fs->name);
	for (int i = 0; i < VOL_NR && c->be->mount; i++) {
		const struct prep_vol *v = &c->vol[i];

		printf("  %-4s mkdir %s\n", v->role, v->mountpoint);
		printf("  %-4s mount -t %s -o %s %s %s", v->role, o->fs->mkfs->mount_type,
		       v->mount_opts, v->device, v->mountpoint);
		if (o->fs->mkfs->mount_helper)
			printf("   (libmount runs %s)", o->fs->mkfs->mount_helper);
		printf("\n");
	}
	printf("  write %s/%s\n", c->root, PREP_JSON_NAME);
}
