// SPDX-License-Identifier: MIT
/* winscript.c: the PowerShell that Windows prep runs: the disk query, the prep (GPT, one
 * 1 MiB-aligned partition, Format-Volume with the filesystem's title, an access path) and the
 * teardown.  Every
 * value put into a script goes through ps_quote() or is a number. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "fsprep/win/winprep.h"
#include "lib/strbuf.h"

/* PowerShell treats U+2018..U+201B like ' inside single-quoted strings: double them too. */
char *ps_quote(const char *s)
{
	struct strbuf q = STRBUF_INIT;

	strbuf_addch(&q, '\'');
	for (const char *p = s; *p; p++) {
		const unsigned char *u = (const unsigned char *)p;

		if (*p == '\'') {
			strbuf_addstr(&q, "''");
		} else if (u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x98 && u[2] <= 0x9b) {
			strbuf_add(&q, p, 3);
			strbuf_add(&q, p, 3);
			p += 2;
		} else {
			strbuf_addch(&q, *p);
		}
	}
	strbuf_addch(&q, '\'');
	return strbuf_detach(&q, NULL);
}

static const char preamble[] =
	"$ErrorActionPreference = 'Stop'\n"
	"Set-StrictMode -Version 2.0\n"
	"Import-Module Storage\n"
	"\n";

/* One disk as the C side parses it (fsprep/win/windisk.c); raw PartitionStyle (0/1/2). */
static const char get_disk_fn[] =
	"function Get-FslabDisk([int]$Number) {\n"
	"    $d = Get-Disk -Number $Number -ErrorAction SilentlyContinue\n"
	"    if (-not $d) { return }\n"
	"    $parts = @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue | ForEach-Object {\n"
	"        $v = Get-Volume -Partition $_ -ErrorAction SilentlyContinue\n"
	"        [ordered]@{\n"
	"            PartitionNumber = [int]$_.PartitionNumber; Type = [string]$_.Type\n"
	"            Offset = [uint64]$_.Offset; Size = [uint64]$_.Size\n"
	"            DriveLetter = [string]$_.DriveLetter\n"
	"            AccessPaths = @($_.AccessPaths | ForEach-Object { [string]$_ })\n"
	"            FileSystem = $(if ($v) { [string]$v.FileSystem } else { '' })\n"
	"            FileSystemLabel = $(if ($v) { [string]$v.FileSystemLabel } else { '' })\n"
	"            AllocationUnitSize = $(if ($v) { [uint64]$v.AllocationUnitSize } else { 0 })\n"
	"        }\n"
	"    })\n"
	"    [ordered]@{\n"
	"        Number = [int]$d.Number; FriendlyName = [string]$d.FriendlyName\n"
	"        SerialNumber = [string]$d.SerialNumber; UniqueId = [string]$d.UniqueId\n"
	"        BusType = [string]$d.BusType; Size = [uint64]$d.Size\n"
	"        PartitionStyle = [int]$d.CimInstanceProperties['PartitionStyle'].Value\n"
	"        IsSystem = [bool]$d.IsSystem; IsBoot = [bool]$d.IsBoot\n"
	"        IsOffline = [bool]$d.IsOffline; IsReadOnly = [bool]$d.IsReadOnly\n"
	"        LogicalSectorSize = [int]$d.LogicalSectorSize\n"
	"        PhysicalSectorSize = [int]$d.PhysicalSectorSize\n"
	"        Partitions = $parts\n"
	"    }\n"
	"}\n"
	"\n";

static void facts(struct strbuf *b, const int *disks, size_t n)
{
	strbuf_addstr(b, "$facts = [ordered]@{\n"
		  "    Windows = [string][System.Environment]::OSVersion.VersionString\n"
		  "    PowerShell = [string]$PSVersionTable.PSVersion\n"
		  "    Disks = @(@(");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(b, "%s%d", i ? ", " : "", disks[i]);
	strbuf_addstr(b, ") | ForEach-Object { Get-FslabDisk $_ })\n"
		  "}\n"
		  "'" WIN_FACTS_BEGIN "'\n"
		  "ConvertTo-Json -Depth 6 -Compress -InputObject $facts\n"
		  "'" WIN_FACTS_END "'\n");
}

char *win_query_script(const int *disks, size_t n)
{
	struct strbuf b = STRBUF_INIT;

	strbuf_addstr(&b, "# fslab prep (Windows): what the disks hold; changes nothing\n");
	strbuf_addstr(&b, preamble);
	strbuf_addstr(&b, get_disk_fn);
	facts(&b, disks, n);
	return strbuf_detach(&b, NULL);
}

