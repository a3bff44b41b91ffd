// SPDX-License-Identifier: MIT
/*
 * state.c: the crash-proof record of what a prep created, kept where only root on this machine
 * can write: /var/lib/fslab/prep-state/<escaped mount root>.json (directory 0700, files 0600,
 * both root's; on persistent storage like the images, so `fslab teardown` works after kill -9
 * and after a reboot).  Teardown acts only on such a record: a state file in
 * a mount root, where a user or a copied lab directory can put anything, is never read.  A
 * record is refused when its file or directory could have been written by someone else, when
 * it was made for another mount root, or on another machine (/etc/machine-id).  Every save is
 * atomic (temporary file, fsync, rename).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "platform/sysfs.h"

static char *record_path(const char *root)
{
	char *name = escape_name(root), *p = xasprintf("%s/%s.json", PREP_STATE_DIR, name);

	free(name);
	return p;
}

/* This machine: /etc/machine-id (systemd, dbus), or NULL where there is none (the test VM). */
static const char *machine_id(void)
{
	static char id[64];

	if (!id[0] && read_line_file("/etc/machine-id", id, sizeof(id)))
		id[0] = 0;
	return id[0] ? id : NULL;
}

/* Could anyone but root have written @path?  The reason, or NULL when only root could. */
static const char *untrusted(const char *path, bool dir)
{
	struct stat sb;

	if (lstat(path, &sb))
		return "cannot be read";
	if (dir ? !S_ISDIR(sb.st_mode) : !S_ISREG(sb.st_mode))
		return dir ? "is not a directory" : "is not a regular file";
	if (sb.st_uid != 0)
		return "is not owned by root";
	if (sb.st_mode & 022)
		return "is writable by others than root";
	return NULL;
}

/* The record directory, created 0700 if missing; -EPERM after saying why when it is not
 * root's alone. */
static int state_dir(bool create)
{
	const char *why;
	int ret;

	if (create) {
		ret = mkdir_p(PREP_STATE_BASE, 0755);
		if (!ret && mkdir(PREP_STATE_DIR, 0700) && errno != EEXIST)
			ret = -errno;
		if (ret)
			return ret;
	} else if (access(PREP_STATE_DIR, F_OK)) {
		return -ENOENT;
	}
	why = untrusted(PREP_STATE_DIR, true);
	if (why) {
		fslab_err("%s %s: its prep records cannot be trusted; make it root's, mode 0700", PREP_STATE_DIR,
			  why);
		return -EPERM;
	}
	return 0;
}

