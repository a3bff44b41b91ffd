// SPDX-License-Identifier: MIT
/* winprep_cli.c: the storage backend: `fslab prep` and `fslab teardown` for Windows disks
 * (--db-disk/--log-disk): options, the refusals listed at once, --dry-run's plan, running
 * powershell.exe (Windows only), prep.json written atomically.  On Linux, --disk-info FILE
 * --dry-run previews a plan. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "cmds.h"
#include "os/files.h"
#include "fsprep/win/winprep.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "platform/volume.h" /* PREP_SCHEMA, PREP_JSON_NAME */

static void winprep_head(FILE *f)
{
	char *names = fs_list(PREP_WINDOWS, 0, "%s", "|", "|");
	char *titles = fs_list(PREP_WINDOWS, FSL_TITLES, "%s", ", ", " or ");

	fprintf(f,
		"usage: fslab prep --fs %s --db-disk N --log-disk M [--mount-root DIR]\n"
		"                  [--cluster SIZE] [--force] [--dry-run] [--disk-info FILE]\n"
		"\n"
		"Windows disks (numbers as Get-Disk lists them): each becomes GPT with one 1 MiB-aligned\n"
		"partition formatted %s (64K allocation units, ReFS without integrity streams,\n"
		"as Exchange guidance says), mounted on DIR\\db\\ and DIR\\log\\ (default C:\\fslab).\n"
		"Refused: the system or boot disk (always), read-only disks, disks that are initialised or\n"
		"hold partitions (unless --force, which wipes them).\n"
		"Writes DIR\\prep.json; `fslab teardown --mount-root DIR` undoes the prep.\n"
		"\n",
		names, titles);
	free(names);
	free(titles);
}

/* "ntfs or refs": what --fs takes on Windows disks */
static const char *win_fs_choices(void)
{
	static char *names;

	if (!names)
		names = fs_list(PREP_WINDOWS, 0, "%s", ", ", " or ");
	return names;
}

/* --cluster: the default of each filesystem, from the table ("64K", or "ntfs 4K, refs 64K") */
static void cluster_help(struct strbuf *sb)
{
	struct strbuf d = STRBUF_INIT;
	uint64_t first = 0;
	bool same = true;

	for (size_t i = 0; i < fs_count(); i++) {
		const struct fs_desc *fs = fs_at(i);

		if (!fs->win || !fs_makes(fs, PREP_WINDOWS, false))
			continue;
		same = same && (!first || first == fs->win->cluster_default);
		first = first ? first : fs->win->cluster_default;
		strbuf_addf(&d, "%s%s %lluK", d.len ? ", " : "", fs->name,
			    (unsigned long long)(fs->win->cluster_default / KiB));
	}
	strbuf_addstr(sb, "the allocation unit size; default ");
	if (same)
		strbuf_addf(sb, "%lluK", (unsigned long long)(first / KiB));
	else
		strbuf_addstr(sb, d.buf);
	strbuf_release(&d);
}

/* What fslab prep is told for Windows disks: the options, and what is checked once all are in. */
struct winprep_args {
	struct win_prep_opts o;
	const char *fs;
	bool have[WIN_NROLES], cluster_given;
};

enum { WA_DB_DISK, WA_LOG_DISK, WA_CLUSTER };

static int winprep_set(void *ctx, const struct opt_def *d, const char *arg);

#define WA(f) .off = offsetof(struct winprep_args, f)

