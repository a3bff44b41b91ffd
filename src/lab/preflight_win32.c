// SPDX-License-Identifier: MIT
/*
 * preflight_win32.c: what the lab's own preps need on Windows: an elevated console (prep
 * formats disks, as fslab.exe prep does), PowerShell's storage cmdlets (fsprep/win/ runs
 * powershell.exe; Wine has none: a disk lab is refused there before any cell, while labels
 * on volumes the user prepared need neither), and a saved disk query (disk_info) only for
 * --dry-run previews: a real lab asks Windows for the disks at every cell.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"

/*
 * Can PowerShell run the storage cmdlets here?  Asked, not assumed: a powershell.exe may be
 * there and do nothing (Wine's).  false with *why (heap) saying what was found.
 */
static bool storage_cmdlets(char **why)
{
	static const char marker[] = "fslab-storage-cmdlets-ok";
	const char *argv[] = { "powershell.exe", "-NoLogo", "-NoProfile", "-NonInteractive",
			       "-Command", "if (Get-Command Get-Disk -ErrorAction SilentlyContinue) "
			       "{ 'fslab-storage-cmdlets-ok' }", NULL };
	char *out = NULL;
	int rc;

	*why = NULL;
	if (!os_have_program("powershell")) {
		*why = xstrdup("powershell.exe is not found");
		return false;
	}
	rc = os_run(argv, &out);
	if (rc == 0 && out && strstr(out, marker)) {
		free(out);
		return true;
	}
	*why = xasprintf("powershell.exe (exit %d) did not find Get-Disk%s%.200s", rc,
			 out && *out ? ": " : "", out ? out : "");
	free(out);
	return false;
}

void lab_preflight_system(struct lab *L, struct problems *p)
{
	struct lab_cfg *c = &L->cfg;
	char *why = NULL;

	if (!os_is_admin())
		lab_problem(p, "the lab formats disks (Windows prep): run it from a console "
			    "started with \"Run as Administrator\" (a lab whose labels all name "
			    "db_dir/log_dir, volumes you prepared, needs no elevation)");
	if (!storage_cmdlets(&why))
		lab_problem(p, "%s: Windows prep formats the disks with PowerShell's storage "
			    "cmdlets (Get-Disk, Format-Volume), and %s (Windows Server 2016 and "
			    "later have them; Wine's powershell.exe is an empty stand-in): run the "
			    "lab on Windows, or give db_dir and log_dir in [fs NAME] for volumes you "
			    "prepared", c->path, why);
	free(why);
	if (c->disk_info && !L->dry_run)
		lab_problem(p, "%s:%d: disk_info previews the per-cell scripts with --dry-run; a "
			    "real lab asks Windows for the disks at every cell: drop it", c->path,
			    c->disk_info_line);
}