static int save_json(const char *path, json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	size_t len = s ? strlen(s) : 0;
	int fd, ret = 0;

	if (!s) {
		free(tmp);
		return -ENOMEM;
	}
	/* a temporary file left by a killed process that had our pid */
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	for (size_t done = 0; done < len && !ret;) {
		ssize_t n = write(fd, s + done, len - done);

		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
	} else {
		int d = open(PREP_STATE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (d >= 0) {
			fsync(d);
			close(d);
		}
	}
out:
	free(tmp);
	free(s);
	return ret;
}

int state_create(struct prep_state *st, const char *root)
{
	int fd, ret;

	memset(st, 0, sizeof(*st));
	ret = state_dir(true);
	if (ret)
		return ret;
	st->root = xstrdup(root);
	st->path = record_path(root);
	/* O_EXCL: two preps on one mount root cannot both own it. */
	fd = open(st->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		state_release(st);
		return ret;
	}
	close(fd);
	st->j = json_pack("{s:s, s:s, s:i, s:o}", "schema", PREP_STATE_SCHEMA, "mount_root", root,
			  "pid", (int)getpid(), "volumes", json_object());
	json_object_set_new(st->j, "machine_id", machine_id() ? json_string(machine_id()) :
				    json_null());
	ret = state_save(st);
	if (!ret)
		return 0;
	unlink(st->path);
	state_release(st);
	return ret;
}

/* The record at @path, checked; -EPERM after saying what is left alone and why. */
static int load_checked(struct prep_state *st, const char *root)
{
	const char *why = untrusted(st->path, false), *mid;
	json_error_t err;
	char *buf = NULL;
	size_t len;
	int ret;

	if (why) {
		fslab_warn("left alone: %s %s, so it is no record of fslab prep", st->path, why);
		return -EPERM;
	}
	ret = read_file(st->path, &buf, &len);
	if (ret)
		return ret;
	if (!len) {
		/* Killed between creating the record and its first save: nothing else was done. */
		free(buf);
		return -ENODATA;
	}
	st->j = json_loadb(buf, len, 0, &err);
	free(buf);
	if (!st->j || !json_is_object(st->j) ||
	    strcmp(json_string_value(json_object_get(st->j, "schema")) ?: "", PREP_STATE_SCHEMA)) {
		fslab_warn("left alone: %s is not a prep record of this fslab (%s); remove what it lists by hand",
			   st->path, st->j ? "another schema" : err.text);
		return -EPERM;
	}
	if (strcmp(json_string_value(json_object_get(st->j, "mount_root")) ?: "", root)) {
		fslab_warn("left alone: %s records mount root %s, not %s", st->path,
			   json_string_value(json_object_get(st->j, "mount_root")) ?: "(none)", root);
		return -EPERM;
	}
	mid = json_string_value(json_object_get(st->j, "machine_id"));
	if (mid && machine_id() && strcmp(mid, machine_id())) {
		fslab_warn("left alone: %s was made on another machine (machine-id %s, this is %s): nothing it lists is this machine's to remove",
			   st->path, mid, machine_id());
		return -EPERM;
	}
	if (!json_is_object(json_object_get(st->j, "volumes")))
		json_object_set_new(st->j, "volumes", json_object());
	return 0;
}

int state_load(struct prep_state *st, const char *root)
{
	int ret;

	memset(st, 0, sizeof(*st));
	ret = state_dir(false);
	if (ret)
		return ret;
	st->root = xstrdup(root);
	st->path = record_path(root);
	if (access(st->path, F_OK)) {
		ret = -errno;
		state_release(st);
		return ret;
	}
	ret = load_checked(st, root);
	if (ret && ret != -ENODATA) {
		state_release(st);
		return ret;
	}
	return ret;
}

int state_save(struct prep_state *st)
{
	return save_json(st->path, st->j);
}

json_t *state_vol(struct prep_state *st, const char *role)
{
	json_t *vols = json_object_get(st->j, "volumes"), *v = json_object_get(vols, role);

	if (!v) {
		v = json_object();
		json_object_set_new(vols, role, v);
	}
	return v;
}

int state_destroy(struct prep_state *st)
{
	return unlink(st->path) && errno != ENOENT ? -errno : 0;
}

void state_release(struct prep_state *st)
{
	json_decref(st->j);
	free(st->root);
	free(st->path);
	memset(st, 0, sizeof(*st));
}

bool state_exists(const char *root)
{
	char *p = record_path(root);
	bool e = access(p, F_OK) == 0;

	free(p);
	return e;
}

int state_registry_roots(json_t *roots)
{
	DIR *d;
	struct dirent *e;
	int ret = state_dir(false);

	if (ret)
		return ret == -ENOENT ? 0 : ret;
	d = opendir(PREP_STATE_DIR);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *path, *buf = NULL;
		json_t *j;
		size_t len;

		if (e->d_name[0] == '.' || n < 6 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		path = path_join(PREP_STATE_DIR, e->d_name);
		if (!untrusted(path, false) && !read_file(path, &buf, &len)) {
			j = json_loadb(buf, len, 0, NULL);
			if (json_is_string(json_object_get(j, "mount_root")))
				json_array_append(roots, json_object_get(j, "mount_root"));
			json_decref(j);
		}
		free(buf);
		free(path);
	}
	closedir(d);
	return 0;
}

void state_legacy_note(const char *root)
{
	char *p = root ? path_join(root, PREP_LEGACY_STATE_NAME) : NULL;

	if (p && !access(p, F_OK))
		fslab_warn("left alone: %s is not a record of this machine (fslab keeps them in %s): nothing it lists is touched",
			   p, PREP_STATE_DIR);
	free(p);
	if (root) {
		char *name = escape_name(root), *reg = xasprintf("%s/%s.json", PREP_LEGACY_REGISTRY, name);

		if (!access(reg, F_OK))
			fslab_warn("left alone: %s names a prep of an older fslab, whose record lies in the mount root where anyone could have changed it; tear it down with that fslab, or by hand",
				   reg);
		free(name);
		free(reg);
	}
}
