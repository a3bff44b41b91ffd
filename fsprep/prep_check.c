// SPDX-License-Identifier: MIT
/*
 * prep_check.c: everything `fslab prep` checks before it touches anything: the mount root, the
 * images and their directory (locked for the whole prep), the devices (the core's overwrite
 * policy, src/platform/blockdev.c), the mkfs commands, the ntfs-3g cache limit.  No side effects but
 * the image directory's lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/base.h"
#include "platform/blockdev.h"
#include "os/files.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/units.h"

static int check_mount_root(struct prep_ctx *c)
{
	const char *given = c->o->mount_root;

	c->root = abs_path(given);
	if (!c->root)
		return input_error("--mount-root %s: %s; give a directory path", given, strerror(errno));
	if (!strcmp(c->root, "/"))
		return input_error("--mount-root /: give a directory of its own (prep mounts <root>/db and <root>/log)");
	if (path_under(c->root, "/dev") || path_under(c->root, "/proc") || path_under(c->root, "/sys"))
		return input_error("--mount-root %s is inside a kernel filesystem; choose another directory",
				   c->root);
	if (path_exists(c->root) && !os_is_dir(c->root))
		return input_error("--mount-root %s is not a directory; give a directory", c->root);
	if (state_exists(c->root))
		return input_error("%s already holds a prep (recorded in %s); run fslab teardown --mount-root %s first",
				   c->root, PREP_STATE_DIR, c->root);
	/* without a prep state, a prep.json there is not ours to replace (nor teardown's to delete) */
	{
		char *pj = path_join(c->root, PREP_JSON_NAME);
		struct stat st;
		bool stray = !lstat(pj, &st);

		free(pj);
		if (stray)
			return input_error("%s/%s exists but no prep of this mount root wrote it (there is "
					   "no prep state); move it away or choose another --mount-root",
					   c->root, PREP_JSON_NAME);
	}
	/* a backend that mounts nothing (raw) makes no <root>/db, <root>/log (see
	 * prep_print_dry_run()). */
	for (int i = 0; i < VOL_NR && c->be->mount; i++) {
		struct prep_vol *v = &c->vol[i];
		int r;

		v->mountpoint = path_join(c->root, v->role);
		if (!path_exists(v->mountpoint))
			continue;
		if (!os_is_dir(v->mountpoint))
			return input_error("%s exists and is not a directory; remove it or choose another --mount-root",
					   v->mountpoint);
		r = mount_at(v->mountpoint, NULL, NULL, NULL);
		if (r > 0)
			return input_error("something is already mounted on %s; unmount it or choose another --mount-root",
					   v->mountpoint);
		if (!dir_is_empty(v->mountpoint))
			return input_error("%s is not empty; empty it or choose another --mount-root",
					   v->mountpoint);
	}
	return 0;
}

/* Free space where the images go must hold them fully written. */
static int check_image_space(struct prep_ctx *c)
{
	char *dir = xstrdup(c->image_dir), a[32], b[32], d[32], l[32];
	uint64_t need = c->o->image_size[VOL_DB] + c->o->image_size[VOL_LOG], avail;
	struct statvfs vfs;
	int ret = 0;

	while (!os_is_dir(dir) && strrchr(dir, '/') && strrchr(dir, '/') != dir)
		*strrchr(dir, '/') = 0;
	if (!os_is_dir(dir))
		strcpy(dir, "/");
	if (statvfs(dir, &vfs)) {
		ret = input_error("cannot check free space in %s: %s", dir, strerror(errno));
		goto out;
	}
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (avail < need)
		ret = input_error("%s has %s free, the images need %s when fully written (db %s + log %s); free space or give smaller --db-size/--log-size",
				  dir, fmt_size(a, sizeof(a), avail), fmt_size(b, sizeof(b), need),
				  fmt_size(d, sizeof(d), c->o->image_size[VOL_DB]),
				  fmt_size(l, sizeof(l), c->o->image_size[VOL_LOG]));
out:
	free(dir);
	return ret;
}