static const char *const role_name[WIN_NROLES] = { "db", "log" };

char *win_root_trim(const char *root)
{
	size_t n = strlen(root);

	while (n > 3 && root[n - 1] == '\\')
		n--;
	return xasprintf("%.*s", (int)n, root);
}

char *win_access_path(const char *root, enum win_role role)
{
	char *r = win_root_trim(root), *p = xasprintf("%s\\%s\\", r, role_name[role]);

	free(r);
	return p;
}

/* New-FslabVolume: one disk checked again, initialised GPT, one 1 MiB-aligned partition
 * formatted @fs with the cluster asked for, mounted on an access path. */
static void new_volume_fn(struct strbuf *b, const char *fs, const struct win_prep_opts *o)
{
	strbuf_addstr(b, "$made = @()\n"
		  "function New-FslabVolume([int]$Number, [string]$Serial, [uint64]$Size, [bool]$Wipe,\n"
		  "                         [string]$Label, [string]$Path) {\n"
		  "    $d = Get-Disk -Number $Number\n"
		  "    # checked again: disk numbers can change between fslab's check and this script\n"
		  "    if ($d.IsSystem -or $d.IsBoot) { throw \"disk $Number is the system or boot disk: refused\" }\n"
		  "    if ([string]$d.SerialNumber -ne $Serial -or [uint64]$d.Size -ne $Size) {\n"
		  "        throw \"disk $Number is not the disk fslab checked (serial number or size differ): run fslab prep again\"\n"
		  "    }\n"
		  "    $style = [int]$d.CimInstanceProperties['PartitionStyle'].Value\n"
		  "    $nparts = @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue).Count\n"
		  "    if (($style -ne 0 -or $nparts -ne 0) -and -not $Wipe) {\n"
		  "        throw \"disk $Number was initialised after fslab checked it: refused\"\n"
		  "    }\n"
		  "    if ($d.IsOffline) { Set-Disk -Number $Number -IsOffline $false }\n"
		  "    $script:made += $Number\n"
		  "    if ($style -ne 0) { Clear-Disk -Number $Number -RemoveData -RemoveOEM -Confirm:$false }\n"
		  "    Initialize-Disk -Number $Number -PartitionStyle GPT\n"
		  "    $p = New-Partition -DiskNumber $Number -UseMaximumSize -Alignment 1048576\n");
	strbuf_addf(b, "    $null = Format-Volume -Partition $p -FileSystem %s -AllocationUnitSize %llu%s `\n"
		    "        -NewFileSystemLabel $Label -Confirm:$false -Force\n",
		fs, (unsigned long long)o->cluster, win_format_extra(o->fs));
	strbuf_addstr(b, "    $null = New-Item -ItemType Directory -Force -Path $Path\n"
		  "    Add-PartitionAccessPath -DiskNumber $Number -PartitionNumber $p.PartitionNumber -AccessPath $Path\n"
		  "}\n"
		  "\n");
}

/* The end of the prep's try: on any failure, every disk it began is cleared again. */
static const char undo_block[] =
	"    $ok = $true\n"
	"} finally {\n"
	"    if (-not $ok) {\n"
	"        foreach ($n in $made) {\n"
	"            Write-Warning \"undoing disk ${n}: the prep did not finish\"\n"
	"            foreach ($p in @(Get-Partition -DiskNumber $n -ErrorAction SilentlyContinue)) {\n"
	"                foreach ($a in @($p.AccessPaths)) {\n"
	"                    if ($a -and $a -notmatch '^\\\\\\\\\\?\\\\Volume') {\n"
	"                        Remove-PartitionAccessPath -DiskNumber $n -PartitionNumber $p.PartitionNumber `\n"
	"                            -AccessPath $a -ErrorAction SilentlyContinue\n"
	"                    }\n"
	"                }\n"
	"            }\n"
	"            Clear-Disk -Number $n -RemoveData -RemoveOEM -Confirm:$false -ErrorAction SilentlyContinue\n"
	"        }\n"
	"    }\n"
	"}\n"
	"\n";

