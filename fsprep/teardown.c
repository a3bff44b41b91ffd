// SPDX-License-Identifier: MIT
/*
 * teardown.c: undo what a prep record lists, newest first.  The same code rolls back a prep
 * that failed or got a signal and serves `fslab teardown`.  Each step looks at reality first
 * (is it still mounted, and by our device? which loop devices are backed by our image?) and
 * the record is saved after each step, so running it again, or after a crash of either prep
 * or teardown, finishes the job and touches nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsprep/prepP.h"

#define DAEMON_EXIT_WAIT_MS 15000
#define UMOUNT_TRIES 25 /* 200 ms apart while busy */

static const char *jstr(json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static bool jtrue(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* Same block device?  Mount tables show canonical names, records may hold symlinks. */
static bool same_device(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!a || !b)
		return false;
	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode) &&
	       sa.st_rdev == sb.st_rdev;
}

/*
 * Is the prep.json at @path the one this prep wrote?  The record has its inode number once it
 * was written; a prep killed between writing it and recording that leaves only the content:
 * fslab-prep/1 for this mount root.  Anything else (replaced, or never ours) stays.
 */
static bool prep_json_is_ours(struct prep_state *st, const char *path)
{
	json_t *ino = json_object_get(st->j, "prep_json_ino"), *j;
	struct stat sb;
	bool ours;

	if (lstat(path, &sb))
		return false;
	if (!S_ISREG(sb.st_mode))
		ours = false;
	else if (json_is_integer(ino))
		ours = (json_int_t)sb.st_ino == json_integer_value(ino);
	else {
		j = json_load_file(path, 0, NULL);
		ours = j && !strcmp(json_string_value(json_object_get(j, "schema")) ?: "",
				    PREP_SCHEMA) &&
		       !strcmp(json_string_value(json_object_get(j, "mount_root")) ?: "", st->root);
		json_decref(j);
	}
	if (!ours)
		fslab_warn("%s was not written by this prep (or was replaced since): left in place",
			   path);
	return ours;
}

static int save(struct prep_state *st, int ret)
{
	int r = state_save(st);

	if (r)
		fslab_err("cannot update %s: %s", st->path, strerror(-r));
	return ret ? ret : r;
}

/* Unmount what the record says prep mounted (or was about to), then wait for ntfs-3g. */
static int undo_mount(struct prep_state *st, json_t *v, const char *role)
{
	json_t *m = json_object_get(v, "mount");
	const char *target = jstr(m, "target"), *source = jstr(m, "source");
	char *src = NULL;
	int ret = 0, r;

	if (!m)
		return 0;
	if (!target || !source) {
		json_object_del(v, "mount");
		return save(st, 0);
	}
	/* Loop: the same device may be mounted there more than once, and a just-finished
	 * user can keep a FUSE mount busy for a moment. */
	for (int tries = 0; tries < UMOUNT_TRIES; tries++) {
		r = mount_at(target, &src, NULL, NULL);
		if (r <= 0) {
			ret = r;
			break;
		}
		if (!same_device(src, source)) {
			fslab_warn("%s (%s) has %s mounted, not %s: not prep's, left alone", target,
				   role, src, source);
			break;
		}
		free(src);
		src = NULL;
		r = umount_target(target);
		if (!r) {
			fslab_info("unmounted %s (%s)", target, role);
			continue;
		}
		if (r == -EBUSY && tries + 1 < UMOUNT_TRIES) {
			sleep_ms(200);
			continue;
		}
		if (r == -EBUSY)
			fslab_err("%s is busy; stop whatever uses it (fuser -vm %s), then run fslab teardown --mount-root %s again",
				  target, target, st->root);
		else
			fslab_err("unmounting %s failed: %s", target, strerror(-r));
		ret = r;
		break;
	}
	free(src);
	if (ret)
		return ret;
	/* ntfs-3g exits after the unmount; the loop device stays busy until it has. */
	for (unsigned waited = 0; ntfs_daemon_find(source, target); waited += 100) {
		if (waited >= DAEMON_EXIT_WAIT_MS) {
			fslab_err("the ntfs-3g process for %s has not exited after the unmount", target);
			return -EBUSY;
		}
		sleep_ms(100);
	}
	json_object_del(v, "mount");
	return save(st, 0);
}

static int undo_image(struct prep_state *st, json_t *v, bool keep_images)
{
	const char *image = jstr(v, "image");
	int ret;

	if (!image)
		return 0;
	ret = loop_detach_image(image);
	if (ret)
		return ret;
	json_object_del(v, "loop");
	if (!keep_images) {
		if (unlink(image) && errno != ENOENT) {
			ret = -errno;
			fslab_err("cannot remove %s: %s", image, strerror(errno));
			return ret;
		}
		fslab_info("removed %s", image);
	} else {
		fslab_info("kept %s (--keep-images)", image);
	}
	json_object_del(v, "image");
	return save(st, 0);
}

/* rmdir a directory prep made, if it is still there and empty. */
static int undo_dir(struct prep_state *st, json_t *o, const char *key, const char *dir)
{
	if (!jtrue(o, key) || !dir)
		return 0;
	if (rmdir(dir) && errno != ENOENT) {
		if (errno == ENOTEMPTY || errno == EEXIST)
			fslab_warn("%s is not empty: left in place", dir);
		else
			fslab_warn("cannot remove %s: %s", dir, strerror(errno));
	}
	json_object_del(o, key);
	return save(st, 0);
}

static void first_error(int *ret, int r)
{
	if (r && !*ret)
		*ret = r;
}

int prep_undo(struct prep_state *st, bool keep_images)
{
	json_t *vols = json_object_get(st->j, "volumes");
	const char *cg = jstr(st->j, "cgroup");
	int ret = 0;

	for (int i = VOL_NR - 1; i >= 0; i--) {
		json_t *v = json_object_get(vols, vol_names[i]);

		if (v)
			first_error(&ret, undo_mount(st, v, vol_names[i]));
	}
	if (cg && !ret) {
		int r = cgroup_remove(cg);

		if (r)
			fslab_err("cannot remove the cgroup %s: %s", cg, strerror(-r));
		else
			json_object_del(st->j, "cgroup");
		first_error(&ret, save(st, r));
	}
	for (int i = VOL_NR - 1; i >= 0 && !ret; i--) {
		json_t *v = json_object_get(vols, vol_names[i]);

		if (v) {
			first_error(&ret, undo_image(st, v, keep_images));
			first_error(&ret, undo_dir(st, v, "mountpoint_created", jstr(v, "mountpoint")));
		}
	}
	if (ret)
		return ret;
	if (!keep_images)
		first_error(&ret, undo_dir(st, st->j, "image_dir_created", jstr(st->j, "image_dir")));
	if (jtrue(st->j, "prep_json")) {
		char *p = path_join(st->root, PREP_JSON_NAME);

		if (prep_json_is_ours(st, p) && unlink(p) && errno != ENOENT)
			first_error(&ret, -errno);
		free(p);
		json_object_del(st->j, "prep_json");
	}
	if (ret)
		return save(st, ret);
	ret = state_destroy(st);
	if (!ret && jtrue(st->j, "created_root") && rmdir(st->root) && errno != ENOENT &&
	    errno != ENOTEMPTY && errno != EEXIST)
		fslab_warn("cannot remove %s: %s", st->root, strerror(errno));
	return ret;
}
