// SPDX-License-Identifier: MIT
/*
 * export_diskspd.c: the load of `fslab run` as DiskSpd command lines and a PowerShell script
 * that runs them, one DiskSpd process per volume and role at the same time, and keeps each
 * one's XML result (-Rxml) for fslab compare.
 *
 * DiskSpd's switches apply to all targets of one process, so every job of the workload's
 * export (workloads/workload.h) is its own process: a simple workload's pattern per --db
 * directory; jetstress per database a database process (32 KiB random, -w = fslab's write
 * share, write-through -Sh, -t = its sessions, -o1), a log process (sequential write-through
 * appends of the measured size, throttled with -g to the measured rate when known) and a BDM
 * process (256 KiB sequential reads, -g = --bdm-rate); backup a sequential reader per
 * database.  -L (latency percentiles) and -D (per-second IOPS: the timeline) always.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "export/export.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* dir + separator + name: '\' for Windows paths (a drive letter or a backslash). */
static char *win_path(const char *dir, const char *name)
{
	bool win = strchr(dir, '\\') || (dir[0] && dir[1] == ':');
	size_t n = strlen(dir);
	char sep = win ? '\\' : '/';


	return xasprintf("%s%s%s", dir, n && dir[n - 1] == sep ? "" : win ? "\\" : "/", name);
}

static int bad_path(const char *p)
{
	bool ctl = false;

	for (const char *c = p; *c; c++)
		ctl |= (unsigned char)*c < 0x20 || *c == 0x7f;
	/* a path goes into a PowerShell string and a DiskSpd argument unquoted */
	if (ctl || strpbrk(p, " \"'`$;&|<>"))
		return input_error("%s: spaces, shell characters and control characters in a "
				   "directory cannot be exported to DiskSpd; use a path without them",
				   p);
	return 0;
}

/* One job's DiskSpd switches and target (heap). */
static char *ds_args(const struct export_ctx *x, const struct wl_job *j, const char *file,
		     unsigned long long d, unsigned long long w)
{
	const struct run_config *o = x->o;
	/* -Su: no software cache (O_DIRECT); -Sh: also write-through; -Sb: buffered */
	const char *cache = !o->buffered ? "-Su" : "-Sb";
	unsigned long long bs = j->bs, seed = o->seed;
	unsigned int wp = (unsigned int)lround(100 - j->read_pct);
	struct strbuf rate = STRBUF_INIT;
	char *pat, *args;

	switch (j->kind) {
	case WJ_PATTERN:
		pat = j->region ? xasprintf("-s -w100 -T%llu", (unsigned long long)j->region)
				: xasprintf("-r%llu -w%u", bs, wp);
		args = xasprintf("-c%llu -B%llu -b%llu %s -t%u -o%u -d%llu -W%llu %s -z%llu -L -D "
				 "-Rxml %s", (unsigned long long)j->size,
				 (unsigned long long)j->offset, bs, pat, j->threads, j->iodepth, d, w,
				 cache, seed, file);
		free(pat);
		return args;
	case WJ_PAGES:
		return xasprintf("-c%llu -b%lluK -r%lluK -w%u -t%u -o%u -d%llu -W%llu -Sh -z%llu -L "
				 "-D -Rxml %s", (unsigned long long)j->size, bs / KiB, bs / KiB, wp,
				 j->threads, j->iodepth, d, w, seed, file);
	case WJ_APPEND:
		/* -g: bytes per millisecond per thread */
		if (j->rate_iops > 0)
			strbuf_addf(&rate, " -g%.0f", fmax(1, j->rate_iops * (double)j->bs / 1000));
		args = xasprintf("-c%lluM -b%llu -s -w100 -t%u -o%u -d%llu -W%llu -Sh%s -L -D -Rxml "
				 "%s", (unsigned long long)(j->size / MiB), bs, j->threads,
				 j->iodepth, d, w, rate.buf, file);
		strbuf_release(&rate);
		return args;
	default:
		if (j->rate > 0)
			strbuf_addf(&rate, " -g%.0f", fmax(1, j->rate / 1e3));
		args = xasprintf("-c%llu -b%lluK -s -w0 -t%u -o%u -d%llu -W%llu -Su%s -L -D -Rxml %s",
				 (unsigned long long)j->size, bs / KiB, j->threads, j->iodepth, d, w,
				 rate.buf, file);
		strbuf_release(&rate);
		return args;
	}
}

