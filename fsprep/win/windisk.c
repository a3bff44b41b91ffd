// SPDX-License-Identifier: MIT
/* windisk.c: Windows prep's view of disks: the inventory PowerShell printed, parsed, and the
 * rules that decide whether a disk may be formatted, and with which allocation unit
 * (docs/WINDOWS.md "Prep"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/base.h"
#include "fsprep/win/winprep.h"
#include "lib/msg.h"
#include "lib/strbuf.h"
#include "lib/units.h"

const char *win_format_extra(const struct fs_desc *fs)
{
	return fs->flags & FS_F_INTEGRITY ? " -SetIntegrityStreams $false" : "";
}

static char *jdup(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return xstrdup(s ? s : "");
}

static uint64_t juint(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return (uint64_t)json_integer_value(v);
	if (json_is_real(v) && json_real_value(v) >= 0 && json_real_value(v) < 1.8e19)
		return (uint64_t)json_real_value(v);
	return 0;
}

static bool jbool(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

/* ConvertTo-Json writes a one-element array as the element itself in some places. */
static size_t jlist(json_t *v, json_t **first)
{
	if (json_is_array(v)) {
		*first = v;
		return json_array_size(v);
	}
	*first = v;
	return json_is_object(v) || json_is_string(v) ? 1 : 0;
}

static json_t *jlist_get(json_t *list, size_t i)
{
	return json_is_array(list) ? json_array_get(list, i) : list;
}

static int style_of(json_t *v)
{
	static const char *const names[] = { "RAW", "MBR", "GPT" };
	const char *s = json_string_value(v);

	if (json_is_integer(v))
		return (int)json_integer_value(v);
	for (size_t i = 0; s && i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(s, names[i]))
			return (int)i;
	return -1;
}

static void part_parse(json_t *o, struct win_part *p)
{
	json_t *ap = json_object_get(o, "AccessPaths"), *list;
	size_t n = jlist(ap, &list);

	p->number = (int)juint(o, "PartitionNumber");
	p->type = jdup(o, "Type");
	p->offset = juint(o, "Offset");
	p->size = juint(o, "Size");
	p->drive_letter = jdup(o, "DriveLetter");
	if (p->drive_letter[0] == '\0' || p->drive_letter[0] == ' ')
		p->drive_letter[0] = '\0';
	p->filesystem = jdup(o, "FileSystem");
	p->fs_label = jdup(o, "FileSystemLabel");
	p->cluster = juint(o, "AllocationUnitSize");
	p->access_paths = json_array();
	for (size_t i = 0; i < n; i++) {
		const char *s = json_string_value(jlist_get(list, i));

		if (s && *s)
			json_array_append_new(p->access_paths, json_string(s));
	}
}

static int disk_parse(json_t *o, struct win_disk *d)
{
	json_t *parts, *list;
	size_t n;

	if (!json_is_object(o) || !json_is_integer(json_object_get(o, "Number")))
		return input_error("Windows disk inventory: a disk without a Number; it must come from the query fslab prints (see docs/WINDOWS.md)");
	d->number = (int)json_integer_value(json_object_get(o, "Number"));
	d->friendly_name = jdup(o, "FriendlyName");
	d->serial = jdup(o, "SerialNumber");
	d->unique_id = jdup(o, "UniqueId");
	d->bus_type = jdup(o, "BusType");
	d->size = juint(o, "Size");
	d->style = style_of(json_object_get(o, "PartitionStyle"));
	d->is_system = jbool(o, "IsSystem");
	d->is_boot = jbool(o, "IsBoot");
	d->is_offline = jbool(o, "IsOffline");
	d->is_readonly = jbool(o, "IsReadOnly");
	d->logical_sector = (uint32_t)juint(o, "LogicalSectorSize");
	d->physical_sector = (uint32_t)juint(o, "PhysicalSectorSize");
	if (d->style < 0)
		return input_error("Windows disk inventory: disk %d has no PartitionStyle (RAW, MBR or GPT)",
				   d->number);
	parts = json_object_get(o, "Partitions");
	n = jlist(parts, &list);
	d->parts = xcalloc(n ? n : 1, sizeof(*d->parts));
	for (size_t i = 0; i < n; i++) {
		json_t *p = jlist_get(list, i);

		if (!json_is_object(p))
			return input_error("Windows disk inventory: disk %d: a partition that is not an object",
					   d->number);
		part_parse(p, &d->parts[d->nparts++]);
	}
	return 0;
}

int win_inventory_parse(const char *text, struct win_inventory *inv)
{
	json_error_t jerr;
	json_t *root, *disks, *list;
	size_t n;
	int ret = 0;

	memset(inv, 0, sizeof(*inv));
	root = json_loads(text, 0, &jerr);
	if (!root)
		return input_error("Windows disk inventory is not JSON (line %d: %s); it must be the output of fslab's disk query",
				   jerr.line, jerr.text);
	disks = json_object_get(root, "Disks");
	n = jlist(disks, &list);
	if (!json_is_object(root) || !n) {
		json_decref(root);
		return input_error("Windows disk inventory: no \"Disks\"; it must be the output of fslab's disk query");
	}
	inv->windows = jdup(root, "Windows");
	inv->powershell = jdup(root, "PowerShell");
	inv->disks = xcalloc(n, sizeof(*inv->disks));
	for (size_t i = 0; i < n && !ret; i++) {
		ret = disk_parse(jlist_get(list, i), &inv->disks[i]);
		inv->ndisks++;
	}
	json_decref(root);
	if (ret)
		win_inventory_free(inv);
	return ret;
}