static const struct opt_def winprep_opts[] = {
	{ .name = "fs", .arg = OPT_CHOICE, .metavar = "FS", .choices = win_fs_choices,
	  .help = "%C", .ini = "fs.fs", .store = OPT_STR, WA(fs) },
	{ .name = "db-disk", .arg = OPT_WORD, .metavar = "N",
	  .help = "the disk of the database volume, its number as Get-Disk lists it",
	  .ini = "devices.db_disk", .flags = OPT_CLAIM, .id = WA_DB_DISK },
	{ .name = "log-disk", .arg = OPT_WORD, .metavar = "M",
	  .help = "the disk of the log volume", .ini = "devices.log_disk", .flags = OPT_CLAIM,
	  .id = WA_LOG_DISK },
	{ .name = "mount-root", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "mount on DIR\\db\\ and DIR\\log\\",
	  .def = "C:\\fslab", .store = OPT_STR, WA(o.mount_root) },
	{ .name = "cluster", .arg = OPT_WORD, .metavar = "SIZE", .help_fn = cluster_help,
	  .ini = "fs.cluster", .id = WA_CLUSTER },
	{ .name = "force",
	  .help = "wipe disks that are initialised or hold partitions (never the system or boot "
		  "disk, nor a read-only one)",
	  .ini = "devices.force", .store = OPT_TRUE, WA(o.force) },
	{ .name = "dry-run", .help = "print the plan and the PowerShell script; change nothing",
	  .store = OPT_TRUE, WA(o.dry_run) },
	{ .name = "disk-info", .arg = OPT_FILE, .metavar = "FILE",
	  .help = "take the disks from FILE (the JSON the disk query prints) instead of asking "
		  "Windows: on Linux it previews a plan",
	  .ini = "devices.disk_info", .flags = OPT_CLAIM, .store = OPT_STR, WA(o.disk_info) },
	{ .name = "stop-on-stdin-eof",
	  .help = "the end of standard input before the script starts stops the prep, nothing "
		  "changed; a script that started finishes (or undoes itself on failure): no disk "
		  "is left half-made (fslab lab stops its steps so)",
	  .store = OPT_TRUE, WA(o.stop_on_stdin_eof) },
	{ .name = "help", .short_name = 'h', .help = "this text" },
	{ .name = NULL },
};

static const struct opt_cmd winprep_opt_cmd = {
	.name = "prep",
	.see = "prep --db-disk 0",
	.opts = winprep_opts,
	.set = winprep_set,
	.head_fn = winprep_head,
	.col = 23,
	.width = 94,
};

/* What fslab teardown is told for a Windows prep. */
struct winteardown_args {
	const char *root;
	bool keep, dry, stop_on_eof;
};

#define WT(f) .off = offsetof(struct winteardown_args, f)

static const struct opt_def winteardown_opts[] = {
	{ .name = "mount-root", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "the folder given to fslab prep", .def = "C:\\fslab", .store = OPT_STR,
	  WT(root) },
	{ .name = "keep-volumes", .help = "remove only the access paths: the volumes stay",
	  .store = OPT_TRUE, WT(keep) },
	{ .name = "dry-run", .help = "print the PowerShell script; change nothing",
	  .store = OPT_TRUE, WT(dry) },
	{ .name = "stop-on-stdin-eof",
	  .help = "accepted as run and prep take it; a teardown finishes anyway",
	  .store = OPT_TRUE, WT(stop_on_eof) },
	{ .name = "help", .short_name = 'h', .help = "this text" },
	{ .name = NULL },
};

static const struct opt_cmd winteardown_opt_cmd = {
	.name = "teardown",
	.opts = winteardown_opts,
	.head = "usage: fslab teardown [--mount-root DIR] [--keep-volumes] [--dry-run]\n"
		"Undoes a Windows prep recorded in DIR\\prep.json (default C:\\fslab): removes\n"
		"the access paths and clears both disks back to RAW (--keep-volumes: only the\n"
		"access paths).  A disk whose serial number or size differs is refused.\n"
		"\n",
	.col = 23,
	.width = 94,
};

static char *prep_json_path(const char *root)
{
	char *r = win_root_trim(root), *p = xasprintf("%s\\" PREP_JSON_NAME, r);

	free(r);
	return p;
}