char *win_prep_script(const struct win_prep_opts *o, const struct win_inventory *inv)
{
	const char *fs = o->fs->title;
	struct strbuf b = STRBUF_INIT;
	char *trimmed = win_root_trim(o->mount_root), *root = ps_quote(trimmed);
	int disks[WIN_NROLES] = { o->disk[WIN_DB], o->disk[WIN_LOG] };

	strbuf_addf(&b, "# fslab prep (Windows): %s on disk %d (database) and disk %d (log), mounted on\n"
		    "# %s\\db\\ and %s\\log\\.  Run as Administrator.  fslab.exe prep runs it\n"
		    "# itself; with --dry-run it only prints it.  A failure or Ctrl-C undoes what it made.\n",
		fs, o->disk[WIN_DB], o->disk[WIN_LOG], trimmed, trimmed);
	strbuf_addstr(&b, preamble);
	strbuf_addstr(&b, get_disk_fn);
	new_volume_fn(&b, fs, o);
	strbuf_addstr(&b, "$ok = $false\n"
		  "try {\n");
	strbuf_addf(&b, "    if (-not (Test-Path -LiteralPath %s -PathType Container)) {\n"
		    "        $null = New-Item -ItemType Directory -Path %s\n"
		    "    }\n", root, root);
	for (int r = 0; r < WIN_NROLES; r++) {
		const struct win_disk *d = win_inventory_disk(inv, o->disk[r]);
		char *serial = ps_quote(d ? d->serial : ""), *path = win_access_path(o->mount_root, r);
		char *qpath = ps_quote(path), *label = xasprintf("'fslab-%s'", role_name[r]);
		bool wipe = d && (d->style != WIN_STYLE_RAW || d->nparts);

		strbuf_addf(&b, "    New-FslabVolume -Number %d -Serial %s -Size %llu -Wipe $%s -Label %s `\n"
			    "        -Path %s\n",
			o->disk[r], serial, (unsigned long long)(d ? d->size : 0),
			wipe && o->force ? "true" : "false", label, qpath);
		free(serial);
		free(path);
		free(qpath);
		free(label);
	}
	strbuf_addstr(&b, undo_block);
	facts(&b, disks, WIN_NROLES);
	free(root);
	free(trimmed);
	return strbuf_detach(&b, NULL);
}

char *win_teardown_script(json_t *prep, bool keep_volumes)
{
	json_t *vols = json_object_get(prep, "volumes");
	struct strbuf b = STRBUF_INIT;

	strbuf_addf(&b, "# fslab teardown (Windows): removes the access paths%s of a prep.\n"
		    "# Run as Administrator.\n",
		keep_volumes ? "" : " and clears the disks (back to RAW)");
	strbuf_addstr(&b, preamble);
	strbuf_addstr(&b, "function Remove-FslabVolume([int]$Number, [string]$Serial, [uint64]$Size, [string]$Path,\n"
		  "                            [bool]$Keep) {\n"
		  "    $d = Get-Disk -Number $Number -ErrorAction SilentlyContinue\n"
		  "    if (-not $d) { Write-Warning \"disk $Number is gone: nothing to undo there\"; return }\n"
		  "    if ($d.IsSystem -or $d.IsBoot -or [string]$d.SerialNumber -ne $Serial -or [uint64]$d.Size -ne $Size) {\n"
		  "        throw \"disk $Number is not the disk fslab prepped (serial number or size differ): refused; undo by hand\"\n"
		  "    }\n"
		  "    foreach ($p in @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue)) {\n"
		  "        if (@($p.AccessPaths) -contains $Path) {\n"
		  "            Remove-PartitionAccessPath -DiskNumber $Number -PartitionNumber $p.PartitionNumber -AccessPath $Path\n"
		  "        }\n"
		  "    }\n"
		  "    if (-not $Keep) { Clear-Disk -Number $Number -RemoveData -RemoveOEM -Confirm:$false }\n"
		  "    if (Test-Path -LiteralPath $Path) { Remove-Item -LiteralPath $Path -Force }\n"
		  "}\n"
		  "\n");
	for (int r = 0; r < WIN_NROLES; r++) {
		json_t *v = json_object_get(vols, role_name[r]);
		char *serial = ps_quote(json_string_value(json_object_get(v, "serial")) ?: "");
		char *path = ps_quote(json_string_value(json_object_get(v, "mountpoint")) ?: "");

		strbuf_addf(&b, "Remove-FslabVolume -Number %lld -Serial %s -Size %lld -Path %s -Keep $%s\n",
			(long long)json_integer_value(json_object_get(v, "disk_number")), serial,
			(long long)json_integer_value(json_object_get(v, "size")), path,
			keep_volumes ? "true" : "false");
		free(serial);
		free(path);
	}
	return strbuf_detach(&b, NULL);
}

char *win_facts_extract(const char *output)
{
	const char *a = strstr(output, WIN_FACTS_BEGIN), *z;

	if (!a)
		return NULL;
	a += strlen(WIN_FACTS_BEGIN);
	z = strstr(a, WIN_FACTS_END);
	if (!z)
		return NULL;
	return xasprintf("%.*s", (int)(z - a), a);
}
