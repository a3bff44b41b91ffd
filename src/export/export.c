// SPDX-License-Identifier: MIT
/*
 * export.c: `fslab export`: --to, --from and fslab run's own options (run_parse_args()), the
 * table of exporters, the figures of the jetstress approximation, writing the file.
 */
#include "export/export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/base.h"
#include "cmds.h"
#include "compare/import.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "result/result.h"
#include "run/runP.h"
#include "lib/strbuf.h"

/* A new tool: one file export_<tool>.c and one line here. */
static const struct exporter *const exporters[] = {
	&export_fio,
	&export_diskspd,
};

/* What is not made from a table, in three pieces around what is (export_head()). */
static const char usage_tools[] =
	"\n"
	"Writes the load `fslab run` would drive with the same options for another tool:\n"
	"  fio      a fio job file (run it: fio JOB --output-format=json+ --output=RESULT.json)\n"
	"  diskspd  a PowerShell script that runs DiskSpd per volume and keeps each XML result;\n"
	"           the DiskSpd command lines are printed too\n";
static const char usage_approx[] =
	"is approximated: database 32 KiB random (fslab's read:write ratio), write-through; log\n"
	"sequential write-through of the measured size; BDM 256 KiB sequential, throttled\n"
	"(docs/INTEROP.md says what the approximation loses: transactions, the cache, log rolls).\n"
	"\n";

/* The exporters' names, joined by @sep and @last before the last one; heap. */
static char *exporter_names(const char *sep, const char *last)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(exporters); i++)
		strbuf_add_item(&sb, i, ARRAY_SIZE(exporters), sep, last, exporters[i]->name);
	return strbuf_detach(&sb, NULL);
}

/* "fio or diskspd": --to's choices */
static const char *exporter_choices(void)
{
	static char *names;

	if (!names)
		names = exporter_names(", ", " or ");
	return names;
}

/* --help before the options: the tools and the exactly exported workloads from their tables. */
static void export_head(FILE *f)
{
	char *tools = exporter_names("|", "|");

	fprintf(f, "usage: fslab export --to %s [--from RESULT] [fslab run options]\n", tools);
	fputs(usage_tools, f);
	fprintf(f, "Simple workloads (%s) are exported exactly; jetstress\n",
		workload_names_with(WL_EXPORT_EXACT));
	fputs(usage_approx, f);
	free(tools);
}

/* What fslab export is told besides fslab run's options. */
struct export_args {
	const char *to, *from;
	struct run_params *p; /* fslab run's options */
};

/* --output: fslab run's own, where the run's config keeps it */
static int export_set(void *ctx, const struct opt_def *o, const char *v)
{
	struct export_args *a = ctx;

	return run_opt_cmd.set(a->p, opt_find(&run_opt_cmd, o->name), v);
}

static void *export_run_params(void *ctx)
{
	return ((struct export_args *)ctx)->p;
}

static const struct opt_def export_opts[] = {
	{ .name = "to", .arg = OPT_CHOICE, .metavar = "TOOL", .choices = exporter_choices,
	  .help = "%C", .store = OPT_STR, .off = offsetof(struct export_args, to) },
	{ .name = "from", .arg = OPT_FILE, .metavar = "RESULT",
	  .help = "an fslab jetstress result: its read:write ratio, log write size and log rate "
		  "per database (default: 60 % reads, 8 KiB, not throttled)",
	  .store = OPT_STR, .off = offsetof(struct export_args, from) },
	{ .name = "output", .arg = OPT_FILE, .metavar = "FILE",
	  .help = "write the export there (atomically) instead of stdout", .store = OPT_CALL },
	{ .name = NULL },
};

const struct opt_cmd export_opt_cmd = {
	.name = "export",
	.opts = export_opts,
	.set = export_set,
	.also = &run_opt_cmd,
	.also_ctx = export_run_params,
	.head_fn = export_head,
	.tail = "  other options    as fslab run (see fslab run --help); nothing is created or "
		"touched\n"
		"Exit status: 0 ok, 2 bad input (nothing written).\n",
	.col = 19,
	.width = 88,
};

/* --from: the measured shape of a result of the same workload: its database read share, log
 * write size and log rate per database. */
static int shape_from(const char *path, const char *workload, struct wl_shape *sh)
{
	struct import_list l;
	const struct fslab_result *r;
	double rd, wr, lb;
	int ret = import_file(path, NULL, &l);

	if (ret)
		goto out;
	r = &l.r[0];
	rd = r->classes[CLS_DB_READ].iops;
	wr = r->classes[CLS_DB_WRITE].iops;
	lb = r->classes[CLS_LOG_WRITE].avg_bytes;
	if (strcmp(r->config.workload, workload) || !(rd + wr > 0) || !(lb > 0)) {
		ret = input_error("--from %s: not a %s result with database and log I/O; "
				  "name the result of an fslab run (or Jetstress report) of the "
				  "%s workload", path, workload, workload);
		goto out;
	}
	sh->read_pct = rd / (rd + wr) * 100;
	/* log writes are whole 4 KiB sectors (fslab rewrites the last partial one) */
	sh->log_bytes = (uint64_t)ceil(lb / 4096) * 4096;
	sh->log_iops = r->classes[CLS_LOG_WRITE].iops /
		       (r->config.databases ? r->config.databases : 1);
	if (!isfinite(sh->log_iops))
		sh->log_iops = 0;
	sh->from = path;
out:
	import_list_release(&l);
	return ret;
}