#ifdef _WIN32
/* Runs script with powershell.exe; stdout+stderr into *out.  Exit status or -errno. */
static int run_powershell(const char *script, char **out)
{
	const char *tmp = getenv("TEMP");
	char *path = xasprintf("%s\\fslab-%d.ps1", tmp ? tmp : ".", (int)getpid()), *cmd;
	FILE *f, *p;
	int ret;

	f = fopen(path, "wb");
	if (!f) {
		ret = -errno;
		free(path);
		return ret;
	}
	/* Windows PowerShell 5.1 reads a script without a BOM as ANSI */
	fputs("\xef\xbb\xbf", f);
	fputs(script, f);
	if (fclose(f)) {
		ret = -errno;
		remove(path);
		free(path);
		return ret;
	}
	cmd = xasprintf("powershell.exe -NoLogo -NoProfile -NonInteractive -ExecutionPolicy Bypass -File \"%s\" 2>&1",
			path);
	p = _popen(cmd, "r");
	free(cmd);
	if (!p) {
		ret = -errno;
		remove(path);
		free(path);
		return ret;
	}
	{
		struct strbuf sb = STRBUF_INIT;

		(void)strbuf_read_stream(&sb, p); /* what came before a read error is kept */
		*out = strbuf_detach(&sb, NULL);
	}
	ret = _pclose(p);
	remove(path);
	free(path);
	return ret;
}
#else
static int run_powershell(const char *script, char **out)
{
	(void)script;
	*out = NULL;
	return -ENOSYS;
}
#endif

static int inventory_from_windows(const int *disks, size_t n, struct win_inventory *inv)
{
	char *script = win_query_script(disks, n), *out = NULL, *json;
	int ret = run_powershell(script, &out);

	free(script);
	if (ret == -ENOSYS)
		return input_error("Windows disks are prepped by fslab.exe on Windows; on Linux give --disk-info FILE with --dry-run to preview a plan, or --db-dev/--log-dev for Linux devices");
	if (ret) {
		fslab_err("the disk query failed (powershell.exe exit %d): %s", ret, out ? out : "");
		free(out);
		return -EIO;
	}
	json = win_facts_extract(out);
	if (!json) {
		fslab_err("the disk query printed no facts: %s", out);
		free(out);
		return -EIO;
	}
	ret = win_inventory_parse(json, inv);
	free(json);
	free(out);
	return ret;
}

static int parse_disk(const char *opt, const char *arg, int *out)
{
	uint64_t v;

	if (parse_u64(arg, 0, 9999, &v))
		return input_error("%s %s: give the disk number as Get-Disk lists it (0-9999)", opt, arg);
	*out = (int)v;
	return 0;
}

/* The --fs of a Windows prep: one the storage backend makes.  0 or -FSLAB_EINPUT. */
static int pick_fs(const char *name, struct win_prep_opts *o)
{
	const struct fs_desc *d = fs_find(name);
	char *valid = fs_list(PREP_WINDOWS, 0, "%s", ", ", " or ");
	int ret = 0;

	if (!name)
		ret = input_error("--fs is required: %s for Windows disks", valid);
	else if (!fs_makes(d, PREP_WINDOWS, false) || !d->win)
		ret = input_error("--fs %s: Windows disks are formatted %s%s%s%s", name, valid,
				  fs_makes(d, PREP_LINUX, true) ? " (" : "",
				  fs_makes(d, PREP_LINUX, true) ? name : "",
				  fs_makes(d, PREP_LINUX, true) ?
				  " is prepped on Linux with --db-dev/--log-dev or --image-dir)" : "");
	else
		o->fs = d;
	free(valid);
	return ret;
}

static int winprep_set(void *ctx, const struct opt_def *d, const char *arg)
{
	struct winprep_args *a = ctx;

	switch (d->id) {
	case WA_DB_DISK:
	case WA_LOG_DISK:
		a->have[d->id == WA_DB_DISK ? WIN_DB : WIN_LOG] = true;
		return parse_disk(d->id == WA_DB_DISK ? "--db-disk" : "--log-disk", arg,
				  &a->o.disk[d->id == WA_DB_DISK ? WIN_DB : WIN_LOG]);
	case WA_CLUSTER:
		a->cluster_given = true;
		if (parse_size(arg, &a->o.cluster))
			return input_error("--cluster %s: not a size; use e.g. 64K", arg);
		return 0;
	}
	return 0;
}

