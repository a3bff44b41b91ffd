// SPDX-License-Identifier: MIT
/* prepjson.c: prep.json (PREP_SCHEMA, docs/DESIGN.md) built from what a prep did (fslab run
 * reads it back with volume_prep_json(), src/platform/volume_json.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "lib/strbuf.h"
#include "lib/units.h"

void prep_note(struct prep_ctx *c, const char *fmt, ...)
{
	struct strbuf note = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&note, fmt, ap);
	va_end(ap);
	fslab_warn("%s", note.buf);
	json_array_append_new(c->notes, json_string(note.buf));
	strbuf_release(&note);
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
static json_t *mkfs_json(const struct prep_vol *v)
{
	json_t *argv, *o;
	char *cmd;

	if (!v->mkfs.argv.nr)
		return json_null();
	argv = json_array();
	for (size_t i = 0; i < v->mkfs.argv.nr; i++)
		json_array_append_new(argv, json_string(v->mkfs.argv.v[i]));
	cmd = mkfs_cmd_line(&v->mkfs);
	o = json_pack("{s:o, s:s, s:s}", "argv", argv, "command", cmd,
		      "tool_version", v->tool_version);
	free(cmd);
	return o;
}

/* "mount" of a volume: what libmount was given and what the kernel shows; null for raw. */
static json_t *mount_json(const struct fs_desc *fs, const struct prep_vol *v)
{
	if (!fs->mkfs)
		return json_null();
	return json_pack("{s:s, s:s, s:o, s:o, s:o}", "fstype", fs->mkfs->mount_type,
			 "options", v->mount_opts, "helper", jstr_or_null(fs->mkfs->mount_helper),
			 "kernel_fstype", jstr_or_null(v->kernel_fstype),
			 "kernel_options", jstr_or_null(v->vfs_options));
}

static json_t *volume_json(const struct prep_ctx *c, const struct prep_vol *v)
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
	if (v->image) {
		json_object_set_new(o, "loop_direct_io", json_boolean(v->direct_io));
		json_object_set_new(o, "image_blocks", json_string(image_alloc_name(v->alloc)));
	}
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
			 "fslab_git", fslab_git,
			 "mount_root", c->root,
			 "images", c->image_dir != NULL,
			 "image_dir", jstr_or_null(c->image_dir),
			 "volumes",
			 "db", volume_json(c, &c->vol[VOL_DB]),
			 "log", volume_json(c, &c->vol[VOL_LOG]),
			 "ntfs_cache_fix", c->cache_fix ? c->cache_fix : json_null(),
			 "notes", c->notes);
}
