/* SPDX-License-Identifier: MIT */
/*
 * export.h: `fslab export --to fio|diskspd [run options]`: the load `fslab run` would drive,
 * written for another tool (docs/INTEROP.md "Exporting").  One exporter per tool
 * (src/run/export_<tool>.c) behind the table in export.c.  The options are fslab run's own,
 * parsed by run_parse_args() (src/run/cli.c, its option table src/run/options.c), so the
 * export is the run the same options give.
 */
#ifndef FSLAB_EXPORT_H
#define FSLAB_EXPORT_H

#include <stdio.h>

#include "workloads/workload.h"

/* What the jetstress approximation needs beyond the options (from --from RESULT, else
 * defaults; docs/INTEROP.md). */
struct export_js {
	double read_pct;      /* database reads in % of database I/Os */
	uint64_t log_bytes;   /* log write size, a multiple of 4 KiB */
	double log_iops;      /* log writes per second per database; 0 = not throttled */
	const char *from;     /* the result the figures came from, or NULL (defaults) */
};

struct export_ctx {
	const struct run_config *o;
	struct export_js js;
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

/* Threads of --db directory i (fslab spreads them round-robin). */
unsigned int export_threads_of(const struct run_config *o, size_t i);

#endif
