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

#include "run/export.h"
#include "util.h"

/* dir + separator + name: '\' for Windows paths (a drive letter or a backslash). */
static char *win_path(const char *dir, const char *name)
{
	bool win = strchr(dir, '\\') || (dir[0] && dir[1] == ':');
	size_t n = strlen(dir);
	char sep = win ? '\\' : '/';


	return xasprintf("%s%s%s", dir, n && dir[n - 1] == sep ? "" : win ? "\\" : "/", name);
}

struct ds_run {
	char name[48];
	char *args; /* switches and target, space separated (no quoting needed: checked) */
};

static void add_run(struct ds_run **v, size_t *n, const char *name, char *args)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	snprintf((*v)[*n].name, sizeof((*v)[*n].name), "%s", name);
	(*v)[(*n)++].args = args;
}

static int bad_path(const char *p)
{
	/* a path goes into a PowerShell string and a DiskSpd argument unquoted */
	if (strpbrk(p, " \"'`$;&|<>\n\r\t"))
		return input_error("%s: spaces and shell characters in a directory cannot be "
				   "exported to DiskSpd; use a path without them", p);
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
	char *pat, *args, rate[32] = "";

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
			snprintf(rate, sizeof(rate), " -g%.0f",
				 fmax(1, j->rate_iops * (double)j->bs / 1000));
		return xasprintf("-c%lluM -b%llu -s -w100 -t%u -o%u -d%llu -W%llu -Sh%s -L -D -Rxml "
				 "%s", (unsigned long long)(j->size / MiB), bs, j->threads,
				 j->iodepth, d, w, rate, file);
	default:
		if (j->rate > 0)
			snprintf(rate, sizeof(rate), " -g%.0f", fmax(1, j->rate / 1e3));
		return xasprintf("-c%llu -b%lluK -s -w0 -t%u -o%u -d%llu -W%llu -Su%s -L -D -Rxml %s",
				 (unsigned long long)j->size, bs / KiB, j->threads, j->iodepth, d, w,
				 rate, file);
	}
}

static int ds_write(const struct export_ctx *x, FILE *f, FILE *lines)
{
	const struct run_config *o = x->o;
	unsigned long long d = run_config_ns(o->duration_s) / NSEC_PER_SEC;
	unsigned long long w = run_config_ns(o->warmup_s) / NSEC_PER_SEC;
	struct ds_run *runs = NULL;
	size_t nruns = 0;
	int ret = 0;

	for (size_t i = 0; i < o->ndb_dirs && !ret; i++)
		ret = bad_path(o->db_dirs[i]);
	for (size_t i = 0; i < o->nlog_dirs && !ret; i++)
		ret = bad_path(o->log_dirs[i]);
	if (ret)
		return ret;
	for (size_t i = 0; i < x->x.njobs; i++) {
		const struct wl_job *j = &x->x.jobs[i];
		char name[48], *file;

		snprintf(name, sizeof(name), "fslab-diskspd%s.dat", j->file);
		file = win_path(j->dir, name);
		add_run(&runs, &nruns, j->name, ds_args(x, j, file, d, w));
		free(file);
	}

	fprintf(lines, "# DiskSpd command lines (one process each, run at the same time):\n");
	for (size_t i = 0; i < nruns; i++)
		fprintf(lines, "#   diskspd.exe %s > %s.xml\n", runs[i].args, runs[i].name);
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
	for (size_t i = 0; i < nruns; i++)
		fprintf(f, "  @{ Name = \"%s\"; Args = \"%s\" }%s\n", runs[i].name, runs[i].args,
			i + 1 < nruns ? "," : "");
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
	for (size_t i = 0; i < nruns; i++)
		free(runs[i].args);
	free(runs);
	return 0;
}

const struct exporter export_diskspd = {
	.name = "diskspd",
	.what = "DiskSpd PowerShell script",
	.write = ds_write,
};
