// SPDX-License-Identifier: MIT
/* winprepjson.c: prep.json of a Windows prep (fslab-prep/1 with "os": "windows"): the same
 * facts as on Linux (device, size, mount point, format command, topology, cluster), read back
 * from Windows after formatting, and checked against what was asked. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/base.h"
#include "fsprep/win/winprep.h"
#include "lib/msg.h"
#include "lib/units.h"
#include "platform/volume.h" /* PREP_SCHEMA */

#define WIN_ALIGN MiB

static const char *const role_name[WIN_NROLES] = { "db", "log" };

static const struct win_part *part_with_path(const struct win_disk *d, const char *path)
{
	for (size_t i = 0; i < d->nparts; i++) {
		json_t *a;
		size_t j;

		json_array_foreach(d->parts[i].access_paths, j, a)
			if (!strcasecmp(json_string_value(a), path))
				return &d->parts[i];
	}
	return NULL;
}

static json_t *volume_json(const struct win_prep_opts *o, const struct win_inventory *facts,
			   enum win_role r, const char *path)
{
	const struct win_disk *d = win_inventory_disk(facts, o->disk[r]);
	const char *fs = o->fs->title;
	const struct win_part *p;
	uint32_t lsec, psec;
	char *cmd;
	json_t *v;

	if (!d) {
		fslab_err("after prep, Windows does not list disk %d; see the script's output above",
			  o->disk[r]);
		return NULL;
	}
	p = part_with_path(d, path);
	if (!p) {
		fslab_err("after prep, no partition of disk %d is mounted on %s; see the script's output above",
			  d->number, path);
		return NULL;
	}
	if (strcasecmp(p->filesystem, fs) || p->cluster != o->cluster) {
		fslab_err("after prep, disk %d holds %s with %llu-byte clusters, not %s with %llu: the format did not do what was asked",
			  d->number, p->filesystem[0] ? p->filesystem : "no filesystem",
			  (unsigned long long)p->cluster, fs, (unsigned long long)o->cluster);
		return NULL;
	}
	lsec = d->logical_sector ? d->logical_sector : 512;
	psec = d->physical_sector ? d->physical_sector : lsec;
	cmd = xasprintf("Format-Volume -FileSystem %s -AllocationUnitSize %llu%s -NewFileSystemLabel fslab-%s",
			fs, (unsigned long long)o->cluster, win_format_extra(o->fs), role_name[r]);
	v = json_pack("{s:s, s:n, s:I, s:s, s:i, s:s, s:s, s:s, s:s,"
		      " s:{s:i, s:I, s:I},"
		      " s:{s:s, s:s, s:s},"
		      " s:{s:s, s:s, s:n, s:s, s:n},"
		      " s:{s:I, s:I, s:i, s:i, s:i, s:I, s:b, s:I},"
		      " s:I, s:n, s:b, s:n}",
		      "device", "", "image", "size", (json_int_t)d->size, "mountpoint", path,
		      "disk_number", d->number, "serial", d->serial, "unique_id", d->unique_id,
		      "friendly_name", d->friendly_name, "bus_type", d->bus_type,
		      "partition", "number", p->number, "offset", (json_int_t)p->offset,
		      "size", (json_int_t)p->size,
		      "mkfs", "command", cmd, "tool_version", facts->powershell,
		      "label", p->fs_label,
		      "mount", "fstype", fs, "options", "", "helper", "kernel_fstype", p->filesystem,
		      "kernel_options",
		      "topology", "logical_sector", (json_int_t)lsec, "physical_sector", (json_int_t)psec,
		      "min_io", 0, "opt_io", 0, "alignment_offset", 0,
		      "partition_start", (json_int_t)(p->offset / lsec),
		      "aligned", p->offset % WIN_ALIGN == 0 && p->offset % psec == 0,
		      "grain", (json_int_t)WIN_ALIGN,
		      "cluster", (json_int_t)p->cluster, "verified", "discarded", false, "wiped");
	free(cmd);
	if (!v)
		return NULL;
	json_object_set_new(v, "device", json_sprintf("\\\\.\\PhysicalDrive%d", d->number));
	json_object_set_new(v, "verified",
			    json_pack("{s:s, s:I}", "filesystem", p->filesystem,
				      "cluster", (json_int_t)p->cluster));
	if (o->fs->flags & FS_F_INTEGRITY)
		json_object_set_new(v, "integrity_streams", json_false());
	return v;
}

json_t *win_prep_json(const struct win_prep_opts *o, const struct win_inventory *facts)
{
	json_t *vol[WIN_NROLES] = { NULL, NULL }, *j = NULL;
	char now[32];

	for (int r = 0; r < WIN_NROLES; r++) {
		char *path = win_access_path(o->mount_root, r);

		vol[r] = volume_json(o, facts, r, path);
		free(path);
		if (!vol[r])
			goto out;
	}
	j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:n, s:{s:O, s:O},"
		      " s:n, s:[]}",
		      "schema", PREP_SCHEMA, "os", "windows", "windows_version", facts->windows,
		      "powershell_version", facts->powershell, "fs", o->fs->name,
		      "created_at", iso8601_now(now, sizeof(now)), "fslab_version", FSLAB_VERSION,
		      "fslab_git", fslab_git, "mount_root", o->mount_root, "images", false,
		      "image_dir", "volumes", "db", vol[WIN_DB], "log", vol[WIN_LOG],
		      "ntfs_cache_fix", "notes");
out:
	json_decref(vol[WIN_DB]);
	json_decref(vol[WIN_LOG]);
	return j;
}
