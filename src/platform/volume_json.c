// SPDX-License-Identifier: MIT
/* volume_json.c: a volume's facts as the result's JSON, its prep.json, its O_DIRECT probe and
 * their release: the same on Linux (volume.c) and Windows (volume_win32.c), which only gather
 * them differently. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <strings.h>
#endif

#include "lib/base.h"
#include "os/files.h"
#include "os/os.h"
#include "os/scratch.h"
#include "platform/volume.h"

void volume_release(struct volume *v)
{
	os_dirh_close(v->dh);
	free(v->role);
	free(v->dir);
	free(v->mountpoint);
	free(v->fstype);
	free(v->fsname);
	free(v->source);
	free(v->options);
	free(v->devname);
	free(v->stat_path);
	free(v->model);
	json_decref(v->extra);
	memset(v, 0, sizeof(*v));
}

json_t *volume_to_json(const struct volume *v)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:I}",
			      "role", v->role, "dir", v->dir, "mountpoint", v->mountpoint,
			      "fstype", v->fsname, "source", v->source, "mount_options", v->options,
			      "block_size", (json_int_t)v->block_size,
			      "fs_size", (json_int_t)v->fs_size, "fs_free", (json_int_t)v->fs_free);

	json_object_set_new(o, "vfs_type", json_string(v->fstype));
	json_object_set_new(o, "raw", json_boolean(v->raw));
	json_object_set_new(o, "device", v->devname ? json_string(v->devname) : json_null());
	json_object_set_new(o, "device_model", json_string(v->model ? v->model : ""));
	json_object_set_new(o, "o_direct", v->o_direct < 0 ? json_null() : json_boolean(v->o_direct));
	json_object_set_new(o, "nowait", v->nowait < 0 ? json_null() : json_boolean(v->nowait));
	json_object_set_new(o, "rotational", json_boolean(v->rotational));
	json_object_set_new(o, "logical_sector", json_integer(v->logical_sector));
	json_object_set_new(o, "physical_sector", json_integer(v->physical_sector));
	if (v->model && !strncmp(v->model, "loop:", 5))
		json_object_set_new(o, "loop_direct_io", json_boolean(v->loop_dio));
	if (v->extra) /* facts only one system has (Windows: cluster, sectors, integrity) */
		json_object_update(o, v->extra);
	return o;
}

char *volume_path_slashes(char *s)
{
	size_t n;

	for (char *p = s; *p; p++)
		if (*p == '\\')
			*p = '/';
	n = strlen(s);
	while (n > 3 && s[n - 1] == '/') /* keep "C:/" */
		s[--n] = 0;
	return s;
}

/* Does the mount point prep.json records name the mount point @mp?  Windows: paths are
 * compared without case, as volume_path_slashes() writes them (volume_probe() did). */
static bool same_mountpoint(const char *recorded, const char *mp)
{
#ifdef _WIN32
	char *r = volume_path_slashes(xstrdup(recorded));
	bool same = !strcasecmp(r, mp);

	free(r);
	return same;
#else
	return !strcmp(recorded, mp);
#endif
}

json_t *volume_prep_json(const struct volume *v)
{
	char *root, *slash, *path, *buf = NULL;
	json_t *j = NULL, *vol;
	const char *key, *schema;
	bool match = false;
	size_t len;

	if (v->raw || !v->mountpoint || !*v->mountpoint)
		return NULL;
	/* prep.json sits in the mount root, the parent of the volume's mount point */
	root = xstrdup(v->mountpoint);
	slash = strrchr(root, '/');
	if (slash == root)
		slash[1] = 0;
	else if (slash && strlen(root) > 3)
		*slash = 0;
	path = path_join(root, PREP_JSON_NAME);
	if (read_file(path, &buf, &len))
		goto out;
	j = json_loadb(buf, len, 0, NULL);
	json_object_foreach(json_object_get(j, "volumes"), key, vol) {
		const char *m = json_string_value(json_object_get(vol, "mountpoint"));

		if (m && same_mountpoint(m, v->mountpoint))
			match = true;
	}
	schema = json_string_value(json_object_get(j, "schema"));
	if (!match || !schema || strcmp(schema, PREP_SCHEMA)) {
		json_decref(j);
		j = NULL;
	}
out:
	free(buf);
	free(path);
	free(root);
	return j;
}

void volume_probe_odirect(struct volume *v)
{
	char name[64];
	struct os_file *f;
	int ret;

	if (v->raw) { /* block devices take O_DIRECT and RWF_NOWAIT (FMODE_NOWAIT) */
		v->o_direct = 1;
		v->nowait = 1;
		return;
	}
	if (!v->dh)
		return;
	snprintf(name, sizeof(name), ".fslab-probe.%lu", os_pid());
	/* some filesystems accept the flag at open and refuse the I/O (the header's 4 KiB
	 * write: a multiple of 512e and 4Kn sectors) with EINVAL; other errors (a full
	 * filesystem) say nothing about O_DIRECT */
	ret = scratch_create(v->dh, name, OS_DIRECT | OS_WRITE_THROUGH, &f);
	v->o_direct = !ret ? 1 : ret == -EINVAL ? 0 : -1;
	if (!ret) {
		char *buf = xmalloc_aligned(4096);
		ssize_t n = os_pread_nowait(f, buf, 4096, 0);

		v->nowait = volume_nowait_of(n < 0 ? -1 : n, n < 0 ? (int)-n : 0);
		free_aligned(buf);
		os_close(f);
		(void)os_dirh_unlink(v->dh, name);
	}
}

int volume_nowait_of(long ret, int err)
{
	if (ret >= 0 || err == EAGAIN)
		return 1;
	return err == EOPNOTSUPP ? 0 : -1;
}
