// SPDX-License-Identifier: MIT
/*
 * hosts_cli.c: `fslab hosts CONFIG ...`: the lab's hosts by hand: check them (the preflight a
 * lab runs first: ssh, versions, quoting, clocks), print the argv a step would run on one,
 * fetch a result from one, and plan a common start.  The same code the lab uses (hosts.h).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "lab/labcfg.h"
#include "lib/opt.h"
#include "lib/base.h"
#include "lib/msg.h"
#include "os/files.h"
#include "lib/units.h"
#include "os/os.h"
#include "lib/utctime.h"

static char *default_out(const struct lab_cfg *c)
{
	const char *base = strrchr(c->path, '/');
	char *name = xstrdup(base ? base + 1 : c->path), *dot = strrchr(name, '.'), *out;

	if (c->output) {
		free(name);
		return xstrdup(c->output);
	}
	if (dot)
		*dot = 0;
	out = xasprintf("lab-%s", name);
	free(name);
	return out;
}

static size_t host_index(const struct lab_hosts *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].name, name))
			return i;
	return h->n;
}

static json_t *record(const struct hosts_session *s, const char *config, int64_t t_ns,
		      char **starts)
{
	json_t *hosts = json_array(), *o;
	char buf[40];

	for (size_t i = 0; i < s->cfg->n; i++) {
		const struct lab_host *h = &s->cfg->v[i];
		const struct host_state *st = &s->st[i];
		char *wd = hosts_workdir(h, s->lab_id);
		json_t *x = json_pack("{s:s, s:s, s:s, s:s, s:s, s:b}", "name", h->name, "ssh", h->ssh,
				      "os", lab_host_sys(h)->name, "fslab",
				      lab_host_fslab(h), "workdir", wd, "ready", !st->problem);

		free(wd);
		json_object_set_new(x, "version", st->version ? json_string(st->version) : json_null());
		json_object_set_new(x, "git", st->git ? json_string(st->git) : json_null());
		json_object_set_new(x, "hostname", st->hostname ? json_string(st->hostname)
							       : json_null());
		json_object_set_new(x, "clock_offset_s", st->clock ? json_real(st->offset_s)
								    : json_null());
		json_object_set_new(x, "clock_rtt_s", st->clock ? json_real(st->rtt_s) : json_null());
		json_object_set_new(x, "clock_samples", json_integer(st->samples));
		if (starts)
			json_object_set_new(x, "start_at", json_string(starts[i]));
		json_object_set_new(x, "problem", st->problem ? json_string(st->problem) : json_null());
		json_array_append_new(hosts, x);
	}
	o = json_pack("{s:s, s:s, s:s, s:s, s:f, s:o}", "schema", "fslab-hosts/1", "config",
		      config, "fslab_version", fslab_version, "fslab_git", fslab_git,
		      "clock_limit_s", s->cfg->clock_limit_s, "hosts", hosts);
	json_object_set_new(o, "ssh_config", s->cfg->ssh_config ? json_string(s->cfg->ssh_config)
							       : json_null());
	json_object_set_new(o, "lab_id", json_string(s->lab_id));
	json_object_set_new(o, "measured_at", json_string(utc_format(buf, sizeof(buf),
								     os_wall_ns())));
	if (starts)
		json_object_set_new(o, "start_at", json_string(utc_format(buf, sizeof(buf), t_ns)));
	return o;
}

static int write_json(const char *path, json_t *o)
{
	char *s = json_dumps(o, JSON_INDENT(1));
	int ret = s ? write_file_atomic(path, s, strlen(s)) : -ENOMEM;

	if (ret && ret != -FSLAB_EINPUT)
		fslab_err("cannot write %s (%s)", path, strerror(-ret));
	free(s);
	return ret;
}

static void table(FILE *f, const struct hosts_session *s)
{
	fprintf(f, "%-16s %-24s %-8s %-24s %12s %10s  %s\n", "host", "ssh", "os", "fslab",
	       "clock (ms)", "rtt (ms)", "status");
	for (size_t i = 0; i < s->cfg->n; i++) {
		const struct lab_host *h = &s->cfg->v[i];
		const struct host_state *st = &s->st[i];
		char ver[64], off[32], rtt[32];

		snprintf(ver, sizeof(ver), "%s (%s)", st->version ? st->version : "-",
			 st->git ? st->git : "-");
		snprintf(off, sizeof(off), st->clock ? "%+.3f" : "-", st->offset_s * 1e3);
		snprintf(rtt, sizeof(rtt), st->clock ? "%.3f" : "-", st->rtt_s * 1e3);
		fprintf(f, "%-16s %-24s %-8s %-24s %12s %10s  %s\n", h->name, h->ssh,
		       lab_host_sys(h)->name, ver, off, rtt,
		       st->problem ? "NOT READY" : "ready");
	}
}

/* What `fslab hosts CONFIG [ACTION] [OPTIONS]` was asked. */
struct hosts_cli {
	const char *action; /* check (the default), start-at, argv, fetch */
	const char *json, *out_opt;
	char *out;
	uint64_t samples, in_ns;
	bool null, timing; /* --null (argv); --samples, --in, --json or --output (the others) */
	char self[PATH_MAX]; /* this fslab binary */
};

