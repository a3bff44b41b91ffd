// SPDX-License-Identifier: MIT
/* merge_cli.c: `fslab merge`: the per-host results of one cell into a cluster result
 * (merge.h), written atomically; exit 0 complete, 1 partial, 2 bad input. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "cmds.h"
#include "os/files.h"
#include "merge/merge.h"
#include "lib/msg.h"
#include "lib/opt.h"
#include "os/os.h"
#include "lib/strbuf.h"
#include "lib/units.h"

struct merge_cli {
	struct merge_input *in;
	size_t n;
	char **owned; /* strings to free */
	size_t nowned;
};

static char *keep(struct merge_cli *c, char *s)
{
	c->owned = xrealloc(c->owned, (c->nowned + 1) * sizeof(char *));
	c->owned[c->nowned++] = s;
	return s;
}

static struct merge_input *host(struct merge_cli *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->in[i].name, name))
			return &c->in[i];
	c->in = xrealloc(c->in, (c->n + 1) * sizeof(*c->in));
	c->in[c->n] = (struct merge_input){ .name = keep(c, xstrdup(name)), .offset_s = NAN,
					    .rtt_s = NAN };
	return &c->in[c->n++];
}

/* "NAME=VALUE": the name (kept), *value points into arg; -FSLAB_EINPUT without '=' */
static int split(struct merge_cli *c, const char *opt, const char *arg, const char **name,
		 const char **value)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return input_error("--%s '%s': give NAME=VALUE", opt, arg);
	*name = keep(c, xasprintf("%.*s", (int)(eq - arg), arg));
	*value = eq + 1;
	return 0;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	uint64_t ns;

	*out = strtod(s, &end);
	if (end != s && !*end && isfinite(*out))
		return 0;
	if (!parse_duration(s, &ns)) {
		*out = ns / 1e9;
		return 0;
	}
	return -EINVAL;
}

static int add_clock(struct merge_cli *c, const char *name, double off, double rtt)
{
	struct merge_input *h = host(c, name);

	if (!isfinite(off) || fabs(off) > 86400 || !(isnan(rtt) || (rtt >= 0 && rtt < 3600)))
		return input_error("clock of host %s: offset %g s, round trip %g s is not a "
				   "measurement; give seconds, such as 0.0012,0.0004", name, off, rtt);
	h->offset_s = off;
	h->rtt_s = rtt;
	return 0;
}

/* fslab hosts CONFIG check --json FILE: {"hosts": [{"name", "clock_offset_s", "clock_rtt_s"}]} */
static int clock_file(struct merge_cli *c, const char *path)
{
	json_error_t jerr;
	json_t *j, *a, *v;
	char *text;
	size_t i, len;
	int ret = read_file(path, &text, &len), kind;

	/* a regular file only: a FIFO would block here forever, a device never end */
	if (ret == -EINVAL && !os_stat(path, &kind, NULL) && kind != OS_KIND_FILE)
		return input_error("--clock-file %s: not a regular file (%s); give the file fslab "
				   "hosts CONFIG check --json wrote", path, os_kind_name(kind));
	if (ret)
		return input_error("--clock-file %s: cannot be read (%s); give the file fslab hosts "
				   "CONFIG check --json wrote", path, strerror(-ret));
	j = json_loadb(text, len, 0, &jerr);
	free(text);
	if (!j)
		return input_error("--clock-file %s: %s (line %d); give the file fslab hosts CONFIG "
				   "check --json wrote", path, jerr.text, jerr.line);
	a = json_object_get(j, "hosts");
	if (!json_is_array(a))
		ret = input_error("--clock-file %s: no \"hosts\" array; give the file fslab hosts "
				  "CONFIG check --json wrote", path);
	json_array_foreach(a, i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		json_t *off = json_object_get(v, "clock_offset_s"), *rtt = json_object_get(v, "clock_rtt_s");

		if (ret)
			break;
		if (!name || merge_name_problem(name))
			ret = input_error("--clock-file %s: host %zu has no usable \"name\"", path, i + 1);
		else if (json_is_number(off))
			ret = add_clock(c, name, json_number_value(off),
					json_is_number(rtt) ? json_number_value(rtt) : NAN);
	}
	json_decref(j);
	return ret;
}

/* "results/xfs-8t-r1.node2.json" -> "node2" */
static char *name_of_file(const char *file)
{
	const char *base = strrchr(file, '/'), *end, *dot;

	base = base ? base + 1 : file;
	end = strlen(base) > 5 && !strcmp(base + strlen(base) - 5, ".json") ? base + strlen(base) - 5
									  : base + strlen(base);
	for (dot = end; dot > base && dot[-1] != '.'; dot--)
		;
	if (dot == base)
		return NULL;
	return xasprintf("%.*s", (int)(end - dot), dot);
}