/* fslab prep's argv for Windows disks into a: 0, 1 after --help, or -FSLAB_EINPUT (said). */
static int parse_winprep(int argc, char **argv, struct winprep_args *a)
{
	struct win_prep_opts *o = &a->o;
	char *why;
	int first, ret;

	memset(a, 0, sizeof(*a));
	o->mount_root = "C:\\fslab";
	ret = opt_parse(&winprep_opt_cmd, a, argc, argv, &first);
	if (ret)
		return ret;
	ret = pick_fs(a->fs, o);
	if (ret)
		return ret;
	if (!a->have[WIN_DB] || !a->have[WIN_LOG]) {
		bool only = !fs_makes(o->fs, PREP_LINUX, false);

		return input_error("give both --db-disk and --log-disk (disk numbers as Get-Disk lists them)%s%s%s",
				   only ? "; " : "", only ? o->fs->title : "",
				   only ? " exists only on Windows" : "");
	}
	if (!a->cluster_given)
		o->cluster = o->fs->win->cluster_default;
	why = win_prep_opts_problem(o);
	if (why) {
		ret = input_error("%s", why);
		free(why);
	}
	return ret;
}

static void print_plan(const struct win_prep_opts *o, const struct win_inventory *inv,
		       const bool *wipe)
{
	static const char *const role[WIN_NROLES] = { "database", "log" };
	char sz[32];

	printf("fslab prep (Windows) plan: %s, %lluK allocation units%s\n",
	       o->fs->title, (unsigned long long)(o->cluster / KiB),
	       o->fs->flags & FS_F_INTEGRITY ? ", integrity streams off" : "");
	for (int r = 0; r < WIN_NROLES; r++) {
		const struct win_disk *d = win_inventory_disk(inv, o->disk[r]);

		printf("  %-8s disk %d '%s' (%s, serial %s, %s%s): GPT, one partition at 1 MiB, on %s\\%s\\\n",
		       role[r], d->number, d->friendly_name, fmt_size(sz, sizeof(sz), d->size),
		       d->serial[0] ? d->serial : "none", d->bus_type[0] ? d->bus_type : "bus unknown",
		       wipe[r] ? ", WIPED (--force)" : d->is_offline ? ", offline: brought online" : "",
		       o->mount_root, r == WIN_DB ? "db" : "log");
	}
	printf("  record   %s\\prep.json\n\n", o->mount_root);
}

/* The disks as --disk-info FILE describes them, or as Windows does.  0 or -errno. */
static int load_inventory(const struct win_prep_opts *o, struct win_inventory *inv)
{
	char *text = NULL;
	size_t len;
	int ret;

	if (!o->disk_info)
		return inventory_from_windows(o->disk, WIN_NROLES, inv);
	ret = read_file(o->disk_info, &text, &len);
	if (ret)
		return input_error("--disk-info %s: %s", o->disk_info, strerror(-ret));
	ret = win_inventory_parse(text, inv);
	free(text);
	return ret;
}

/* Both disks' refusals, each printed; wipe[] what --force lets be wiped.  0 or -FSLAB_EINPUT. */
static int check_disks(const struct win_prep_opts *o, const struct win_inventory *inv,
		       bool *wipe)
{
	int nbad = 0;

	for (int r = 0; r < WIN_NROLES; r++) {
		char *why = win_disk_refusal(inv, o, r, &wipe[r]);

		if (why) {
			fslab_err("%s", why);
			free(why);
			nbad++;
		}
	}
	if (nbad)
		return input_error("nothing was changed (%d problem%s above)", nbad,
				   nbad == 1 ? "" : "s");
	return 0;
}

