/* SPDX-License-Identifier: MIT */
/*
 * export.h: `fslab export --to fio|diskspd [run options]`: the load `fslab run` would drive,
 * written for another tool (docs/INTEROP.md "Exporting").  The workload describes its load as
 * jobs (its export hook, workloads/workload.h); one exporter per tool (src/export/export_<tool>.c,
 * behind the table in export.c) writes them.  The options are fslab run's own,
 * parsed by run_parse_args() (src/run/cli.c, its option table src/run/options.c), so the
 * export is the run the same options give.
 */
#ifndef FSLAB_EXPORT_H
#define FSLAB_EXPORT_H

#include <stdio.h>

#include "workloads/workload.h"

struct export_ctx {
	const struct run_config *o;
	struct wl_export x;   /* the load as jobs (the workload's export hook) */
	char *cmdline;        /* the fslab command line, for the header comment */
};

struct exporter {
	const char *name;     /* --to NAME */
	const char *what;     /* "fio job file" */
	/* Write the export to f; the command lines a person types to stdout_lines (may be the
	 * same stream).  0 or -FSLAB_EINPUT. */
	int (*write)(const struct export_ctx *x, FILE *f, FILE *lines);
};

extern const struct exporter export_fio, export_diskspd;

#endif