/*
 * One prep at a time on an image directory: two on one directory would race
 * for db.img.  os_lock_path() is the lock `fslab run` takes on its directories (src/run/lock.c):
 * flock on the directory itself, nothing created, dropped by the kernel when prep ends.
 */
int prep_lock_image_dir(struct prep_ctx *c)
{
	long pid = 0;
	int fd;

	if (c->image_lock >= 0)
		return 0;
	fd = os_lock_path(c->image_dir, &pid);
	if (fd == -EWOULDBLOCK) {
		char who[32] = "pid unknown";

		if (pid)
			snprintf(who, sizeof(who), "pid %ld", pid);
		return input_error("--image-dir %s is in use by another fslab prep (%s); wait for it to finish, or give another directory",
				   c->image_dir, who);
	}
	if (fd < 0)
		return input_error("--image-dir %s: cannot lock it (%s)", c->image_dir, strerror(-fd));
	c->image_lock = fd;
	return 0;
}

static int check_images(struct prep_ctx *c)
{
	const struct prep_opts *o = c->o;
	char a[32], b[32];

	c->image_dir = abs_path(o->image_dir);
	if (!c->image_dir)
		return input_error("--image-dir %s: %s; give a directory path", o->image_dir,
				   strerror(errno));
	if (path_exists(c->image_dir) && !os_is_dir(c->image_dir))
		return input_error("--image-dir %s is not a directory; give a directory", c->image_dir);
	/* held until prep ends: the checks below and the images made later see no other prep */
	if (os_is_dir(c->image_dir)) {
		int ret = prep_lock_image_dir(c);

		if (ret)
			return ret;
	}
	for (int i = 0; i < VOL_NR; i++) {
		struct prep_vol *v = &c->vol[i];
		char *name = xasprintf("%s.img", v->role);
		struct file_id id;
		json_t *loops;
		int n;

		if (v->mountpoint && path_under(c->image_dir, v->mountpoint))
			return input_error("--image-dir %s is inside %s, where the %s volume gets mounted; put the images elsewhere",
					   c->image_dir, v->mountpoint, v->role);
		v->image = path_join(c->image_dir, name);
		free(name);
		v->size = o->image_size[i];
		if (v->size < fs_min_size(o->fs))
			return input_error("--%s-size %s is too small: %s needs at least %s", v->role,
					   fmt_size(a, sizeof(a), v->size), o->fs->name,
					   fmt_size(b, sizeof(b), fs_min_size(o->fs)));
		if (!path_exists(v->image))
			continue;
		if (!o->force)
			return input_error("%s already exists; remove it, run fslab teardown, or pass --force to overwrite it",
					   v->image);
		loops = json_array();
		n = file_id_path(v->image, &id, NULL) ? 0 : loop_find_image(v->image, &id, loops);
		if (n > 0) {
			int r = input_error("%s is attached to %s; detach it first, --force does not override this",
					    v->image, json_string_value(json_array_get(loops, 0)));

			json_decref(loops);
			return r;
		}
		json_decref(loops);
	}
	return check_image_space(c);
}

int prep_build_mkfs(struct prep_ctx *c, struct prep_vol *v)
{
	char *label = xasprintf("fslab-%s", v->role);
	struct mkfs_req r = {
		.fs = c->o->fs,
		.device = v->device,
		.label = label,
		.cluster = c->o->cluster,
		.force = c->o->force,
		.extra = c->o->mkfs_opts,
		/* a new image is allocated before the run: mkfs must not punch it full of holes
		 * that the host filesystem then allocates while a cell measures */
		.nodiscard = v->image != NULL,
	};
	int ret;

	mkfs_cmd_release(&v->mkfs);
	ret = mkfs_cmd_build(&v->mkfs, &v->topo, &r);
	free(label);
	return ret;
}