static int ds_write(const struct export_ctx *x, FILE *f, FILE *lines)
{
	const struct run_config *o = x->o;
	unsigned long long d = run_config_ns(o->duration_s) / NSEC_PER_SEC;
	unsigned long long w = run_config_ns(o->warmup_s) / NSEC_PER_SEC;
	/* per DiskSpd process: its name and its switches and target, space separated (no quoting
	 * needed: the paths were checked) */
	struct strvec names = STRVEC_INIT, args = STRVEC_INIT;
	int ret = 0;

	for (size_t i = 0; i < o->ndb_dirs && !ret; i++)
		ret = bad_path(o->db_dirs[i]);
	for (size_t i = 0; i < o->nlog_dirs && !ret; i++)
		ret = bad_path(o->log_dirs[i]);
	if (ret)
		return ret;
	for (size_t i = 0; i < x->x.njobs; i++) {
		const struct wl_job *j = &x->x.jobs[i];
		char *name = xasprintf("fslab-diskspd%s.dat", j->file), *file, *a;

		file = win_path(j->dir, name);
		a = ds_args(x, j, file, d, w);
		strvec_push(&names, j->name);
		strvec_push(&args, a);
		free(a);
		free(file);
		free(name);
	}

	fprintf(lines, "# DiskSpd command lines (one process each, run at the same time):\n");
	for (size_t i = 0; i < names.nr; i++)
		fprintf(lines, "#   diskspd.exe %s > %s.xml\n", args.v[i], names.v[i]);
	if (lines != f)
		fflush(lines);
	fprintf(f, "# fslab %s: DiskSpd script written by\n#   %s\n", FSLAB_VERSION, x->cmdline);
	if (x->x.approx)
		fprintf(f, "# %s\n", x->x.approx);
	fprintf(f, "# Run in PowerShell as Administrator: .\\THIS.ps1 [-DiskSpd PATH] [-OutDir DIR]\n"
		"# Each XML result: fslab compare OUTDIR\\NAME.xml ... (docs/INTEROP.md)\n"
		"param([string]$DiskSpd = \"diskspd.exe\", [string]$OutDir = \".\")\n"
		"$ErrorActionPreference = \"Stop\"\n"
		"New-Item -ItemType Directory -Force -Path $OutDir | Out-Null\n"
		"$runs = @(\n");
	for (size_t i = 0; i < names.nr; i++)
		fprintf(f, "  @{ Name = \"%s\"; Args = \"%s\" }%s\n", names.v[i], args.v[i],
			i + 1 < names.nr ? "," : "");
	fprintf(f, ")\n"
		"# one process per volume and role, all at once; stdout (the XML) kept per run\n"
		"$procs = foreach ($r in $runs) {\n"
		"  $xml = Join-Path $OutDir ($r.Name + \".xml\")\n"
		"  Start-Process -FilePath $DiskSpd -ArgumentList $r.Args -NoNewWindow -PassThru `\n"
		"    -RedirectStandardOutput $xml -RedirectStandardError ($xml + \".err\")\n"
		"}\n"
		"$procs | Wait-Process\n"
		"$failed = 0\n"
		"for ($i = 0; $i -lt $runs.Count; $i++) {\n"
		"  if ($procs[$i].ExitCode -ne 0) {\n"
		"    Write-Warning (\"{0}: diskspd exited {1}; see {0}.xml.err\" -f $runs[$i].Name, $procs[$i].ExitCode)\n"
		"    $failed++\n"
		"  }\n"
		"}\n"
		"if ($failed) { exit 1 }\n"
		"Write-Output (\"DiskSpd results in \" + (Resolve-Path $OutDir))\n");
	strvec_clear(&names);
	strvec_clear(&args);
	return 0;
}

const struct exporter export_diskspd = {
	.name = "diskspd",
	.what = "DiskSpd PowerShell script",
	.write = ds_write,
};