/* The actions, in --help's order. */
static const char *const actions[] = { "check", "start-at", "argv", "fetch" };

/* "check, start-at, argv or fetch" */
static const char *action_names(void)
{
	static struct strbuf names = STRBUF_INIT;

	if (!names.len)
		for (size_t i = 0; i < ARRAY_SIZE(actions); i++)
			strbuf_add_item(&names, i, ARRAY_SIZE(actions), ", ", " or ", actions[i]);
	return names.buf;
}

enum { HO_SAMPLES, HO_IN, HO_JSON, HO_OUTPUT, HO_NULL };

static int hosts_set(void *ctx, const struct opt_def *d, const char *arg)
{
	struct hosts_cli *o = ctx;

	o->timing = o->timing || d->id != HO_NULL;
	switch (d->id) {
	case HO_SAMPLES:
		if (parse_u64(arg, 2, 1000, &o->samples))
			return input_error("--samples '%s': give 2 to 1000 round trips", arg);
		break;
	case HO_IN:
		if (parse_duration(arg, &o->in_ns) || o->in_ns < NSEC_PER_SEC ||
		    o->in_ns > 3600 * NSEC_PER_SEC)
			return input_error("--in '%s': give the time until the start, 1s to 1h (it "
					   "must cover the databases' initialisation)", arg);
		break;
	case HO_JSON:
		o->json = arg;
		break;
	case HO_OUTPUT:
		o->out_opt = arg;
		break;
	case HO_NULL:
		o->null = true;
		break;
	}
	return 0;
}

static const struct opt_def hosts_opts[] = {
	{ .name = "json", .arg = OPT_FILE, .metavar = "FILE",
	  .help = "the record: each host's ssh, fslab version, hostname, clock offset and round "
		  "trip (fslab merge --clock-file reads it)",
	  .id = HO_JSON },
	{ .name = "samples", .arg = OPT_WORD, .metavar = "N",
	  .help = "clock round trips per host, 2 to 1000; default 8",
	  .id = HO_SAMPLES },
	{ .name = "in", .arg = OPT_WORD, .metavar = "SECONDS",
	  .help = "start-at: the time until the common start, 1s to 1h (it must cover the "
		  "databases' initialisation)",
	  .id = HO_IN },
	{ .name = "output", .arg = OPT_DIR, .metavar = "DIR",
	  .help = "the lab's output directory (default as fslab lab): names the lab's directory "
		  "on each host",
	  .ini = "lab.output", .id = HO_OUTPUT },
	{ .name = "null", .short_name = '0',
	  .help = "argv: each argument followed by a NUL, for xargs -0 or mapfile -d ''",
	  .id = HO_NULL },
	{ .name = NULL },
};

static const struct opt_pos hosts_pos[] = {
	{ .name = "CONFIG.ini", .arg = OPT_INI },
	{ .name = "ACTION", .arg = OPT_CHOICE, .choices = action_names },
	{ .name = "HOST", .arg = OPT_FILE, .flags = OPT_REPEAT },
	{ NULL },
};

const struct opt_cmd hosts_opt_cmd = {
	.name = "hosts",
	.opts = hosts_opts,
	.pos = hosts_pos,
	.set = hosts_set,
	.head =
	"usage: fslab hosts CONFIG.ini [check] [--json FILE] [--samples N] [--output DIR]\n"
	"       fslab hosts CONFIG.ini start-at --in SECONDS [--json FILE] [--samples N]\n"
	"       fslab hosts CONFIG.ini argv HOST [--null] -- FSLAB-ARGUMENTS...\n"
	"       fslab hosts CONFIG.ini fetch HOST REMOTE-FILE LOCAL-FILE\n"
	"\n"
	"The [host NAME] sections of a lab config, as the lab uses them (docs/HOSTS.md):\n"
	"  check     connect to every host over ssh (BatchMode: no password prompt; host keys\n"
	"            as your ssh configuration says), run 'fslab hello' there (the same\n"
	"            fslab version and git hash as here; probe arguments with spaces,\n"
	"            quotes, $(...), ; and more must arrive unchanged) and measure each\n"
	"            clock's offset (round trip / 2, the shortest of --samples, default 8);\n"
	"            refuses clocks further apart than [lab] clock_limit.  Exit 0 when every\n"
	"            host is ready, 2 when not (each problem named with its fix)\n"
	"  start-at  the same, then one start --in SECONDS ahead for all, as each host's\n"
	"            own clock will read it: lines 'HOST TIME' on stdout (the table on\n"
	"            stderr) for each host's fslab run --start-at\n"
	"  argv      the command that runs 'fslab FSLAB-ARGUMENTS' on HOST, quoted for a\n"
	"            shell\n"
	"  fetch     copy a result file from HOST (fslab cat-result over ssh, sha256\n"
	"            checked), written atomically; prints its sha256\n",
	.col = 16,
	.width = 85,
};

