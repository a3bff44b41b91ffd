// SPDX-License-Identifier: MIT
/* compare_cli.c: `fslab compare` (tables, charts, report) and `fslab sizing` (mailboxes). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base.h"
#include "cmds.h"
#include "compare/compare.h"
#include "compare/import.h"
#include "compare/plot.h"
#include "compare/report.h"
#include "compare/sizing.h"
#include "files.h"
#include "msg.h"
#include "os/os.h"
#include "strbuf.h"
#include "strvec.h"
#include "units.h"

enum out_format { OUT_TEXT, OUT_MD, OUT_CSV, OUT_JSON };

/* Options shared by compare and sizing. */
struct cli {
	struct compare_opts copts;
	struct sizing_opts sizing;
	enum out_format format;
	const char *output, *title, *lab_plan;
	bool force, no_charts;
	struct strvec label_files, label_names; /* --label FILE=NAME */
};

static void cli_release(struct cli *cli)
{
	strvec_clear(&cli->label_files);
	strvec_clear(&cli->label_names);
}

/* --label FILE=NAME (the last '=' splits: file names may hold one). */
static int add_label(struct cli *cli, const char *arg)
{
	const char *eq = strrchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return input_error("--label %s: expected FILE=NAME, e.g. --label ntfs-run1.xml=ntfs",
				   arg);
	if (label_problem(eq + 1))
		return input_error("--label %s: '%s' cannot be a label: %s", arg, eq + 1,
				   label_problem(eq + 1));
	strvec_pushf(&cli->label_files, "%.*s", (int)(eq - arg), arg);
	strvec_push(&cli->label_names, eq + 1);
	cli->copts.nlabels = cli->label_names.nr;
	cli->copts.label_files = cli->label_files.v;
	cli->copts.label_names = cli->label_names.v;
	return 0;
}

enum {
	OPT_BASELINE = 256, OPT_FORMAT, OPT_TITLE, OPT_NO_CHARTS, OPT_ALLOW_MISMATCH,
	OPT_ALLOW_ABORTED, OPT_FORCE, OPT_MESSAGES, OPT_OVERHEAD, OPT_IOPS_PER_MESSAGE,
	OPT_LAB_PLAN, OPT_LABEL,
};

/* compare's usage: the synopsis, the formats it reads (from the importer table, wrapped),
 * then compare_usage. */
static const char compare_synopsis[] =
	"usage: fslab compare RESULT... [--output DIR [--force]] [--baseline LABEL]\n"
	"                     [--format text|md|csv|json] [--title \"...\"] [--no-charts]\n"
	"                     [--allow-mismatch] [--allow-aborted] [--lab-plan FILE]\n"
	"                     [--messages-per-day N[,N...]] [--overhead PCT] [--iops-per-message F]\n"
	"                     [--label FILE=NAME ...]\n"
	"\n";

static const char compare_usage[] =
	"different tools only with --allow-mismatch.  Results with the same label are repeats of one\n"
	"configuration (independent runs).  Each cell is a mean with its 95 % confidence interval.\n"
	"A difference is called significant only when every label has >= 2 runs and Welch's t-test\n"
	"on the per-run values gives p < 0.05, Holm-Bonferroni-corrected over labels x headline\n"
	"metrics; each comes with its minimum detectable difference.  With one run per label the\n"
	"difference is shown with its within-run interval (batch means) and no claim.  A label\n"
	"NAME-aa beside NAME is NAME's A/A check (the noise floor).\n"
	"\n"
	"  --output DIR       also write report.md, report.html, tables.csv, compare.json and\n"
	"                     charts/ (gnuplot) into DIR; an existing non-empty DIR needs --force\n"
	"  --baseline LABEL   the label the others are compared with (default: the first)\n"
	"  --format F         what to print: text (default), md, csv or json\n"
	"  --title TEXT       report title (default \"fslab comparison: A vs B ...\")\n"
	"  --no-charts        no charts in DIR\n"
	"  --allow-mismatch   compare results that differ in an option that shapes the load\n"
	"                     (workload, sizes, cache, seed, ...: docs/COMPARE.md) or in the\n"
	"                     tool or its version, with a warning row (refused otherwise)\n"
	"  --allow-aborted    show aborted runs, marked ABORTED, instead of refusing them\n"
	"  --lab-plan FILE    the lab-plan.json of `fslab lab`: the run order in the Method\n"
	"  --label FILE=NAME  the label of the results in FILE (default: an fslab result's own\n"
	"                     label; other tools' files: the file name without its extension\n"
	"                     and a trailing repeat number, ntfs-2.xml -> ntfs)\n"
	"  --messages-per-day, --overhead, --iops-per-message: the report's sizing section\n"
	"                     (see fslab sizing --help)\n"
	"Exit status: 0 ok, 1 failure, 2 bad input (nothing written).\n";

