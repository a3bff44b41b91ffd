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

void lab_preflight_system(struct lab *L, struct problems *p)
{
	struct lab_cfg *c = &L->cfg;

	if (!os_is_admin())
		lab_problem(p, "the lab formats disks (Windows prep): run it from a console "
			    "started with \"Run as Administrator\" (a lab whose labels all name "
			    "db_dir/log_dir, volumes you prepared, needs no elevation)");
	if (!os_have_program("powershell"))
		lab_problem(p, "%s: Windows prep formats the disks with PowerShell's storage "
			    "cmdlets, and powershell.exe is not found (Windows Server 2016 and later "
			    "have it; Wine has none): run the lab on Windows, or give db_dir and "
			    "log_dir in [fs NAME] for volumes you prepared", c->path);
	if (c->disk_info && !L->dry_run)
		lab_problem(p, "%s:%d: disk_info previews the per-cell scripts with --dry-run; a "
			    "real lab asks Windows for the disks at every cell: drop it", c->path,
			    c->disk_info_line);
}
