// SPDX-License-Identifier: MIT
/*
 * system_windows.c: a Windows place for a lab's steps (system.h): fslab.exe prep formats two
 * whole disks by number through PowerShell (never killed: it finishes or undoes itself),
 * mount roots are absolute X:\ folders, Windows' OpenSSH hands commands to cmd.exe.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/argv_quote.h"
#include "lab/hosts.h"
#include "lab/labcfg.h"
#include "lab/system.h"
#include "os/os.h"
#include "lib/base.h"

static bool windows_absolute(const char *p)
{
	return isalpha((unsigned char)p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/');
}

/* Windows prep mounts on access paths of an absolute X:\ folder: OUT\mnt\db\ ... */
static char *windows_mount_root(const char *out)
{
	char *abs = os_abs_path(out), *root;

	for (char *p = abs; *p; p++)
		if (*p == '/')
			*p = '\\';
	root = xasprintf("%s%smnt", abs, abs[0] && abs[strlen(abs) - 1] == '\\' ? "" : "\\");
	free(abs);
	return root;
}

static const char *windows_devices_words(const struct lab_cfg *c)
{
	(void)c;
	return "Windows disks";
}

/* fslab.exe prep --fs ntfs|refs --db-disk N --log-disk M (fsprep/win/). */
static void windows_prep_args(const struct lab_where *w, const struct lab_fs *fs, bool force,
			      struct strvec *a)
{
	strvec_push(a, "prep");
	strvec_pushl(a, "--fs", fs->fs, NULL);
	strvec_pushf(a, "--db-disk=%d", w->db_disk);
	strvec_pushf(a, "--log-disk=%d", w->log_disk);
	strvec_pushl(a, "--mount-root", w->mnt, NULL);
	if (fs->cluster)
		strvec_pushl(a, "--cluster", fs->cluster, NULL);
	if (force)
		strvec_push(a, "--force");
}

static void windows_check_fs(const struct lab_fs *f, const struct fs_desc *d,
			     void (*problem)(void *ctx, int line, const char *text), void *ctx)
{
	if (!fs_makes(d, PREP_WINDOWS, false)) {
		char *names = fs_list(PREP_WINDOWS, 0, "%s", ", ", " or ");
		char *lines = fs_list(PREP_WINDOWS, 0, "fs = %s", ", ", " or ");

		lab_system_problem(problem, ctx, f->line, "[fs %s]: Windows prep formats %s, not "
				   "'%s'; add %s to the section, or give db_dir/log_dir for volumes "
				   "you prepared", f->name, names, f->fs, lines);
		free(names);
		free(lines);
	}
	if (f->mkfs_opts || f->mount_opts)
		lab_system_problem(problem, ctx, f->format_line, "[fs %s]: %s: Windows prep takes "
				   "only cluster (the allocation unit, Format-Volume's "
				   "-AllocationUnitSize); drop it", f->name,
				   f->mkfs_opts ? "mkfs_opts" : "mount_opts");
}

static int windows_remote_command(struct strbuf *out, const char *const *argv, const char **why)
{
	return argv_quote_cmd(out, argv, why);
}

/* [devices] for Windows steps: two disks by number; no loop devices, no raw baseline. */
static void windows_check_devices(const struct lab_cfg *c, bool seen,
				  void (*problem)(void *ctx, int line, const char *text), void *ctx)
{
	int lline = c->image_dir_line ? c->image_dir_line : c->db_dev_line ? c->db_dev_line
		    : c->log_dev_line;

	(void)seen;
	if (lline)
		lab_system_problem(problem, ctx, lline, "[devices]: image_dir, db_dev and log_dev "
				   "are Linux's (loop devices, block devices): on Windows give "
				   "db_disk and log_disk (disk numbers as Get-Disk lists them), or "
				   "db_dir and log_dir in [fs NAME] for volumes you prepared");
	if (c->raw_baseline)
		lab_system_problem(problem, ctx, 0, "raw_baseline: the raw-device baseline runs on "
				   "Linux block devices; set raw_baseline = no for a lab on Windows");
	if (!lab_cfg_has_prepped(c))
		return;
	if (c->db_disk < 0 || c->log_disk < 0)
		lab_system_problem(problem, ctx, c->devices_line, "[devices]: give db_disk and "
				   "log_disk (the numbers Get-Disk shows for two empty disks: the "
				   "lab formats them for every cell), or db_dir and log_dir in [fs "
				   "NAME] for volumes you prepared");
	else if (c->db_disk == c->log_disk)
		lab_system_problem(problem, ctx, c->log_disk_line, "[devices]: db_disk and "
				   "log_disk are the same disk; the database and the log get a disk "
				   "each: give two disks");
}

static bool disk_number(const char *s)
{
	return s && *s && strspn(s, "0123456789") == strlen(s) && strlen(s) <= 4;
}

/* Windows prep formats whole disks by their number (docs/PREP.md). */
static unsigned int windows_check_host_devices(const struct lab_host *x, const char *img,
					       const char *db, const char *lg,
					       void (*problem)(void *ctx, int line,
							       const char *text),
					       void *ctx)
{
	if (img) {
		lab_system_problem(problem, ctx, x->line, "[host %s]: a Windows host takes no "
				   "image_dir (Windows prep formats disks): give db_dev = N and "
				   "log_dev = M, the disk numbers Get-Disk shows", x->name);
		return 1;
	}
	if (!disk_number(db) || !disk_number(lg)) {
		lab_system_problem(problem, ctx, x->line, "[host %s]: db_dev and log_dev of a "
				   "Windows host are disk numbers (Get-Disk): give db_dev = N and "
				   "log_dev = M", x->name);
		return 1;
	}
	return 0;
}

const struct lab_system lab_system_windows = {
	.name = "windows",
	.title = "Windows",
	.prep = PREP_WINDOWS,
	.fslab = "fslab.exe",
	.sep = '\\',
	.workdir = "C:\\fslab-lab",
	.gnuplot = " where you compare (or gnuplot for Windows in PATH)",
	.flags = SYS_PREP_UNKILLABLE | SYS_DISKS | SYS_CMD_SHELL | SYS_DRIVES,
	.absolute = windows_absolute,
	.mount_root = windows_mount_root,
	.devices_words = windows_devices_words,
	.prep_args = windows_prep_args,
	.remote_command = windows_remote_command,
	.check_devices = windows_check_devices,
	.check_fs = windows_check_fs,
	.check_host_devices = windows_check_host_devices,
};
