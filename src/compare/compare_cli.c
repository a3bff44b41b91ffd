// SPDX-License-Identifier: MIT
/* compare_cli.c: `fslab compare` (tables, charts, report) and `fslab sizing` (mailboxes). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "cmds.h"
#include "compare/compare.h"
#include "compare/import.h"
#include "compare/plot.h"
#include "compare/report.h"
#include "compare/sizing.h"
#include "os/files.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "os/os.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/units.h"

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

/* compare's description, after the formats it reads (usage_head()) */
static const char compare_text[] =
	"different tools only with --allow-mismatch.  Results with the same label are repeats of one\n"
	"configuration (independent runs).  Each cell is a mean with its 95 % confidence interval.\n"
	"A difference is called significant only when every label has >= 2 runs and Welch's t-test\n"
	"on the per-run values gives p < 0.05, Holm-Bonferroni-corrected over labels x headline\n"
	"metrics; each comes with its minimum detectable difference, and each claim ends in one of\n"
	"four outcomes against an equivalence margin: different, equivalent (two one-sided\n"
	"tests), negligible (significant but inside the margin) or undecided.  With one run per\n"
	"label the difference is shown with its within-run interval (batch means) and no claim.\n"
	"A label NAME-aa beside NAME is NAME's A/A check (the noise floor).\n"
	"\n";

/* Wrapped as the hand-written lines around them are. */
#define USAGE_WIDTH 92

/* What --format takes, in --help's order. */
static const struct {
	const char *name;
	enum out_format format;
} formats[] = {
	{ "text", OUT_TEXT }, { "md", OUT_MD }, { "csv", OUT_CSV }, { "json", OUT_JSON },
};

/* "text, md, csv or json" (sep ", "), "text|md|csv|json" (sep "|") */
static char *format_names_sep(const char *sep, const char *last)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		strbuf_add_item(&sb, i, ARRAY_SIZE(formats), sep, last, formats[i].name);
	return strbuf_detach(&sb, NULL);
}

static const char *format_names(void)
{
	static char *names;

	if (!names)
		names = format_names_sep(", ", " or ");
	return names;
}

/* "text (default), md, csv or json": --format's choices in --help */
static const char *format_choices(void)
{
	static char *names;

	if (!names) {
		char *rest = format_names_sep(", ", " or ");

		names = xasprintf("%s (default)%s", formats[0].name, rest + strlen(formats[0].name));
		free(rest);
	}
	return names;
}

/* --help before the options: the synopsis, then the formats it reads (from the importer
 * table, wrapped as the lines around them) */
static void usage_head(FILE *f, bool sizing)
{
	struct strbuf sb = STRBUF_INIT;
	char *formats = import_formats(sizing ? IMPORT_OWN : IMPORT_FORMAT, ", ",
				       sizing ? " or " : " and ");
	char *text = sizing ? xasprintf("RESULT: %s (see fslab compare --help).", formats)
			    : xasprintf("Compares result files of `fslab run`, %s (docs/INTEROP.md); "
					"results of", formats);
	char *bars = format_names_sep("|", "|");

	strbuf_add_wrapped(&sb, text, 0, 0, USAGE_WIDTH);
	if (sizing)
		fprintf(f,
"usage: fslab sizing RESULT... [--messages-per-day N[,N...]] [--overhead PCT]\n"
"                    [--iops-per-message F] [--format %s] [--allow-aborted]\n"
"                    [--label FILE=NAME ...]\n%s\n"
"\n"
"Turns achieved transactional IOPS into Exchange mailboxes supported per message profile:\n"
"mailboxes = IOPS / (messages/day x F x (1 + PCT/100)).  A planning estimate, not a\n"
"measurement.\n"
"\n", bars, sb.buf);
	else
		fprintf(f,
"usage: fslab compare RESULT... [--output DIR [--force]] [--baseline LABEL]\n"
"                     [--format %s] [--title \"...\"] [--no-charts]\n"
"                     [--allow-mismatch] [--allow-aborted] [--lab-plan FILE]\n"
"                     [--equivalence PCT|none]\n"
"                     [--messages-per-day N[,N...]] [--overhead PCT] [--iops-per-message F]\n"
"                     [--label FILE=NAME ...]\n"
"\n%s\n%s", bars, sb.buf, compare_text);
	strbuf_release(&sb);
	free(formats);
	free(text);
	free(bars);
}

static void compare_head(FILE *f)
{
	usage_head(f, false);
}

static void sizing_head(FILE *f)
{
	usage_head(f, true);
}

/* The options set() takes (the others are stored by the parser). */
enum { CO_FORMAT, CO_LABEL, CO_MESSAGES, CO_OVERHEAD, CO_IOPS_PER_MESSAGE, CO_EQUIVALENCE };

static int take_option(void *ctx, const struct opt_def *o, const char *arg);

#define CLI(f) .off = offsetof(struct cli, f)

/* --format: the same in both */
#define FORMAT_OPT { .name = "format", .arg = OPT_CHOICE, .metavar = "F", \
		     .choices = format_choices, .help = "what to print: %C", \
		     .id = CO_FORMAT }