/* Run the prep script and record what it made in prep.json at pj.  0 or -errno. */
static int prep_and_record(const struct win_prep_opts *o, const char *script, const char *pj)
{
	struct win_inventory facts = { 0 };
	char *out = NULL, *json = NULL, *dump = NULL;
	json_t *prep = NULL;
	int ret = run_powershell(script, &out);

	if (ret == -ENOSYS) {
		ret = input_error("Windows disks are prepped by fslab.exe on Windows; here only --dry-run previews the plan");
		goto out;
	}
	if (ret) {
		fslab_err("the prep script failed (powershell.exe exit %d) and undid what it made:\n%s",
			  ret, out ? out : "");
		ret = -EIO;
		goto out;
	}
	json = win_facts_extract(out);
	ret = json ? win_inventory_parse(json, &facts) : -EIO;
	if (ret) {
		fslab_err("the prep script printed no facts; the volumes may exist: check Get-Disk %d, %d:\n%s",
			  o->disk[WIN_DB], o->disk[WIN_LOG], out);
		ret = -EIO;
		goto out;
	}
	prep = win_prep_json(o, &facts);
	if (!prep) {
		ret = -EIO;
		goto out;
	}
	dump = json_dumps(prep, JSON_INDENT(2) | JSON_SORT_KEYS);
	ret = write_file_atomic(pj, dump, strlen(dump));
	if (ret && ret != -FSLAB_EINPUT)
		fslab_err("cannot write %s: %s; the volumes exist: `fslab teardown` cannot find them, remove them with Clear-Disk",
			  pj, strerror(-ret));
	else if (!ret)
		fslab_info("prepped %s on disks %d and %d: %s\\db\\ and %s\\log\\ (%s)",
			   o->fs->title, o->disk[WIN_DB], o->disk[WIN_LOG], o->mount_root,
			   o->mount_root, pj);
out:
	json_decref(prep);
	win_inventory_free(&facts);
	free(out);
	free(json);
	free(dump);
	return ret;
}

/* The lab's stop request (--stop-on-stdin-eof, or Ctrl-C): checked before the script runs. */
static volatile int stop_requested;

static void on_stop(int why)
{
	if (!stop_requested)
		stop_requested = why;
}

/* --db-dev, --log-dev or --image-dir (Linux's) among a Windows prep's arguments: said, true. */
static bool linux_devices_given(int argc, char **argv)
{
	const struct fs_desc *fs = fs_find(prep_argv_fs(argc, argv));

	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--db-dev", 8) && strncmp(argv[i], "--log-dev", 9) &&
		    strncmp(argv[i], "--image-dir", 11))
			continue;
		if (fs && !fs_makes(fs, PREP_LINUX, true))
			input_error("%s is for Linux devices, --db-disk/--log-disk for Windows disks; %s exists only on Windows (no Linux tool creates it): run fslab.exe prep --fs %s --db-disk N --log-disk M there",
				    argv[i], fs->title, fs->name);
		else
			input_error("%s is for Linux devices (fslab prep on Linux), --db-disk/--log-disk for Windows disks",
				    argv[i]);
		return true;
	}
	return false;
}

int cmd_winprep(int argc, char **argv)
{
	struct winprep_args a;
	struct win_prep_opts *o = &a.o;
	struct win_inventory inv = { 0 };
	bool wipe[WIN_NROLES] = { false, false };
	char *script = NULL, *pj = NULL;
	int ret;

	if (linux_devices_given(argc, argv))
		return FSLAB_EXIT_USAGE;
	ret = parse_winprep(argc, argv, &a);
	if (ret)
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	if (o->stop_on_stdin_eof && !o->dry_run) {
		os_stop_handler_set(on_stop);
		if (os_stop_on_stdin_eof())
			fslab_warn("cannot watch standard input (--stop-on-stdin-eof)");
	}
	pj = prep_json_path(o->mount_root);
	if (!access(pj, F_OK)) {
		ret = input_error("%s exists: a prep is recorded there (or a file fslab did not write); run 'fslab teardown --mount-root %s' first, or pick another --mount-root",
				  pj, o->mount_root);
		goto out;
	}
	ret = load_inventory(o, &inv);
	if (!ret)
		ret = check_disks(o, &inv, wipe);
	if (ret)
		goto out;
	script = win_prep_script(o, &inv);
	if (o->dry_run) {
		print_plan(o, &inv, wipe);
		fputs(script, stdout);
	} else if (stop_requested) {
		/* the lab's stop: heeded up to here; a started script is never cut (docs/WINDOWS.md) */
		fslab_err("stopped (%s) before the prep script started: nothing was changed",
			  os_stop_name(stop_requested));
		ret = -EINTR;
	} else {
		ret = prep_and_record(o, script, pj);
	}
out:
	win_inventory_free(&inv);
	free(script);
	free(pj);
	return ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
}

