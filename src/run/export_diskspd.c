// SPDX-License-Identifier: MIT
/*
 * export_diskspd.c: the load of `fslab run` as DiskSpd command lines and a PowerShell script
 * that runs them, one DiskSpd process per volume and role at the same time, and keeps each
 * one's XML result (-Rxml) for fslab compare.
 *
 * DiskSpd's switches apply to all targets of one process, so every role is its own process:
 * simple workloads one per --db directory; jetstress per database a database process (32 KiB
 * random, -w = fslab's write share, write-through -Sh, -t = its sessions, -o1), a log process
 * (sequential write-through appends of the measured size, throttled with -g to the measured
 * rate when known) and a BDM process (256 KiB sequential reads, -g = --bdm-rate).  -L
 * (latency percentiles) and -D (per-second IOPS: the timeline) always.
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

static int ds_write(const struct export_ctx *x, FILE *f, FILE *lines)
{
	const struct run_config *o = x->o;
	unsigned long long d = run_config_ns(o->duration_s) / NSEC_PER_SEC;
	unsigned long long w = run_config_ns(o->warmup_s) / NSEC_PER_SEC;
	/* -Su: no software cache (O_DIRECT); -Sh: also write-through; -Sw... buffered */
	const char *cache = !o->buffered ? "-Su" : "-Sb";
	struct ds_run *runs = NULL;
	size_t nruns = 0;
	int ret = 0;

	for (size_t i = 0; i < o->ndb_dirs && !ret; i++)
		ret = bad_path(o->db_dirs[i]);
	for (size_t i = 0; i < o->nlog_dirs && !ret; i++)
		ret = bad_path(o->log_dirs[i]);
	if (ret)
		return ret;
	if (strcmp(o->workload, "jetstress")) {
		for (size_t i = 0; i < o->ndb_dirs; i++) {
			unsigned int t = export_threads_of(o, i);
			char *file = win_path(o->db_dirs[i], "fslab-diskspd.dat"), name[32];
			const char *pat;
			char *mix;

			if (!t) {
				free(file);
				continue;
			}
			if (!strcmp(o->workload, "seqwrite")) {
				uint64_t region = (o->db_size - 32 * KiB) / o->bs / t * o->bs;

				mix = xasprintf("-s -w100 -T%llu", (unsigned long long)region);
			} else {
				unsigned int wp = !strcmp(o->workload, "randread") ? 0
						: !strcmp(o->workload, "randwrite") ? 100
						: 100 - o->rwmixread;

				mix = xasprintf("-r%llu -w%u", (unsigned long long)o->bs, wp);
			}
			pat = mix;
			snprintf(name, sizeof(name), "%s-%zu", o->workload, i + 1);
			add_run(&runs, &nruns, name, xasprintf(
				"-c%llu -B32768 -b%llu %s -t%u -o%u -d%llu -W%llu %s -z%llu -L -D -Rxml %s",
				(unsigned long long)o->db_size, (unsigned long long)o->bs, pat, t,
				o->iodepth, d, w, cache, (unsigned long long)o->seed, file));
			free(mix);
			free(file);
		}
	} else {
		for (unsigned int k = 0; k < o->databases; k++) {
			char name[40], *db, *log;
			unsigned int wp = (unsigned int)lround(100 - x->js.read_pct);

			snprintf(name, sizeof(name), "fslab-diskspd-db%u.dat", k + 1);
			db = win_path(o->db_dirs[k % o->ndb_dirs], name);
			snprintf(name, sizeof(name), "fslab-diskspd-log%u.dat", k + 1);
			log = win_path(o->log_dirs[k % o->nlog_dirs], name);
			snprintf(name, sizeof(name), "db%u", k + 1);
			add_run(&runs, &nruns, name, xasprintf(
				"-c%llu -b32K -r32K -w%u -t%u -o1 -d%llu -W%llu -Sh -z%llu -L -D -Rxml %s",
				(unsigned long long)o->db_size, wp, export_threads_of(o, k), d, w,
				(unsigned long long)o->seed, db));
			snprintf(name, sizeof(name), "log%u", k + 1);
			if (x->js.log_iops > 0)
				add_run(&runs, &nruns, name, xasprintf(
					"-c64M -b%llu -s -w100 -t1 -o1 -d%llu -W%llu -Sh -g%.0f -L -D -Rxml %s",
					(unsigned long long)x->js.log_bytes, d, w,
					fmax(1, x->js.log_iops * (double)x->js.log_bytes / 1000), log));
			else
				add_run(&runs, &nruns, name, xasprintf(
					"-c64M -b%llu -s -w100 -t1 -o1 -d%llu -W%llu -Sh -L -D -Rxml %s",
					(unsigned long long)x->js.log_bytes, d, w, log));
			if (o->bdm_mbps > 0) {
				snprintf(name, sizeof(name), "bdm%u", k + 1);
				/* -g: bytes per millisecond per thread */
				add_run(&runs, &nruns, name, xasprintf(
					"-c%llu -b256K -s -w0 -t1 -o1 -d%llu -W%llu -Su -g%.0f -L -D -Rxml %s",
					(unsigned long long)o->db_size, d, w, fmax(1, o->bdm_mbps * 1e3),
					db));
			}
			free(db);
			free(log);
		}
	}

	fprintf(lines, "# DiskSpd command lines (one process each, run at the same time):\n");
	for (size_t i = 0; i < nruns; i++)
		fprintf(lines, "#   diskspd.exe %s > %s.xml\n", runs[i].args, runs[i].name);
	if (lines != f)
		fflush(lines);
	fprintf(f, "# fslab %s: DiskSpd script written by\n#   %s\n", FSLAB_VERSION, x->cmdline);
	if (!strcmp(o->workload, "jetstress"))
		fprintf(f, "# jetstress approximated: %.1f %% database reads (%s), %llu-byte log "
			"writes%s; no transactions, no cache, no log rolls, no checksum pass\n",
			x->js.read_pct, x->js.from ? x->js.from : "fslab's default shape",
			(unsigned long long)x->js.log_bytes,
			x->js.log_iops > 0 ? " at the measured rate" : ", not throttled");
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
