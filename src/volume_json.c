// SPDX-License-Identifier: MIT
/* volume_json.c: a volume's facts as the result's JSON, and their release: the same on Linux
 * (volume.c) and Windows (volume_win32.c), which only gather them differently. */
#include <stdlib.h>
#include <string.h>

#include "volume.h"

void volume_release(struct volume *v)
{
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
	json_object_set_new(o, "rotational", json_boolean(v->rotational));
	json_object_set_new(o, "logical_sector", json_integer(v->logical_sector));
	json_object_set_new(o, "physical_sector", json_integer(v->physical_sector));
	if (v->model && !strncmp(v->model, "loop:", 5))
		json_object_set_new(o, "loop_direct_io", json_boolean(v->loop_dio));
	if (v->extra) /* facts only one system has (Windows: cluster, sectors, integrity) */
		json_object_update(o, v->extra);
	return o;
}