/* argv HOST [--null] -- FSLAB-ARGUMENTS...: pos the arguments after the action, args what
 * follows the -- (NULL: no -- given). */
static int do_argv(struct lab_cfg *c, const struct hosts_cli *o, int npos, char **pos,
		   char **args)
{
	/* no session: the command connects on its own (no ControlPath) */
	const struct hosts_session s = { .cfg = &c->hosts, .self = o->self };
	struct strvec out = STRVEC_INIT;
	const char *why = NULL;
	bool null = o->null;
	size_t i;
	int ret;

	if (npos < 1)
		return input_error("argv: give HOST -- FSLAB-ARGUMENTS...");
	i = host_index(&c->hosts, pos[0]);
	if (i == c->hosts.n)
		return input_error("argv: no [host %s] in %s", pos[0], c->path);
	if (npos > 1 || o->timing)
		return input_error("argv: %s%s%s; give HOST [--null] -- ARGS...",
				   npos > 1 ? "unexpected argument '" : "takes no option but --null",
				   npos > 1 ? pos[1] : "", npos > 1 ? "'" : "");
	if (!args)
		return input_error("argv: give the fslab arguments after --");
	ret = hosts_step_argv(&s, i, (const char *const *)args, &out, &why);
	if (ret) {
		strvec_clear(&out);
		return input_error("argv: host %s: %s", pos[0], why);
	}
	for (size_t a = 0; a < out.nr; a++) {
		if (null) {
			fputs(out.v[a], stdout);
			putchar(0);
		} else {
			struct strbuf sb = STRBUF_INIT;

			strbuf_add_sq(&sb, out.v[a]);
			printf("%s%s", a ? " " : "", sb.buf);
			strbuf_release(&sb);
		}
	}
	if (!null)
		putchar('\n');
	strvec_clear(&out);
	return fflush(stdout) ? -EIO : 0;
}

/* fetch HOST REMOTE-FILE LOCAL-FILE (pos: the arguments after the action): the file and its
 * sha256, as the lab fetches results. */
static int do_fetch(const struct lab_cfg *cfg, struct hosts_session *s, const struct hosts_cli *o,
		    int npos, char **pos)
{
	char hex[SHA256_HEX_LEN + 1];
	size_t i;
	int ret;

	if (npos != 3)
		return input_error("fetch: give HOST REMOTE-FILE LOCAL-FILE");
	i = host_index(&cfg->hosts, pos[0]);
	if (i == cfg->hosts.n)
		return input_error("fetch: no [host %s] in %s", pos[0], cfg->path);
	ret = output_check(pos[2], "fetch: LOCAL-FILE");
	if (ret)
		return ret;
	ret = hosts_session_init(s, &cfg->hosts, o->self, o->out);
	if (!ret && hosts_connect(s, i))
		fslab_err("host %s: %s", cfg->hosts.v[i].name, s->st[i].problem);
	if (!ret && s->st[i].reached)
		ret = hosts_fetch(s, i, pos[1], pos[2], 4 * GiB, hex, NULL);
	else if (!ret)
		ret = -EHOSTUNREACH;
	if (!ret)
		printf("%s  %s\n", hex, pos[2]);
	return ret;
}

/* check and start-at, on an open session: the preflight's table; start-at's common start
 * ('HOST TIME' lines, the only ones on stdout, for scripts); the record for --json. */
static int do_check(const struct lab_cfg *cfg, struct hosts_session *s, const struct hosts_cli *o)
{
	bool start_at = !strcmp(o->action, "start-at");
	char **starts = NULL;
	int64_t t = 0;
	int ret, r = 0;

	ret = hosts_preflight(s, (unsigned int)o->samples);
	table(start_at ? stderr : stdout, s);
	if (!ret && start_at) {
		starts = xcalloc(cfg->hosts.n, sizeof(char *));
		hosts_start_times(s, (int64_t)o->in_ns, &t, starts);
		for (size_t i = 0; i < cfg->hosts.n; i++)
			printf("%s %s\n", cfg->hosts.v[i].name, starts[i]);
	}
	if (o->json) {
		json_t *rec = record(s, cfg->path, t, starts);

		r = write_json(o->json, rec);
		json_decref(rec);
	}
	if (starts)
		for (size_t i = 0; i < cfg->hosts.n; i++)
			free(starts[i]);
	free(starts);
	return ret ? ret : r;
}