void win_inventory_free(struct win_inventory *inv)
{
	for (size_t i = 0; i < inv->ndisks; i++) {
		struct win_disk *d = &inv->disks[i];

		for (size_t j = 0; j < d->nparts; j++) {
			struct win_part *p = &d->parts[j];

			free(p->type);
			free(p->drive_letter);
			free(p->filesystem);
			free(p->fs_label);
			json_decref(p->access_paths);
		}
		free(d->parts);
		free(d->friendly_name);
		free(d->serial);
		free(d->unique_id);
		free(d->bus_type);
	}
	free(inv->disks);
	free(inv->windows);
	free(inv->powershell);
	memset(inv, 0, sizeof(*inv));
}

const struct win_disk *win_inventory_disk(const struct win_inventory *inv, int number)
{
	for (size_t i = 0; i < inv->ndisks; i++)
		if (inv->disks[i].number == number)
			return &inv->disks[i];
	return NULL;
}

static bool power_of_two(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* Does Format-Volume take allocation unit @c for this filesystem? */
static bool cluster_ok(const struct fs_winfmt *w, uint64_t c)
{
	if (w->clusters) {
		for (const uint64_t *p = w->clusters; *p; p++)
			if (*p == c)
				return true;
		return false;
	}
	return power_of_two(c) && c >= w->cluster_min && c <= w->cluster_max;
}

char *win_prep_opts_problem(const struct win_prep_opts *o)
{
	const char *r = o->mount_root;
	char sz[32];

	if (o->disk[WIN_DB] == o->disk[WIN_LOG])
		return xasprintf("--db-disk and --log-disk are the same disk (%d): the database and the log need separate disks, as Exchange places them",
				 o->disk[WIN_DB]);
	if (!cluster_ok(o->fs->win, o->cluster))
		return xasprintf("--cluster %s: %s", fmt_size(sz, sizeof(sz), o->cluster),
				 o->fs->win->cluster_error);
	if (!r || !((r[0] >= 'A' && r[0] <= 'Z') || (r[0] >= 'a' && r[0] <= 'z')) ||
	    r[1] != ':' || r[2] != '\\')
		return xasprintf("--mount-root '%s': give an absolute folder on an NTFS volume, such as C:\\fslab (the volumes are mounted on ROOT\\db and ROOT\\log)",
				 r ? r : "");
	for (const unsigned char *p = (const unsigned char *)r; *p; p++)
		if (*p < 0x20 || *p == 0x7f || strchr("/\"*?<>|", *p) || (*p == ':' && p != (const unsigned char *)r + 1))
			return xstrdup("--mount-root: a Windows folder name cannot hold control characters or any of / \" * ? < > | :; pick another folder");
	if (strlen(r) > 200)
		return xasprintf("--mount-root: %zu characters; keep it under 200 (access paths below it must fit MAX_PATH)",
				 strlen(r));
	return NULL;
}

/* "2 partitions: 1 Reserved 128M, 2 NTFS 'Data' 931G at E:" */
static char *parts_text(const struct win_disk *d)
{
	struct strbuf sb = STRBUF_INIT;
	char sz[32];

	strbuf_addf(&sb, "%zu partition%s", d->nparts, d->nparts == 1 ? "" : "s");
	for (size_t i = 0; i < d->nparts; i++) {
		const struct win_part *p = &d->parts[i];

		strbuf_addf(&sb, "%s %d %s", i ? "," : ":", p->number,
			    p->filesystem[0] ? p->filesystem : p->type);
		if (p->fs_label[0])
			strbuf_addf(&sb, " '%s'", p->fs_label);
		strbuf_addf(&sb, " %s", fmt_size(sz, sizeof(sz), p->size));
		if (p->drive_letter[0])
			strbuf_addf(&sb, " at %s:", p->drive_letter);
	}
	return strbuf_detach(&sb, NULL);
}

static const char *style_name(int style)
{
	return style == WIN_STYLE_RAW ? "RAW" : style == WIN_STYLE_MBR ? "MBR" :
	       style == WIN_STYLE_GPT ? "GPT" : "an unknown partition style";
}

char *win_disk_refusal(const struct win_inventory *inv, const struct win_prep_opts *o,
		       enum win_role role, bool *wipe)
{
	const char *opt = role == WIN_DB ? "--db-disk" : "--log-disk";
	const struct win_disk *d = win_inventory_disk(inv, o->disk[role]);
	char *parts, *msg;

	*wipe = false;
	if (!d)
		return xasprintf("%s %d: no such disk (Get-Disk does not list it); list the disks with Get-Disk and pick an empty one",
				 opt, o->disk[role]);
	if (d->is_system || d->is_boot)
		return xasprintf("%s %d ('%s') is the %s disk: fslab never formats it, not even with --force; pick another disk",
				 opt, d->number, d->friendly_name, d->is_system ? "system" : "boot");
	if (d->is_readonly)
		return xasprintf("%s %d ('%s') is read-only; if it is yours to wipe, clear that with Set-Disk -Number %d -IsReadOnly $false and run prep again",
				 opt, d->number, d->friendly_name, d->number);
	if (d->size < GiB)
		return xasprintf("%s %d ('%s') has %llu bytes: too small for a %s volume (1 GiB at least)",
				 opt, d->number, d->friendly_name, (unsigned long long)d->size,
				 role == WIN_DB ? "database" : "log");
	if (d->style == WIN_STYLE_RAW && !d->nparts)
		return NULL;
	if (!o->force) {
		parts = parts_text(d);
		msg = xasprintf("%s %d ('%s') is initialised (%s, %s) and may hold data; pick an empty (RAW) disk, or add --force to wipe it",
				opt, d->number, d->friendly_name, style_name(d->style), parts);
		free(parts);
		return msg;
	}
	*wipe = true;
	return NULL;
}