/*
 * The command line, each word quoted as a shell needs it (strbuf_add_sq()), for the header
 * comment of the export; its control characters escaped (str_escape()): a newline in an
 * argument would end the comment and start a line of the job file or script.
 */
static char *join_args(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	char *e;

	strbuf_addstr(&sb, "fslab export");
	for (int i = 1; i < argc; i++) {
		strbuf_addch(&sb, ' ');
		strbuf_add_sq(&sb, argv[i]);
	}
	e = str_escape(sb.buf);
	strbuf_release(&sb);
	return e;
}

/* The options into s (fslab run's) and a (--to, --from): 0, 1 after --help, or
 * -FSLAB_EINPUT.  argv is left as given (the export's header quotes it). */
static int export_args(struct run_state *s, struct export_args *a, int argc, char **argv)
{
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	int first, ret;

	/* getopt_long reorders what it parses */
	memcpy(av, argv, (size_t)argc * sizeof(char *));
	run_params_init(&s->p, &s->res.config);
	ret = opt_parse(&export_opt_cmd, a, argc, av, &first);
	free(av);
	if (ret)
		return ret;
	if (!a->to) {
		char *tools = exporter_names("|", "|");

		ret = input_error("no --to given; name the tool: fslab export --to %s [run "
				  "options]", tools);
		free(tools);
	}
	return ret;
}

/* Can the workload be exported, with the measured shape of --from where it takes one? */
static int export_shape(const struct workload_ops *wl, const char *from, struct wl_shape *sh)
{
	if (!wl->export)
		return input_error("the %s workload cannot be exported (no other tool runs its load); "
				   "choose another --workload", wl->name);
	if (from && !(wl->flags & WL_EXPORT_SHAPE))
		return input_error("--from %s: only the %s approximation takes measured figures; "
				   "the %s workload is exported exactly", from,
				   workload_names_with(WL_EXPORT_SHAPE), wl->name);
	return from ? shape_from(from, wl->name, sh) : 0;
}

/* The export written by @ex, to stdout or atomically to --output. */
static int write_export(const struct exporter *ex, const struct export_ctx *x, const char *output)
{
	struct os_memstream ms;
	char *buf = NULL;
	size_t len = 0;
	int ret, e;
	FILE *f = os_memstream_open(&ms, &buf, &len);

	if (!f) {
		fslab_err("cannot buffer the %s: %s", ex->what, strerror(errno));
		return -errno;
	}
	ret = ex->write(x, f, output ? stdout : f);
	e = os_memstream_done(&ms);
	if (!ret)
		ret = e;
	if (ret) {
		free(buf);
		return ret;
	}
	if (!output) {
		fwrite(buf, 1, len, stdout);
	} else {
		ret = write_file_atomic(output, buf, len);
		if (ret && ret != -FSLAB_EINPUT)
			fslab_err("%s: cannot write the %s (%s)", output, ex->what, strerror(-ret));
		else if (!ret)
			fslab_info("%s written to %s", ex->what, output);
	}
	free(buf);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct run_state *s = xcalloc(1, sizeof(*s));
	struct export_args a = { .p = &s->p };
	const struct exporter *ex = NULL;
	struct export_ctx x = { 0 };
	struct wl_shape sh = { 0 };
	const char *output;
	int ret;

	result_init(&s->res);
	ret = export_args(s, &a, argc, argv);
	if (ret)
		goto done;
	for (size_t i = 0; i < ARRAY_SIZE(exporters) && !ex; i++)
		if (!strcmp(exporters[i]->name, a.to))
			ex = exporters[i];
	if (!ex) {
		ret = input_error("--to %s: not a tool fslab exports to; choose %s", a.to,
				  exporter_choices());
		goto done;
	}
	ret = run_check_args(s);
	if (ret)
		goto done;
	ret = export_shape(s->wl, a.from, &sh);
	/* fio's --steadystate judges other criteria, DiskSpd has none: not the same load */
	if (!ret && (s->res.config.warmup_steady || s->res.config.precondition))
		ret = input_error("--%s: %s runs no SNIA steady-state stage; export with a fixed "
				  "--warmup and no --precondition (precondition the volume by hand)",
				  s->res.config.warmup_steady ? "warmup steady" : "precondition",
				  ex->name);
	/* neither tool searches for a thread count */
	if (!ret && s->res.config.threads_auto)
		ret = input_error("--threads auto: %s runs no tuner; export the count a tuned run "
				  "chose (its result's threads, or fslab run's summary): --threads N",
				  ex->name);
	if (ret)
		goto done;
	output = s->res.config.output;
	if (output && (ret = output_check(output, "--output")))
		goto done;
	x.o = &s->res.config;
	ret = s->wl->export(x.o, &sh, &x.x);
	if (ret)
		goto done;
	x.cmdline = join_args(argc, argv);
	ret = write_export(ex, &x, output);
done:
	if (ret == 1)
		ret = 0; /* --help */
	free(x.cmdline);
	wl_export_release(&x.x);
	run_params_release(&s->p);
	result_release(&s->res); /* the options' values (res.config) */
	free(s);
	return ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
}