static int check_devices(struct prep_ctx *c)
{
	const struct prep_opts *o = c->o;
	int ret;

	ret = blockdev_check_pair(o->dev[VOL_DB], "--db-dev", o->dev[VOL_LOG], "--log-dev");
	for (int i = 0; i < VOL_NR && !ret; i++)
		ret = blockdev_check_overwrite(o->dev[i], i == VOL_DB ? "--db-dev" : "--log-dev",
					       fs_min_size(o->fs), o->fs->name, o->force,
					       &c->vol[i].signature);
	for (int i = 0; i < VOL_NR && !ret; i++) {
		struct prep_vol *v = &c->vol[i];

		v->device = realpath(o->dev[i], NULL);
		if (!v->device)
			return input_error("cannot resolve %s: %s", o->dev[i], strerror(errno));
		ret = probe_topology(v->device, &v->topo);
		if (ret)
			return input_error("cannot read the topology of %s: %s", v->device, strerror(-ret));
		v->size = v->topo.size;
	}
	return ret;
}

static void plan_cache_fix(struct prep_ctx *c)
{
	const struct prep_opts *o = c->o;
	char a[32];

	if (!fs_cache_limited(o->fs))
		return;
	if (!o->ntfs_cache_limit) {
		c->cache_fix = json_pack("{s:s, s:s}", "method", "none", "reason",
					 "disabled with --ntfs-cache-limit 0");
		prep_note(c, "ntfs-3g cache fix disabled: ntfs-3g reads the device through the page cache, so measured reads will be inflated");
	} else if (!cgroup_v1_memory_root()) {
		c->cache_fix = json_pack("{s:s, s:s}", "method", "none", "reason",
					 "cgroup v1 memory controller not mounted at /sys/fs/cgroup/memory");
		prep_note(c, "no cgroup v1 memory controller: ntfs-3g runs without a memory limit and its page cache will inflate measured reads");
	} else {
		char *cg = cgroup_path_for(c->root);

		c->cache_fix = json_pack("{s:s, s:I, s:s, s:n}", "method", "cgroup-v1-memory",
					 "limit_bytes", (json_int_t)o->ntfs_cache_limit,
					 "cgroup", cg, "pid");
		free(cg);
		fslab_info("ntfs-3g will run in a memory cgroup limited to %s",
			   fmt_size(a, sizeof(a), o->ntfs_cache_limit));
	}
}

int prep_check(struct prep_ctx *c)
{
	const struct prep_opts *o = c->o;
	int ret;

	ret = format_tool_check(o->fs);
	if (!ret)
		ret = check_mount_root(c);
	if (!ret)
		ret = o->image_dir ? check_images(c) : check_devices(c);
	for (int i = 0; i < VOL_NR && !ret; i++) {
		struct prep_vol *v = &c->vol[i];

		if (o->image_dir) {
			/* Until attached, plan for what a loop device reports here. */
			v->device = xasprintf("/dev/loopN");
			v->topo = (struct topology){ .logical_sector = 512, .physical_sector = 512,
						     .min_io = 512, .size = v->size };
		}
		if (!c->be->plan)
			continue;
		ret = c->be->plan(c, v);
		v->mount_opts = o->mount_opts ? xasprintf("%s,%s", o->fs->mkfs->mount_opts,
							  o->mount_opts) :
						xstrdup(o->fs->mkfs->mount_opts);
	}
	if (ret)
		return ret;
	/* Only now that every check passed, so that a refusal stays one line. */
	for (int i = 0; i < VOL_NR; i++)
		if (c->vol[i].signature)
			fslab_warn("%s (--%s-dev) holds %s; --force: it will be wiped",
				   o->dev[i], c->vol[i].role, c->vol[i].signature);
	plan_cache_fix(c);
	if (o->fs->notes)
		json_array_append_new(c->notes, json_string(o->fs->notes));
	return 0;
}