static const char sizing_synopsis[] =
	"usage: fslab sizing RESULT... [--messages-per-day N[,N...]] [--overhead PCT]\n"
	"                    [--iops-per-message F] [--format text|md|csv|json] [--allow-aborted]\n"
	"                    [--label FILE=NAME ...]\n";

static const char sizing_usage[] =
	"\n"
	"Turns achieved transactional IOPS into Exchange mailboxes supported per message profile:\n"
	"mailboxes = IOPS / (messages/day x F x (1 + PCT/100)).  A planning estimate, not a\n"
	"measurement.\n"
	"\n"
	"  --messages-per-day N[,N...]  the message profiles, messages per mailbox and day (up to\n"
	"                     32); default 50,100,...,500\n"
	"  --overhead PCT     head room on each mailbox's IOPS, 0 to 1000; default 20\n"
	"  --iops-per-message F  F, IOPS per message/day per mailbox; default 0.00067 (Exchange\n"
	"                     2013 sizing: 150 messages/day = 0.101 IOPS)\n"
	"  --format F         what to print: text (default), md, csv or json\n"
	"  --allow-aborted    accept aborted runs (shown, never sized) instead of refusing them\n"
	"  --label FILE=NAME  the label of the results in FILE (as fslab compare)\n"
	"Exit status: 0 ok, 2 bad input.\n";

/* Wrapped as the hand-written lines around them are. */
#define USAGE_WIDTH 92

/* --help of compare or sizing, naming the formats read from the importer table. */
static void print_usage(bool sizing)
{
	struct strbuf sb = STRBUF_INIT;
	char *formats = import_formats(sizing ? IMPORT_OWN : IMPORT_FORMAT, ", ",
				       sizing ? " or " : " and ");
	char *text = sizing ? xasprintf("RESULT: %s (see fslab compare --help).", formats)
			    : xasprintf("Compares result files of `fslab run`, %s (docs/INTEROP.md); "
					"results of", formats);

	strbuf_add_wrapped(&sb, text, 0, 0, USAGE_WIDTH);
	fputs(sizing ? sizing_synopsis : compare_synopsis, stdout);
	printf("%s\n%s", sb.buf, sizing ? sizing_usage : compare_usage);
	strbuf_release(&sb);
	free(formats);
	free(text);
}

static int parse_double(const char *opt, const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		return input_error("%s %s: expected a number from %g to %g", opt, s, min, max);
	*out = v;
	return 0;
}

/* Parse the options of both subcommands; *first gets the index of the first file. */
static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "no-charts", no_argument, NULL, OPT_NO_CHARTS },
	{ "allow-mismatch", no_argument, NULL, OPT_ALLOW_MISMATCH },
	{ "allow-aborted", no_argument, NULL, OPT_ALLOW_ABORTED },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "messages-per-day", required_argument, NULL, OPT_MESSAGES },
	{ "overhead", required_argument, NULL, OPT_OVERHEAD },
	{ "iops-per-message", required_argument, NULL, OPT_IOPS_PER_MESSAGE },
	{ "lab-plan", required_argument, NULL, OPT_LAB_PLAN },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* compare's options that sizing refuses, naming the command they belong to. */
static int sizing_refuses(int opt)
{
	const struct option *lo = longopts;

	if (opt != 'o' && opt != OPT_BASELINE && opt != OPT_TITLE && opt != OPT_NO_CHARTS &&
	    opt != OPT_ALLOW_MISMATCH && opt != OPT_FORCE && opt != OPT_LAB_PLAN)
		return 0;
	while (lo->val != opt)
		lo++;
	return input_error("sizing: --%s is an option of 'fslab compare'; see 'fslab sizing --help'",
			   lo->name);
}

/* --messages-per-day: up to SIZING_MAX_PROFILES message counts, none of them 0. */
static int parse_profiles(struct sizing_opts *so, const char *arg)
{
	int n = parse_list_u64(arg, so->profiles, SIZING_MAX_PROFILES);

	if (n <= 0)
		return input_error("--messages-per-day %s: expected a comma-separated list of up to "
				   "%d message counts, e.g. 50,150,300", arg, SIZING_MAX_PROFILES);
	for (int i = 0; i < n; i++)
		if (!so->profiles[i])
			return input_error("--messages-per-day %s: a profile of 0 messages/day sizes "
					   "nothing", arg);
	so->nprofiles = (size_t)n;
	return 0;
}