static const struct opt_pos results_pos[] = {
	{ .name = "RESULT", .arg = OPT_FILE, .flags = OPT_REPEAT },
	{ NULL },
};

static const struct opt_def compare_opts[] = {
	{ .name = "output", .short_name = 'o', .arg = OPT_DIR, .metavar = "DIR",
	  .help = "also write report.md, report.html, tables.csv, compare.json and charts/ "
		  "(gnuplot) into DIR; a non-empty DIR needs --force",
	  .store = OPT_STR, CLI(output) },
	{ .name = "force", .help = "replace the report in an existing non-empty DIR",
	  .store = OPT_TRUE, CLI(force) },
	{ .name = "baseline", .arg = OPT_WORD, .metavar = "LABEL",
	  .help = "the label the others are compared with (default: the first)",
	  .store = OPT_STR, CLI(copts.baseline) },
	FORMAT_OPT,
	{ .name = "title", .arg = OPT_WORD, .metavar = "TEXT",
	  .help = "report title (default \"fslab comparison: A vs B ...\")", .store = OPT_STR,
	  CLI(title) },
	{ .name = "no-charts", .help = "no charts in DIR", .store = OPT_TRUE, CLI(no_charts) },
	{ .name = "allow-mismatch",
	  .help = "compare results that differ in an option that shapes the load (workload, "
		  "sizes, cache, seed, ...: docs/COMPARE.md) or in the tool or its version, with a "
		  "warning row (refused otherwise)",
	  .store = OPT_TRUE, CLI(copts.allow_mismatch) },
	{ .name = "allow-aborted",
	  .help = "show aborted runs, marked ABORTED, instead of refusing them", .store = OPT_TRUE,
	  CLI(copts.allow_aborted) },
	{ .name = "lab-plan", .arg = OPT_FILE, .metavar = "FILE",
	  .help = "the lab-plan.json of `fslab lab`: the run order in the Method; for a lab that "
		  "stopped when decided its looks and its margin",
	  .store = OPT_STR, CLI(lab_plan) },
	{ .name = "equivalence", .arg = OPT_WORD, .metavar = "PCT",
	  .help = "the equivalence margin, +-PCT % (default 5, or the lab's); none: no "
		  "equivalence test, a significant difference below 1 % is negligible",
	  .id = CO_EQUIVALENCE },
	{ .name = "label", .arg = OPT_WORD, .metavar = "FILE=NAME",
	  .help = "the label of the results in FILE (default: an fslab result's own label; other "
		  "tools' files: the file name without its extension and a trailing repeat number, "
		  "ntfs-2.xml -> ntfs)",
	  .flags = OPT_REPEAT, .id = CO_LABEL },
	{ .name = "messages-per-day", .arg = OPT_WORD, .metavar = "N[,N...]", .flags = OPT_JOIN,
	  .id = CO_MESSAGES },
	{ .name = "overhead", .arg = OPT_WORD, .metavar = "PCT", .flags = OPT_JOIN,
	  .id = CO_OVERHEAD },
	{ .name = "iops-per-message", .arg = OPT_WORD, .metavar = "F",
	  .help = "the report's sizing section\n(see fslab sizing --help)",
	  .id = CO_IOPS_PER_MESSAGE },
	{ .name = NULL },
};

static const struct opt_def sizing_opts[] = {
	{ .name = "messages-per-day", .arg = OPT_WORD, .metavar = "N[,N...]",
	  .help = "the message profiles, messages per mailbox and day (up to 32); default "
		  "50,100,...,500",
	  .id = CO_MESSAGES },
	{ .name = "overhead", .arg = OPT_WORD, .metavar = "PCT",
	  .help = "head room on each mailbox's IOPS, 0 to 1000; default 20", .id = CO_OVERHEAD },
	{ .name = "iops-per-message", .arg = OPT_WORD, .metavar = "F",
	  .help = "F, IOPS per message/day per mailbox; default 0.00067 (Exchange 2013 sizing: "
		  "150 messages/day = 0.101 IOPS)",
	  .id = CO_IOPS_PER_MESSAGE },
	FORMAT_OPT,
	{ .name = "allow-aborted",
	  .help = "accept aborted runs (shown, never sized) instead of refusing them",
	  .store = OPT_TRUE, CLI(copts.allow_aborted) },
	{ .name = "label", .arg = OPT_WORD, .metavar = "FILE=NAME",
	  .help = "the label of the results in FILE (as fslab compare)", .flags = OPT_REPEAT,
	  .id = CO_LABEL },
	{ .name = NULL },
};

const struct opt_cmd compare_opt_cmd = {
	.name = "compare",
	.opts = compare_opts,
	.pos = results_pos,
	.set = take_option,
	.head_fn = compare_head,
	.tail = "Exit status: 0 ok, 1 failure, 2 bad input (nothing written).\n",
	.col = 21,
	.width = 86,
};