static int check_output(const struct merge_cli *c, const char *out)
{
	char *dir = xstrdup(out), *slash = strrchr(dir, '/'), *rout;
	int ret = output_check(out, "--output");

	if (ret) {
		free(dir);
		return ret;
	}
	if (slash)
		slash[slash == dir] = 0;
	else
		strcpy(dir, ".");
	if (os_dir_can_create(dir))
		ret = input_error("--output %s: cannot create files in %s; give a writable directory",
				  out, dir);
	rout = os_realpath(out);
	for (size_t i = 0; !ret && rout && i < c->n; i++) {
		char *r = c->in[i].file ? os_realpath(c->in[i].file) : NULL;

		if (r && !strcmp(r, rout))
			ret = input_error("--output %s is host %s's result: the cluster result needs a "
					  "file of its own", out, c->in[i].name);
		free(r);
	}
	free(rout);
	free(dir);
	return ret;
}

/* --host NAME=FILE, or --missing NAME=WHY */
static int host_arg(struct merge_cli *c, const char *arg, bool missing)
{
	const char *name, *value;
	struct merge_input *h;
	int ret = split(c, missing ? "missing" : "host", arg, &name, &value);

	if (ret)
		return ret;
	h = host(c, name);
	if ((h->file || h->missing) && missing)
		ret = input_error("--missing %s: host %s is given twice", arg, name);
	else if (h->file || h->missing)
		ret = input_error("--host %s: host %s is given twice; one result per host", arg, name);
	if (missing)
		h->missing = value;
	else
		h->file = value;
	return ret;
}

/* --clock NAME=OFFSET[,RTT] */
static int clock_arg(struct merge_cli *c, const char *arg)
{
	const char *name, *value;
	double off, rtt = NAN;
	char *comma, *v;
	int ret = split(c, "clock", arg, &name, &value);

	if (ret)
		return ret;
	v = keep(c, xstrdup(value));
	comma = strchr(v, ',');
	if (comma)
		*comma++ = 0;
	if (parse_seconds(v, &off) || (comma && parse_seconds(comma, &rtt)))
		return input_error("--clock %s: give NAME=OFFSET or NAME=OFFSET,RTT in seconds, such "
				   "as node2=-0.0031,0.0008", arg);
	return add_clock(c, name, off, rtt);
}

/* What fslab merge is told: the hosts (c), the options of the merge (mo), the output. */
struct merge_args {
	struct merge_cli *c;
	struct merge_opts *mo;
	const char *output;
};

enum { MA_HOST, MA_MISSING, MA_CLOCK, MA_CLOCK_FILE, MA_CLOCK_LIMIT, MA_LABEL };

static int merge_set(void *ctx, const struct opt_def *o, const char *arg)
{
	struct merge_args *a = ctx;

	switch (o->id) {
	case MA_HOST:
	case MA_MISSING:
		return host_arg(a->c, arg, o->id == MA_MISSING);
	case MA_CLOCK:
		return clock_arg(a->c, arg);
	case MA_CLOCK_FILE:
		return clock_file(a->c, arg);
	case MA_CLOCK_LIMIT:
		if (parse_seconds(arg, &a->mo->clock_limit_s) || !(a->mo->clock_limit_s > 0) ||
		    a->mo->clock_limit_s > 3600)
			return input_error("--clock-limit '%s': give seconds above 0, such as 0.5 or "
					   "200ms", arg);
		return 0;
	case MA_LABEL:
		a->mo->label = arg;
		if (label_problem(arg))
			return input_error("--label '%s': %s; use 1-64 letters, digits, '.', '_', "
					   "'+' or '-'", arg, label_problem(arg));
		return 0;
	}
	return 0;
}

static const struct opt_def merge_opts[] = {
	{ .name = "host", .arg = OPT_WORD, .metavar = "NAME=FILE",
	  .help = "a host and its result file (a file CELL.NAME.json given without --host is "
		  "host NAME)",
	  .flags = OPT_REPEAT, .id = MA_HOST },
	{ .name = "missing", .arg = OPT_WORD, .metavar = "NAME=REASON",
	  .help = "a host that has no result, and why", .flags = OPT_REPEAT, .id = MA_MISSING },
	{ .name = "clock", .arg = OPT_WORD, .metavar = "NAME=OFFSET[,RTT]",
	  .help = "its clock minus this machine's, and the round trip of that measurement, in "
		  "seconds (fslab hosts CONFIG check)",
	  .flags = OPT_REPEAT, .id = MA_CLOCK },
	{ .name = "clock-file", .arg = OPT_FILE, .metavar = "FILE",
	  .help = "the same for every host from fslab hosts CONFIG check --json",
	  .id = MA_CLOCK_FILE },
	{ .name = "clock-limit", .arg = OPT_WORD, .metavar = "SECONDS",
	  .help = "clock disagreement or start spread above which the result warns; default 0.5",
	  .id = MA_CLOCK_LIMIT },
	{ .name = "label", .arg = OPT_WORD, .metavar = "NAME",
	  .help = "the cluster result's label (default: the hosts', which must agree)",
	  .id = MA_LABEL },
	{ .name = "output", .short_name = 'o', .arg = OPT_FILE, .metavar = "FILE",
	  .help = "the cluster result (written atomically)", .store = OPT_STR,
	  .off = offsetof(struct merge_args, output) },
	{ .name = NULL },
};