static int parse_format(struct cli *cli, const char *arg)
{
	static const struct {
		const char *name;
		enum out_format format;
	} formats[] = {
		{ "text", OUT_TEXT }, { "md", OUT_MD }, { "csv", OUT_CSV }, { "json", OUT_JSON },
	};

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(arg, formats[i].name)) {
			cli->format = formats[i].format;
			return 0;
		}
	return input_error("--format %s: expected text, md, csv or json", arg);
}

/* One option into cli: 0, 1 when --help was printed, or -FSLAB_EINPUT. */
static int take_option(struct cli *cli, int opt, bool sizing, char **argv)
{
	switch (opt) {
	case 'o':
		cli->output = optarg;
		return 0;
	case OPT_BASELINE:
		cli->copts.baseline = optarg;
		return 0;
	case OPT_FORMAT:
		return parse_format(cli, optarg);
	case OPT_TITLE:
		cli->title = optarg;
		return 0;
	case OPT_NO_CHARTS:
		cli->no_charts = true;
		return 0;
	case OPT_ALLOW_MISMATCH:
		cli->copts.allow_mismatch = true;
		return 0;
	case OPT_ALLOW_ABORTED:
		cli->copts.allow_aborted = true;
		return 0;
	case OPT_FORCE:
		cli->force = true;
		return 0;
	case OPT_LAB_PLAN:
		cli->lab_plan = optarg;
		return 0;
	case OPT_LABEL:
		return add_label(cli, optarg);
	case OPT_MESSAGES:
		return parse_profiles(&cli->sizing, optarg);
	case OPT_OVERHEAD:
		return parse_double("--overhead", optarg, 0, 1000, &cli->sizing.overhead_pct);
	case OPT_IOPS_PER_MESSAGE:
		return parse_double("--iops-per-message", optarg, 1e-9, 1,
				    &cli->sizing.iops_per_message);
	case 'h':
		print_usage(sizing);
		return 1;
	default:
		return input_error("%s: unknown option or missing value '%s'; see 'fslab %s --help'",
				   argv[0], argv[optind - 1], argv[0]);
	}
}

static int parse(int argc, char **argv, bool sizing, struct cli *cli, int *first)
{
	int opt, ret;

	memset(cli, 0, sizeof(*cli));
	strvec_init(&cli->label_files);
	strvec_init(&cli->label_names);
	sizing_opts_default(&cli->sizing);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		ret = sizing ? sizing_refuses(opt) : 0;
		if (!ret)
			ret = take_option(cli, opt, sizing, argv);
		if (ret == 1) {
			*first = -1;
			return 0;
		}
		if (ret)
			return ret;
	}
	if (cli->force && !cli->output)
		return input_error("--force only makes sense with --output DIR");
	*first = optind;
	return 0;
}

/* The files write_report() writes into --output DIR besides the charts. */
static const char *const report_files[] = { "tables.csv", "compare.json", "report.md",
					    "report.html" };

/* An existing non-empty output directory is not clobbered without --force. */
static int check_output(const struct cli *cli)
{
	struct os_dir *d;
	bool empty;
	int kind, e;

	if (!cli->output)
		return 0;
	e = os_stat(cli->output, &kind, NULL);
	if (e == -ENOENT)
		return 0;
	if (e)
		return input_error("--output %s: %s", cli->output, strerror(-e));
	if (kind != OS_KIND_DIR)
		return input_error("--output %s: exists and is not a directory; name a new directory",
				   cli->output);
	e = os_opendir(cli->output, &d);
	if (e)
		return input_error("--output %s: %s", cli->output, strerror(-e));
	empty = !os_readdir(d);
	os_closedir(d);
	if (!empty && !cli->force)
		return input_error("--output %s: the directory exists and is not empty; pass --force "
				   "to overwrite the report in it, or name a new directory",
				   cli->output);
	/* what is replaced in it must be regular files (the charts' names are checked as they
	 * are written) */
	for (size_t i = 0; i < ARRAY_SIZE(report_files) && !e; i++) {
		char *p = path_join(cli->output, report_files[i]);

		e = output_check(p, "--output");
		free(p);
	}
	return e;
}

/* Render into memory with fn(f, arg) and write dir/name atomically. */
static int write_out(const char *dir, const char *name, void (*fn)(FILE *f, const void *arg),
		     const void *arg)
{
	char *buf = NULL, *path = path_join(dir, name);
	size_t len = 0;
	struct os_memstream ms;
	FILE *m = os_memstream_open(&ms, &buf, &len);
	int ret;

	fn(m, arg);
	os_memstream_done(&ms);
	ret = write_file_atomic(path, buf, len);
	if (ret && ret != -FSLAB_EINPUT)
		fslab_err("%s: cannot write (%s)", path, strerror(-ret));
	free(buf);
	free(path);
	return ret;
}

