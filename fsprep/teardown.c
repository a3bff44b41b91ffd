// SPDX-License-Identifier: MIT
/*
 * teardown.c: undo what a prep record lists, newest first.  The same code rolls back a prep
 * that failed or got a signal and serves `fslab teardown`.  The record (state.c) is trusted
 * only for what prep meant to do; each step acts only on what reality still shows to be prep's
 * own: a mount under the mount root whose source is our loop device
 * (backed by the very image file prep created: device, inode, birth time) or the device prep
 * formatted; loop devices backed by that file; that file itself, not whatever has its name
 * now.  Anything else is left alone, with one line saying what and why.  The record is saved
 * after each step, so running it again, or after a crash of either prep or teardown, finishes
 * the job and touches nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"

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

/*
 * Is the block device @src one this prep made the volume on?  Image mode: a loop device backed
 * by the image file prep created; device mode: the device prep was given (its number).  NULL
 * when it is, else what it is instead (caller frees).
 */
static char *device_not_ours(json_t *v, const char *src)
{
	struct file_id img, back;
	json_t *devno = json_object_get(v, "devno");
	struct stat sb;
	char *path, *why;

	if (stat(src, &sb) || !S_ISBLK(sb.st_mode))
		return xasprintf("%s is not a block device", src);
	if (file_id_from_json(json_object_get(v, "image_id"), &img)) {
		if (loop_backing(src, &back, &path))
			return xasprintf("%s is not a loop device", src);
		why = file_id_same(&back, &img) ? NULL
			: xasprintf("%s is backed by %s, not by the image this prep created", src,
				    path ? path : "another file");
		free(path);
		return why;
	}
	if (json_is_integer(devno) && (uint64_t)json_integer_value(devno) == (uint64_t)sb.st_rdev)
		return NULL;
	return xasprintf("%s is not the device this prep formatted", src);
}

/*
 * Is the prep.json at @path the one this prep wrote?  The record has its identity once it
 * was written; a prep killed between writing it and recording that leaves only the content:
 * fslab-prep/1 for this mount root.  Anything else (replaced, or never ours) stays.
 */
static bool prep_json_is_ours(struct prep_state *st, const char *path)
{
	struct file_id want, have;
	mode_t mode;
	json_t *j;
	bool ours;

	if (file_id_path(path, &have, &mode))
		return false;
	if (!S_ISREG(mode))
		ours = false;
	else if (file_id_from_json(json_object_get(st->j, "prep_json_id"), &want))
		ours = file_id_same(&have, &want);
	else {
		j = json_load_file(path, 0, NULL);
		ours = j && !strcmp(json_string_value(json_object_get(j, "schema")) ?: "",
				    PREP_SCHEMA) &&
		       !strcmp(json_string_value(json_object_get(j, "mount_root")) ?: "", st->root);
		json_decref(j);
	}
	if (!ours)
		fslab_warn("left alone: %s was not written by this prep (or was replaced since)",
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
	char *src = NULL, *why;
	int ret = 0, r;

	if (!m)
		return 0;
	if (!target || !source || !path_under(target, st->root)) {
		if (target)
			fslab_warn("left alone: %s (%s): not inside the mount root %s", target, role,
				   st->root);
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
		why = device_not_ours(v, src);
		if (why) {
			fslab_warn("left alone: %s (%s) has %s mounted: %s", target, role, src, why);
			free(why);
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
	/* a FUSE daemon (ntfs-3g) exits after the unmount; the loop device stays busy until it
	 * has. */
	for (unsigned waited = 0; fuse_daemon_find(source, target); waited += 100) {
		if (waited >= DAEMON_EXIT_WAIT_MS) {
			fslab_err("the FUSE daemon for %s has not exited after the unmount", target);
			return -EBUSY;
		}
		sleep_ms(100);
	}
	json_object_del(v, "mount");
	return save(st, 0);
}

/*
 * Detach the loop devices backed by the image prep created and delete it: by its identity,
 * never by its name alone (another prep's image, or a user's file, may carry the name now).
 */
static int undo_image(struct prep_state *st, json_t *v, bool keep_images)
{
	const char *image = jstr(v, "image");
	struct file_id id, now;
	mode_t mode;
	int ret;

	if (!image)
		return 0;
	if (!file_id_from_json(json_object_get(v, "image_id"), &id)) {
		/* prep stopped before the file existed (or failed to create it: the name may be
		 * another prep's) */
		if (!access(image, F_OK))
			fslab_warn("left alone: %s: this prep stopped before it had created it", image);
		json_object_del(v, "image");
		json_object_del(v, "loop");
		return save(st, 0);
	}
	ret = loop_detach_image(image, &id);
	if (ret)
		return ret;
	json_object_del(v, "loop");
	if (file_id_path(image, &now, &mode)) {
		/* gone already */
	} else if (!S_ISREG(mode) || !file_id_same(&now, &id)) {
		fslab_warn("left alone: %s is not the image this prep created (another file has that name now)",
			   image);
	} else if (keep_images) {
		fslab_info("kept %s (--keep-images)", image);
	} else if (unlink(image) && errno != ENOENT) {
		ret = -errno;
		fslab_err("cannot remove %s: %s", image, strerror(errno));
		return ret;
	} else {
		fslab_info("removed %s", image);
	}
	json_object_del(v, "image");
	json_object_del(v, "image_id");
	return save(st, 0);
}

/* rmdir a directory prep made, if it is still there and empty. */
static int undo_dir(struct prep_state *st, json_t *o, const char *key, const char *dir)
{
	if (!jtrue(o, key) || !dir)
		return 0;
	if (rmdir(dir) && errno != ENOENT) {
		if (errno == ENOTEMPTY || errno == EEXIST)
			fslab_warn("left alone: %s is not empty", dir);
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
		char *mine = cgroup_path_for(st->root);
		int r = strcmp(cg, mine) ? 0 : cgroup_remove(cg);

		if (strcmp(cg, mine))
			fslab_warn("left alone: the cgroup %s is not the one prep makes for %s", cg,
				   st->root);
		free(mine);
		if (r)
			fslab_err("cannot remove the cgroup %s: %s", cg, strerror(-r));
		else
			json_object_del(st->j, "cgroup");
		first_error(&ret, save(st, r));
	}
	for (int i = VOL_NR - 1; i >= 0 && !ret; i--) {
		json_t *v = json_object_get(vols, vol_names[i]);

		if (v) {
			const char *mp = jstr(v, "mountpoint");

			first_error(&ret, undo_image(st, v, keep_images));
			if (mp && path_under(mp, st->root))
				first_error(&ret, undo_dir(st, v, "mountpoint_created", mp));
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