static const struct opt_pos merge_pos[] = {
	{ .name = "CELL.NAME.json", .arg = OPT_FILE, .flags = OPT_REPEAT },
	{ NULL },
};

const struct opt_cmd merge_opt_cmd = {
	.name = "merge",
	.opts = merge_opts,
	.pos = merge_pos,
	.set = merge_set,
	.head =
	"usage: fslab merge --output CLUSTER.json --host NAME=FILE [--host NAME=FILE ...]\n"
	"                   [--missing NAME=REASON ...] [--clock NAME=OFFSET[,RTT] ...]\n"
	"                   [--clock-file FILE] [--clock-limit SECONDS] [--label NAME]\n"
	"                   [CELL.NAME.json ...]\n"
	"\n"
	"Merge the results of one cell run on several hosts at once into one cluster result:\n"
	"operations and bytes summed, latency histograms summed bucket by bucket (the\n"
	"percentiles come from the merged histogram, never averaged), timelines aligned on\n"
	"wall-clock seconds, device counters and the verdict per host and overall (a host\n"
	"that FAILs fails the cluster), and a hosts[] list with each host's clock offset,\n"
	"start and result sha256.  A host without a complete result (--missing, an aborted\n"
	"run, a file that cannot be read) makes the result partial: marked aborted, never\n"
	"presented as a full cluster.\n"
	"\n",
	.tail = "\n"
	"Exit status: 0 complete, 1 partial (a host missing or failed) or not written,\n"
	"2 bad input (hosts of different cells, a name twice, one result given for two\n"
	"hosts; nothing written).\n",
	.col = 24,
	.width = 86,
};

/* The options and the result files named into c, mo and *output; 0, 1 after --help, or
 * -FSLAB_EINPUT. */
static int parse_args(int argc, char **argv, struct merge_cli *c, struct merge_opts *mo,
		      const char **output)
{
	struct merge_args a = { .c = c, .mo = mo };
	int first, ret = opt_parse(&merge_opt_cmd, &a, argc, argv, &first);

	*output = a.output;
	for (int i = first; !ret && i < argc; i++) {
		char *n = name_of_file(argv[i]);

		if (!n)
			return input_error("%s: no host name in the file name (CELL.NAME.json); give "
					   "--host NAME=%s", argv[i], argv[i]);
		keep(c, n);
		if (host(c, n)->file || host(c, n)->missing)
			ret = input_error("%s: host %s is given twice; one result per host", argv[i], n);
		host(c, n)->file = argv[i];
	}
	if (ret)
		return ret;
	for (size_t i = 0; i < c->n; i++)
		if (!c->in[i].file && !c->in[i].missing)
			return input_error("--clock names host %s, which has no --host or --missing",
					   c->in[i].name);
	if (!*output)
		return input_error("no --output FILE given for the cluster result");
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_opts mo = { .clock_limit_s = MERGE_CLOCK_LIMIT_S };
	struct merge_cli c = { 0 };
	/* zeroed: merge_results() initialises it, result_release() takes it either way */
	struct fslab_result r = { 0 };
	const char *output = NULL;
	int ret, status = FSLAB_EXIT_USAGE;

	ret = parse_args(argc, argv, &c, &mo, &output);
	if (ret == 1) {
		status = FSLAB_EXIT_OK;
		goto out;
	}
	if (!ret)
		ret = check_output(&c, output);
	if (!ret)
		ret = merge_results(c.in, c.n, &mo, &r);
	if (ret)
		goto out;
	ret = result_write(&r, output);
	if (ret) {
		if (ret != -FSLAB_EINPUT)
			fslab_err("cannot write the cluster result to %s: %s", output,
				  strerror(-ret));
		status = ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
		goto out;
	}
	printf("%s cluster result of %u hosts (%u complete)", r.cluster.partial ? "PARTIAL" : "full",
	       r.cluster.hosts, r.cluster.complete);
	if (!isnan(r.cluster.start_spread_s))
		printf(", loads started within %.1f ms", r.cluster.start_spread_s * 1e3);
	if (!isnan(r.cluster.clock_spread_s))
		printf(", clocks within %.1f ms", r.cluster.clock_spread_s * 1e3);
	printf(": %s\n", output);
	if (r.cluster.partial)
		fslab_warn("%s", r.abort_reason);
	status = r.cluster.partial ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
out:
	if (ret == -FSLAB_EINPUT)
		status = FSLAB_EXIT_USAGE;
	result_release(&r);
	for (size_t i = 0; i < c.nowned; i++)
		free(c.owned[i]);
	free(c.owned);
	free(c.in);
	return status;
}