/* What the renderers need, behind the void * of write_out(). */
struct render {
	const struct compare *c;
	const struct report_opts *o;
	const struct sizing_opts *s;
	enum doc_format fmt;
};

static void put_json(FILE *f, json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(10));

	if (s)
		fprintf(f, "%s\n", s);
	free(s);
	json_decref(j);
}

static void r_article(FILE *f, const void *arg)
{
	const struct render *r = arg;

	report_article(f, r->fmt, r->c, r->o);
}

static void r_tables(FILE *f, const void *arg)
{
	const struct render *r = arg;

	report_tables(f, r->fmt, r->c, r->o);
}

static void r_csv(FILE *f, const void *arg)
{
	const struct render *r = arg;

	report_csv(f, r->c);
}

static void r_json(FILE *f, const void *arg)
{
	const struct render *r = arg;

	put_json(f, report_json(r->c, r->o));
}

static void r_sizing(FILE *f, const void *arg)
{
	const struct render *r = arg;

	report_sizing(f, r->fmt, r->c, r->s);
}

static void r_sizing_csv(FILE *f, const void *arg)
{
	const struct render *r = arg;

	report_sizing_csv(f, r->c, r->s);
}

static void r_sizing_json(FILE *f, const void *arg)
{
	const struct render *r = arg;

	put_json(f, report_sizing_json(r->c, r->s));
}

/* SOURCE_DATE_EPOCH (reproducible builds) or now. */
static long long generated_at(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	uint64_t v;

	if (e && !parse_u64(e, 0, INT64_MAX, &v))
		return (long long)v;
	return (long long)time(NULL);
}

static int write_report(const struct cli *cli, const struct compare *c, struct report_opts *o,
			struct plot_set *ps)
{
	struct render r = { .c = c, .o = o, .s = &cli->sizing };
	int ret;

	ret = mkdir_p(cli->output, 0755);
	if (ret) {
		fslab_err("--output %s: cannot create the directory (%s)", cli->output,
			  strerror(-ret));
		return ret;
	}
	if (!cli->no_charts) {
		ret = plot_all(c, cli->output, ps);
		if (ret)
			return ret;
		if (ps->skipped)
			fslab_info("%s", ps->skipped);
	}
	o->charts = ps;
	if ((ret = write_out(cli->output, "tables.csv", r_csv, &r)) ||
	    (ret = write_out(cli->output, "compare.json", r_json, &r)))
		return ret;
	r.fmt = DOC_MD;
	if ((ret = write_out(cli->output, "report.md", r_article, &r)))
		return ret;
	r.fmt = DOC_HTML;
	return write_out(cli->output, "report.html", r_article, &r);
}

/* 0 -> ok, -FSLAB_EINPUT -> bad input (2), any other error -> failure (1). */
static int exit_status(int ret)
{
	if (ret == -FSLAB_EINPUT)
		return FSLAB_EXIT_USAGE;
	return ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
}

/*
 * The lab's order from its lab-plan.json ({"order": "shuffled", "seed": N, "rounds": R, ...}):
 * "the lab's order = shuffled (...), seed N, R rounds".  Heap, or NULL after an input error.
 */