const struct opt_cmd sizing_opt_cmd = {
	.name = "sizing",
	.opts = sizing_opts,
	.pos = results_pos,
	.set = take_option,
	.sibling = &compare_opt_cmd,
	.head_fn = sizing_head,
	.tail = "Exit status: 0 ok, 2 bad input.\n",
	.col = 21,
	.width = 88,
};

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
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
		if (!strcmp(arg, formats[i].name)) {
			cli->format = formats[i].format;
			return 0;
		}
	return input_error("--format %s: expected %s", arg, format_names());
}

/* --equivalence PCT (a trailing % allowed, as in a lab config) or none. */
static int parse_equivalence(struct cli *cli, const char *arg)
{
	char *v = xstrdup(arg), *pct = strchr(v, '%');
	int ret;

	if (!strcmp(arg, "none")) {
		free(v);
		cli->copts.equivalence_pct = -1;
		return 0;
	}
	if (pct && !pct[1] && pct > v)
		*pct = 0;
	ret = parse_double("--equivalence", v, 0.1, 100, &cli->copts.equivalence_pct);
	free(v);
	return ret;
}

/* A value of either command into cli: 0 or -FSLAB_EINPUT. */
static int take_option(void *ctx, const struct opt_def *o, const char *arg)
{
	struct cli *cli = ctx;

	switch (o->id) {
	case CO_FORMAT:
		return parse_format(cli, arg);
	case CO_LABEL:
		return add_label(cli, arg);
	case CO_EQUIVALENCE:
		return parse_equivalence(cli, arg);
	case CO_MESSAGES:
		return parse_profiles(&cli->sizing, arg);
	case CO_OVERHEAD:
		return parse_double("--overhead", arg, 0, 1000, &cli->sizing.overhead_pct);
	case CO_IOPS_PER_MESSAGE:
		return parse_double("--iops-per-message", arg, 1e-9, 1,
				    &cli->sizing.iops_per_message);
	}
	return 0;
}

/* Parse the options of either subcommand; *first gets the index of the first file, -1 after
 * --help. */
static int parse(int argc, char **argv, bool sizing, struct cli *cli, int *first)
{
	int ret;

	memset(cli, 0, sizeof(*cli));
	strvec_init(&cli->label_files);
	strvec_init(&cli->label_names);
	sizing_opts_default(&cli->sizing);
	ret = opt_parse(sizing ? &sizing_opt_cmd : &compare_opt_cmd, cli, argc, argv, first);
	if (ret == 1) {
		*first = -1;
		return 0;
	}
	if (ret)
		return ret;
	if (cli->force && !cli->output)
		return input_error("--force only makes sense with --output DIR");
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

/*
 * A lab that stops when decided, from its lab-plan.json's "adaptive" ({"stop": "decided",
 * "min_rounds", "max_rounds", "final_look", "equivalence_pct"}): its looks, which decide at
 * which boundary its claims are judged, and its margin.  1 when it is one, 0 when not (or
 * the plan is of another kind of lab), -FSLAB_EINPUT for a plan that says nonsense.
 */
static int lab_plan_decided(const char *path, struct seq_plan *seq, double *margin)
{
	json_t *root, *ad, *mn, *mx, *eq;
	char *text;
	size_t len;
	int ret = 0;

	if (read_file(path, &text, &len))
		return 0; /* lab_plan_note() said why */
	root = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, NULL);
	free(text);
	ad = json_object_get(root, "adaptive");
	mn = json_object_get(ad, "min_rounds");
	mx = json_object_get(ad, "max_rounds");
	eq = json_object_get(ad, "equivalence_pct");
	if (json_is_number(eq) && !(json_number_value(eq) > 0 && json_number_value(eq) <= 100))
		ret = input_error("--lab-plan %s: equivalence_pct %g is not a margin; name the "
				  "lab-plan.json that fslab lab wrote", path, json_number_value(eq));
	else if (json_is_number(eq))
		*margin = json_number_value(eq);
	else if (json_is_string(eq) && !strcmp(json_string_value(eq), "none"))
		*margin = -1;
	if (!ret && json_is_string(json_object_get(ad, "stop")) &&
	    !strcmp(json_string_value(json_object_get(ad, "stop")), "decided")) {
		double a = json_number_value(mn), b = json_number_value(mx);

		if (!(a >= 2 && a <= b && b <= 100 && a == floor(a) && b == floor(b)))
			ret = input_error("--lab-plan %s: min_rounds and max_rounds are not a lab's "
					  "rounds; name the lab-plan.json that fslab lab wrote", path);
		else {
			*seq = (struct seq_plan){ .min_rounds = (unsigned int)a,
						  .max_rounds = (unsigned int)b,
						  .final = json_is_true(json_object_get(ad,
							   "final_look")) };
			ret = 1;
		}
	}
	json_decref(root);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct report_opts o = { .generated = -1 };
	struct plot_set ps = { 0 };
	char *order_note = NULL, *stop_note = NULL;
	struct seq_plan seq;
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
	if (cli.lab_plan) {
		double margin = 0;

		ret = lab_plan_decided(cli.lab_plan, &seq, &margin);
		if (ret < 0)
			goto out;
		if (ret)
			cli.copts.seq = &seq;
		if (!cli.copts.equivalence_pct)
			cli.copts.equivalence_pct = margin; /* the lab's, unless given here */
		ret = 0;
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
