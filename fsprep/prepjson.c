// SPDX-License-Identifier: MIT
/* prepjson.c: prep.json ("fslab-prep/1", docs/DESIGN.md): building it, and finding it for a
 * directory on a prepped volume (fslab run copies it into the result's environment). */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "files.h"
#include "fsprep/prepP.h"
#include "msg.h"
#include "units.h"

void prep_note(struct prep_ctx *c, const char *fmt, ...)
{
	char buf[1024]; /* notes are one line */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fslab_warn("%s", buf);
	json_array_append_new(c->notes, json_string(buf));
}

static json_t *jstr_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *topology_json(const struct topology *t)
{
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:I}",
			 "logical_sector", (json_int_t)t->logical_sector,
			 "physical_sector", (json_int_t)t->physical_sector,
			 "min_io", (json_int_t)t->min_io,
			 "opt_io", (json_int_t)t->opt_io,
			 "alignment_offset", (json_int_t)t->alignment_offset,
			 "partition_start", (json_int_t)t->partition_start,
			 "aligned", topology_aligned(t),
			 "grain", (json_int_t)topology_grain(t));
}

/* "mkfs" of a volume: argv, the same as one line, the tool's version; null when no filesystem
 * was made (raw). */
static json_t *mkfs_json(const struct volume *v)
{
	json_t *argv, *o;
	char *cmd;

	if (!v->plan.argv)
		return json_null();
	argv = json_array();
	for (size_t i = 0; i < v->plan.argc; i++)
		json_array_append_new(argv, json_string(v->plan.argv[i]));
	cmd = argv_join(v->plan.argv);
	o = json_pack("{s:o, s:s, s:s}", "argv", argv, "command", cmd,
		      "tool_version", v->tool_version);
	free(cmd);
	return o;
}

/* "mount" of a volume: what libmount was given and what the kernel shows; null for raw. */
static json_t *mount_json(const struct fs_desc *fs, const struct volume *v)
{
	if (!fs->mount_type)
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:o, s:o}", "fstype", fs->mount_type,
			 "options", v->mount_opts, "helper", jstr_or_null(fs->mount_helper),
			 "kernel_fstype", jstr_or_null(v->kernel_fstype),
			 "kernel_options", jstr_or_null(v->vfs_options));
}

static json_t *volume_json(const struct prep_ctx *c, const struct volume *v)
{
	json_t *o;

	o = json_pack("{s:s, s:o, s:I, s:o, s:o, s:o, s:o, s:O, s:b, s:O}",
		      "device", v->device,
		      "image", jstr_or_null(v->image),
		      "size", (json_int_t)v->size,
		      "mountpoint", jstr_or_null(v->mountpoint),
		      "mkfs", mkfs_json(v),
		      "mount", mount_json(c->o->fs, v),
		      "topology", topology_json(&v->topo),
		      "verified", v->verified ? v->verified : json_null(),
		      "discarded", v->discarded,
		      "wiped", v->wiped ? v->wiped : json_null());
	if (v->image)
		json_object_set_new(o, "loop_direct_io", json_boolean(v->direct_io));
	if (v->daemon)
		json_object_set_new(o, "daemon_pid", json_integer(v->daemon));
	return o;
}

json_t *prep_json_build(const struct prep_ctx *c)
{
	char now[32];

	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:{s:o, s:o}, s:O, s:O}",
			 "schema", PREP_SCHEMA,
			 "fs", c->o->fs->name,
			 "created_at", iso8601_now(now, sizeof(now)),
			 "fslab_version", FSLAB_VERSION,
			 "fslab_git", FSLAB_GIT,
			 "mount_root", c->root,
			 "images", c->image_dir != NULL,
			 "image_dir", jstr_or_null(c->image_dir),
			 "volumes",
			 "db", volume_json(c, &c->vol[VOL_DB]),
			 "log", volume_json(c, &c->vol[VOL_LOG]),
			 "ntfs_cache_fix", c->cache_fix ? c->cache_fix : json_null(),
			 "notes", c->notes);
}

json_t *prep_json_for_dir(const char *dir)
{
	char *mp = mount_point_of(dir), *parent, *path = NULL, *buf = NULL;
	json_t *j = NULL, *vols, *v;
	const char *key;
	size_t len;
	bool match = false;

	if (!mp)
		return NULL;
	parent = xstrdup(mp);
	path = path_join(dirname(parent), PREP_JSON_NAME);
	if (read_file(path, &buf, &len))
		goto out;
	j = json_loadb(buf, len, 0, NULL);
	vols = json_object_get(j, "volumes");
	json_object_foreach(vols, key, v) {
		const char *m = json_string_value(json_object_get(v, "mountpoint"));

		if (m && !strcmp(m, mp))
			match = true;
	}
	if (!match || strcmp(json_string_value(json_object_get(j, "schema")) ?: "", PREP_SCHEMA)) {
		json_decref(j);
		j = NULL;
	}
out:
	free(buf);
	free(path);
	free(parent);
	free(mp);
	return j;
}