/* The recorded prep of root, checked to be a Windows prep.json fslab wrote. */
static int load_prep(const char *path, json_t **out)
{
	const char *schema, *os;
	char *text;
	size_t len;
	json_t *j;
	int ret;

	ret = read_file(path, &text, &len);
	if (ret)
		return input_error("%s: %s; is --mount-root the folder given to fslab prep?", path,
				   strerror(-ret));
	j = json_loadb(text, len, 0, NULL);
	free(text);
	schema = json_string_value(json_object_get(j, "schema"));
	os = json_string_value(json_object_get(j, "os"));
	if (!schema || strcmp(schema, PREP_SCHEMA) || !os || strcmp(os, "windows") ||
	    !json_is_object(json_object_get(json_object_get(j, "volumes"), "db")) ||
	    !json_is_object(json_object_get(json_object_get(j, "volumes"), "log"))) {
		json_decref(j);
		return input_error("%s is not a Windows prep.json written by fslab prep: refused (teardown only undoes what prep recorded)",
				   path);
	}
	*out = j;
	return 0;
}

int cmd_winteardown(int argc, char **argv)
{
	struct winteardown_args a = { .root = "C:\\fslab" };
	char *pj, *script = NULL, *out = NULL;
	json_t *prep = NULL;
	int first, ret;

	ret = opt_parse(&winteardown_opt_cmd, &a, argc, argv, &first);
	if (ret)
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	pj = prep_json_path(a.root);
	/* as on Linux: an existing root with nothing recorded has nothing to undo (the lab tears
	 * down OUT\mnt after every cell, prepped or not); a root that is not there is a typo */
	if (os_is_dir(a.root) && os_stat(pj, NULL, NULL) == -ENOENT) {
		fslab_info("nothing recorded in %s (no prep.json): nothing to tear down", a.root);
		ret = 0;
		goto out;
	}
	ret = load_prep(pj, &prep);
	if (ret)
		goto out;
	script = win_teardown_script(prep, a.keep);
	if (a.dry) {
		fputs(script, stdout);
		goto out;
	}
	ret = run_powershell(script, &out);
	if (ret == -ENOSYS) {
		ret = input_error("a Windows prep is undone by fslab.exe on Windows; here only --dry-run prints the script");
	} else if (ret) {
		fslab_err("the teardown script failed (powershell.exe exit %d); %s is kept:\n%s", ret,
			  pj, out ? out : "");
		ret = -EIO;
	} else if (remove(pj)) {
		ret = -errno;
		fslab_err("cannot remove %s: %s", pj, strerror(errno));
	} else {
		fslab_info("torn down the prep recorded in %s", pj);
	}
out:
	json_decref(prep);
	free(script);
	free(out);
	free(pj);
	return ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
}

/* Windows disks among prep's arguments: the options that name them (OPT_CLAIM). */
static bool winprep_wanted(int argc, char **argv)
{
	return opt_named(&winprep_opt_cmd, OPT_CLAIM, argc, argv) != NULL;
}

/* A Windows --mount-root ("C:\...") among teardown's arguments. */
static bool winteardown_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *r = NULL;

		if (!strcmp(argv[i], "--mount-root") && i + 1 < argc)
			r = argv[i + 1];
		else if (!strncmp(argv[i], "--mount-root=", 13))
			r = argv[i] + 13;
		if (r && r[0] && r[1] == ':' && r[2] == '\\')
			return true;
	}
	return false;
}

/* argv[0] is the subcommand: prep or teardown. */
static bool storage_claims(int argc, char **argv)
{
	return !strcmp(argv[0], "teardown") ? winteardown_wanted(argc, argv)
					    : winprep_wanted(argc, argv);
}

const struct prep_backend prep_be_storage = {
	.name = "storage",
	.sys = PREP_WINDOWS,
	.claims = storage_claims,
	.prep = cmd_winprep,
	.teardown = cmd_winteardown,
	.prep_opts = &winprep_opt_cmd,
	.teardown_opts = &winteardown_opt_cmd,
};