/* The options of check, start-at and fetch: the output directory, the record's file, what
 * follows --.  0 or -FSLAB_EINPUT. */
static int hosts_check_opts(struct hosts_cli *o, const struct lab_cfg *cfg, int rest,
			    char **argv)
{
	if (o->null)
		return input_error("--null is argv's (fslab hosts CONFIG argv HOST --null -- ...); "
				   "see 'fslab hosts --help'");
	if (rest > 0)
		return input_error("unexpected argument '%s'; see 'fslab hosts --help'", argv[0]);
	o->out = o->out_opt ? xstrdup(o->out_opt) : default_out(cfg);
	return o->json ? output_check(o->json, "--json") : 0;
}

/* This fslab binary into o->self.  0 or -errno (said). */
static int find_self(struct hosts_cli *o)
{
	ssize_t n = readlink("/proc/self/exe", o->self, sizeof(o->self) - 1);
	int ret = -errno;

	if (n <= 0) {
		fslab_err("cannot find the fslab binary (/proc/self/exe): %s", strerror(-ret));
		return ret;
	}
	o->self[n] = 0;
	return 0;
}

/* The action after CONFIG and its options: pos the positional arguments (CONFIG first),
 * rest what follows the first -- (NULL: none). */
static int hosts_action(struct hosts_cli *o, struct lab_cfg *cfg, struct hosts_session *s,
			int npos, char **pos, char **rest)
{
	int ret;

	if (!strcmp(o->action, "argv"))
		return do_argv(cfg, o, npos - 2, pos + 2, rest);
	ret = hosts_check_opts(o, cfg, rest && rest[0] ? 1 : 0, rest);
	if (ret)
		return ret;
	if (!strcmp(o->action, "fetch"))
		return do_fetch(cfg, s, o, npos - 2, pos + 2);
	if (strcmp(o->action, "check") && strcmp(o->action, "start-at"))
		return input_error("unknown action '%s': give %s", o->action, action_names());
	if (npos > 2)
		return input_error("unexpected argument '%s'; see 'fslab hosts --help'", pos[2]);
	if (!strcmp(o->action, "start-at") && !o->in_ns)
		return input_error("start-at: give --in SECONDS, the time until the common start");
	ret = hosts_session_init(s, &cfg->hosts, o->self, o->out);
	return ret ? ret : do_check(cfg, s, o);
}

int cmd_hosts(int argc, char **argv)
{
	struct hosts_cli o = { .action = "check", .samples = 8 };
	struct lab_cfg cfg;
	struct hosts_session s = { 0 };
	int ret, end, first, status;

	memset(&cfg, 0, sizeof(cfg));
	if (argc < 2) {
		opt_usage(&hosts_opt_cmd, stderr);
		return FSLAB_EXIT_USAGE;
	}
	/* what follows a -- is argv's fslab command line, not ours */
	for (end = 1; end < argc && strcmp(argv[end], "--"); end++)
		;
	ret = opt_parse(&hosts_opt_cmd, &o, end, argv, &first);
	if (ret)
		return ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
	if (first == end) {
		input_error("give the lab config first: fslab hosts CONFIG.ini [ACTION]; see 'fslab "
			    "hosts --help'");
		return FSLAB_EXIT_USAGE;
	}
	if (end - first > 1)
		o.action = argv[first + 1];
	ret = lab_cfg_load(&cfg, argv[first]);
	if (!ret && !cfg.hosts.n)
		ret = input_error("%s has no [host NAME] section; add one per host (docs/HOSTS.md)",
				  argv[first]);
	if (!ret)
		ret = find_self(&o);
	/* what fails before the action is bad input, whatever the error */
	status = ret ? FSLAB_EXIT_USAGE : FSLAB_EXIT_OK;
	if (!ret)
		ret = hosts_action(&o, &cfg, &s, end - first, argv + first,
				   end < argc ? argv + end + 1 : NULL);
	if (!status)
		status = ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : ret ? FSLAB_EXIT_FAIL
								  : FSLAB_EXIT_OK;
	if (s.st)
		hosts_session_end(&s);
	lab_cfg_release(&cfg);
	free(o.out);
	return status;
}
