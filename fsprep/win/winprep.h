/* SPDX-License-Identifier: MIT */
/* winprep.h: prep on Windows, the storage backend (docs/WINDOWS.md "Prep"): disks from
 * PowerShell's storage cmdlets, the refusal rules, the PowerShell that formats a filesystem
 * the table marks for Windows, prep.json.
 * Everything but running powershell.exe is portable C, so Linux tests it on canned output. */
#ifndef FSLAB_WINPREP_H
#define FSLAB_WINPREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "fsprep/prep.h"

/*
 * The storage backend's part of a filesystem's descriptor (fs_<name>.c: .win): the allocation
 * units Format-Volume takes for it.  Its -FileSystem is the descriptor's title; FS_F_INTEGRITY
 * adds -SetIntegrityStreams $false.
 */
struct fs_winfmt {
	uint64_t cluster_default;   /* without --cluster: Exchange's 64K */
	const uint64_t *clusters;   /* the only sizes taken (0-terminated), or NULL: */
	uint64_t cluster_min;       /* powers of two from this */
	uint64_t cluster_max;       /* to this */
	const char *cluster_error;  /* why a --cluster is refused, after "--cluster SIZE: " */
};

enum win_role { WIN_DB, WIN_LOG, WIN_NROLES };

/* MSFT_Disk.PartitionStyle: 0 = not initialised (RAW), 1 = MBR, 2 = GPT. */
enum win_style { WIN_STYLE_RAW = 0, WIN_STYLE_MBR = 1, WIN_STYLE_GPT = 2 };

struct win_part {
	int number;
	char *type;             /* "Basic", "Reserved", "System", "Recovery", ... */
	uint64_t offset, size;
	char *drive_letter;     /* "" when none */
	char *filesystem;       /* "" when no volume */
	char *fs_label;
	uint64_t cluster;       /* AllocationUnitSize, 0 when no volume */
	json_t *access_paths;   /* array of strings */
};

struct win_disk {
	int number;
	char *friendly_name, *serial, *unique_id, *bus_type;
	uint64_t size;
	int style;              /* enum win_style, or another value Windows may add */
	bool is_system, is_boot, is_offline, is_readonly;
	uint32_t logical_sector, physical_sector;
	struct win_part *parts;
	size_t nparts;
};

/* What the query (and the end of the prep script) print: Windows and PowerShell versions and
 * the disks asked for. */
struct win_inventory {
	char *windows, *powershell;
	struct win_disk *disks;
	size_t ndisks;
};

/* Parses the query's JSON (PowerShell's ConvertTo-Json: a lone element may come as an object
 * instead of an array, a PartitionStyle as a number or as "RAW"/"MBR"/"GPT").  0, or
 * -FSLAB_EINPUT with a message naming what is wrong. */
int win_inventory_parse(const char *text, struct win_inventory *inv);
void win_inventory_free(struct win_inventory *inv);
const struct win_disk *win_inventory_disk(const struct win_inventory *inv, int number);

struct win_prep_opts {
	const struct fs_desc *fs; /* one the storage backend makes (fs->win set) */
	int disk[WIN_NROLES];
	const char *mount_root;  /* "C:\fslab": volumes on ROOT\db\ and ROOT\log\ */
	uint64_t cluster;        /* allocation unit size, bytes */
	bool force, dry_run;
	const char *disk_info;   /* canned inventory (--disk-info), NULL: ask Windows */
	bool stop_on_stdin_eof;  /* the end of stdin stops a prep whose script has not started */
};

/* " -SetIntegrityStreams $false" for a filesystem with integrity streams, else "" */
const char *win_format_extra(const struct fs_desc *fs);
/* Checks the options alone (cluster sizes per filesystem, the mount root's form); NULL or a
 * message (heap) naming the problem and the fix. */
char *win_prep_opts_problem(const struct win_prep_opts *o);
/*
 * The refusal rules for one disk of a prep (role: database or log).  NULL when it may be
 * formatted, else a message (heap): the system or boot disk always (even with --force);
 * read-only or missing disks; a disk that is initialised or holds partitions unless --force;
 * a disk below 1 GiB.  *wipe is set when --force lets an initialised disk be cleared.
 */
char *win_disk_refusal(const struct win_inventory *inv, const struct win_prep_opts *o,
		       enum win_role role, bool *wipe);

/* PowerShell scripts (heap): the query of the disks, the prep, the teardown of a prep.json. */
char *win_query_script(const int *disks, size_t n);
char *win_prep_script(const struct win_prep_opts *o, const struct win_inventory *inv);
char *win_teardown_script(json_t *prep, bool keep_volumes);

/* prep.json (fslab-prep/1, "os": "windows") from the options and the facts the prep script
 * printed after formatting.  NULL with a message when the facts do not show the volumes. */
json_t *win_prep_json(const struct win_prep_opts *o, const struct win_inventory *facts);

/* The JSON between the markers a script prints around its facts (heap), or NULL. */
char *win_facts_extract(const char *output);

/* "C:\\fslab\\" -> "C:\\fslab" ("C:\\" stays), heap; ROOT\\db\\ or ROOT\\log\\, heap. */
char *win_root_trim(const char *root);
char *win_access_path(const char *root, enum win_role role);

/* PowerShell single-quoted literal of s (heap): ' and its Unicode look-alikes doubled. */
char *ps_quote(const char *s);

#define WIN_FACTS_BEGIN "FSLAB-FACTS-BEGIN"
#define WIN_FACTS_END "FSLAB-FACTS-END"

#endif