static char *lab_plan_note(const char *path, char **stop, double *precision)
{
	json_error_t err;
	json_t *root, *seed;
	const char *order;
	const char *what;
	char *note, sd[32] = "", *text;
	size_t len;
	int ret = read_file(path, &text, &len), kind;

	/* a regular file only: a FIFO would block here forever, a device never end */
	if (ret) {
		if (ret == -EINVAL && !os_stat(path, &kind, NULL) && kind != OS_KIND_FILE)
			input_error("--lab-plan %s: not a regular file (%s); name the lab-plan.json "
				    "that fslab lab wrote", path, os_kind_name(kind));
		else
			input_error("--lab-plan %s: cannot be read (%s); name the lab-plan.json that "
				    "fslab lab wrote", path, strerror(-ret));
		return NULL;
	}
	root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &err);
	free(text);
	if (!root) {
		input_error("--lab-plan %s: %s (line %d); name the lab-plan.json that fslab lab wrote",
			    path, err.text, err.line);
		return NULL;
	}
	order = json_string_value(json_object_get(root, "order"));
	if (!json_is_object(root) || !order) {
		input_error("--lab-plan %s: not a lab plan (no \"order\"); name the lab-plan.json "
			    "that fslab lab wrote", path);
		json_decref(root);
		return NULL;
	}
	if (!strcmp(order, "shuffled"))
		what = "round-robin rounds, the order inside each round shuffled";
	else if (!strcmp(order, "interleaved"))
		what = "round-robin rounds in config order";
	else if (!strcmp(order, "sequential"))
		what = "all repeats of a label back to back";
	else
		what = "as recorded";
	seed = json_object_get(root, "seed");
	if (json_is_number(seed) && !strcmp(order, "shuffled"))
		snprintf(sd, sizeof(sd), ", seed %.0f", json_number_value(seed));
	else if (json_is_string(seed) && !strcmp(order, "shuffled"))
		snprintf(sd, sizeof(sd), ", seed %.20s", json_string_value(seed));
	note = xasprintf("the lab's order = %s (%s%s)", order, what, sd);
	{
		/* an adaptive lab: its precision (the advice's target) and why it stopped */
		json_t *ad = json_object_get(root, "adaptive");
		const char *why = json_string_value(json_object_get(ad, "stop_reason"));
		json_t *pr = json_object_get(ad, "precision_pct");

		if (json_is_number(pr) && json_number_value(pr) > 0 && json_number_value(pr) <= 1000)
			*precision = json_number_value(pr);
		bool plain = true;

		for (const char *k = why; k && *k && plain; k++)
			plain = (unsigned char)*k >= 0x20 && *k != 0x7f;
		/* the documents escape what they print; a control character is no lab's text */
		if (why && (strlen(why) > 400 || !plain)) {
			input_error("--lab-plan %s: its stop_reason is not the lab's own text; name "
				    "the lab-plan.json that fslab lab wrote", path);
			free(note);
			note = NULL;
		} else if (why) {
			*stop = xstrdup(why);
		}
	}
	json_decref(root);
	return note;
}

int cmd_compare(int argc, char **argv)
{
	struct report_opts o = { .generated = -1 };
	struct plot_set ps = { 0 };
	char *order_note = NULL, *stop_note = NULL;
	struct compare c;
	struct render r;
	struct cli cli;
	int first, ret;

	compare_init(&c);
	ret = parse(argc, argv, false, &cli, &first);
	if (ret || first < 0)
		goto out;
	if ((ret = check_output(&cli)))
		goto out;
	if (cli.lab_plan && !(order_note = lab_plan_note(cli.lab_plan, &stop_note,
							      &o.precision_pct))) {
		ret = -FSLAB_EINPUT;
		goto out;
	}
	ret = compare_build(&c, argv + first, (size_t)(argc - first), &cli.copts);
	if (ret)
		goto out;
	o.title = cli.title;
	o.order_note = order_note;
	o.stop_note = stop_note;
	o.sizing = &cli.sizing;
	o.out_dir = cli.output;
	if (cli.output) {
		o.generated = generated_at();
		ret = write_report(&cli, &c, &o, &ps);
		if (ret)
			goto out;
	}
	r = (struct render){ .c = &c, .o = &o, .fmt = cli.format == OUT_MD ? DOC_MD : DOC_TEXT };
	switch (cli.format) {
	case OUT_CSV:
		r_csv(stdout, &r);
		break;
	case OUT_JSON:
		r_json(stdout, &r);
		break;
	default:
		r_tables(stdout, &r);
	}
	if (cli.output)
		fslab_info("report written to %s/report.md and %s/report.html%s", cli.output,
			   cli.output, ps.n ? " (with charts)" : "");
out:
	free(order_note);
	free(stop_note);
	plot_set_release(&ps);
	compare_release(&c);
	cli_release(&cli);
	return exit_status(ret);
}

int cmd_sizing(int argc, char **argv)
{
	struct render r = { 0 };
	struct compare c;
	struct cli cli;
	int first, ret;

	compare_init(&c);
	ret = parse(argc, argv, true, &cli, &first);
	if (ret || first < 0)
		goto out;
	/* Sizing reads each label on its own: no comparability guard. */
	cli.copts.no_guard = true;
	ret = compare_build(&c, argv + first, (size_t)(argc - first), &cli.copts);
	if (ret)
		goto out;
	r.c = &c;
	r.s = &cli.sizing;
	switch (cli.format) {
	case OUT_CSV:
		r_sizing_csv(stdout, &r);
		break;
	case OUT_JSON:
		r_sizing_json(stdout, &r);
		break;
	default:
		r.fmt = cli.format == OUT_MD ? DOC_MD : DOC_TEXT;
		r_sizing(stdout, &r);
	}
out:
	compare_release(&c);
	cli_release(&cli);
	return exit_status(ret);
}
