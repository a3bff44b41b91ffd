// SPDX-License-Identifier: MIT
/*
 * state.c: the crash-proof record of what a prep created.  The record lives in the mount root
 * (<root>/.fslab-prep-state.json: next to what it describes, on persistent storage like the
 * images, so `fslab teardown --mount-root` works after kill -9 and after a reboot); a one-line
 * entry under /var/lib/fslab/preps/ lets `fslab teardown` without --mount-root find them all.
 * Every save is atomic (temporary file, fsync, rename).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsprep/prepP.h"

static char *registry_entry(const char *root)
{
	char *name = escape_name(root), *p = xasprintf("%s/%s.json", STATE_REGISTRY, name);

	free(name);
	return p;
}

static void state_paths(struct prep_state *st, const char *root)
{
	st->root = xstrdup(root);
	st->path = path_join(root, STATE_NAME);
	st->reg = registry_entry(root);
}

static int save_json(const char *path, json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	int ret;

	if (!s)
		return -ENOMEM;
	ret = write_file_atomic(path, s, strlen(s));
	free(s);
	return ret;
}

int state_create(struct prep_state *st, const char *root)
{
	json_t *reg;
	int fd, ret;

	memset(st, 0, sizeof(*st));
	state_paths(st, root);
	/* O_EXCL: two preps on one mount root cannot both own it. */
	fd = open(st->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		state_release(st);
		return ret;
	}
	close(fd);
	st->j = json_pack("{s:s, s:s, s:i, s:o}", "schema", STATE_SCHEMA, "mount_root", root,
			  "pid", (int)getpid(), "volumes", json_object());
	ret = state_save(st);
	if (ret)
		goto fail;
	ret = mkdir_p(STATE_REGISTRY, 0755);
	if (ret)
		goto fail;
	reg = json_pack("{s:s, s:s}", "mount_root", root, "state", st->path);
	ret = save_json(st->reg, reg);
	json_decref(reg);
	if (!ret)
		return 0;
fail:
	unlink(st->path);
	state_release(st);
	return ret;
}

int state_load(struct prep_state *st, const char *root)
{
	json_error_t err;
	char *buf = NULL;
	size_t len;
	int ret;

	memset(st, 0, sizeof(*st));
	state_paths(st, root);
	ret = read_file(st->path, &buf, &len);
	if (ret)
		goto fail;
	if (!len) {
		/* Killed between creating the record and its first save: nothing else was done. */
		free(buf);
		ret = -ENODATA;
		goto fail;
	}
	st->j = json_loadb(buf, len, 0, &err);
	free(buf);
	if (!st->j || !json_is_object(st->j) ||
	    strcmp(json_string_value(json_object_get(st->j, "schema")) ?: "", STATE_SCHEMA)) {
		fslab_err("%s is not a prep state file (%s); remove what it lists by hand", st->path,
			  st->j ? "wrong schema" : err.text);
		ret = -EINVAL;
		goto fail;
	}
	if (!json_is_object(json_object_get(st->j, "volumes")))
		json_object_set_new(st->j, "volumes", json_object());
	return 0;
fail:
	state_release(st);
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
	int ret = 0;

	if (unlink(st->path) && errno != ENOENT)
		ret = -errno;
	if (unlink(st->reg) && errno != ENOENT && !ret)
		ret = -errno;
	return ret;
}

void state_release(struct prep_state *st)
{
	json_decref(st->j);
	free(st->root);
	free(st->path);
	free(st->reg);
	memset(st, 0, sizeof(*st));
}

bool state_exists(const char *root)
{
	char *p = path_join(root, STATE_NAME);
	bool e = access(p, F_OK) == 0;

	free(p);
	return e;
}

int state_registry_roots(json_t *roots)
{
	DIR *d = opendir(STATE_REGISTRY);
	struct dirent *e;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *path, *buf = NULL;
		json_t *j;
		size_t len;

		if (e->d_name[0] == '.' || n < 6 || strcmp(e->d_name + n - 5, ".json"))
			continue;
		path = path_join(STATE_REGISTRY, e->d_name);
		if (!read_file(path, &buf, &len)) {
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

void state_unregister(const char *root)
{
	char *p = registry_entry(root);

	unlink(p);
	free(p);
}
