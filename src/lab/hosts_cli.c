// SPDX-License-Identifier: MIT
/*
 * hosts_cli.c: `fslab hosts CONFIG ...`: the lab's hosts by hand: check them (the preflight a
 * lab runs first: ssh, versions, quoting, clocks), print the argv a step would run on one,
 * fetch a result from one, and plan a common start.  The same code the lab uses (hosts.h).
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "lab/labcfg.h"
#include "util.h"
#include "utctime.h"

static void usage(FILE *f)
{
	fputs("usage: fslab hosts CONFIG.ini [check] [--json FILE] [--samples N] [--output DIR]\n"
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
	      "            shell (--null: each argument followed by a NUL, for xargs -0 or\n"
	      "            mapfile -d '')\n"
	      "  fetch     copy a result file from HOST (fslab cat-result over ssh, sha256\n"
	      "            checked), written atomically; prints its sha256\n"
	      "  --json FILE   the record: each host's ssh, fslab version, hostname, clock offset\n"
	      "                and round trip (fslab merge --clock-file reads it)\n"
	      "  --output DIR  the lab's output directory (default as fslab lab): names the lab's\n"
	      "                directory on each host\n", f);
}

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
				      "os", h->os == HOST_OS_WINDOWS ? "windows" : "linux", "fslab",
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
		       h->os == HOST_OS_WINDOWS ? "windows" : "linux", ver, off, rtt,
		       st->problem ? "NOT READY" : "ready");
	}
}

static int do_argv(struct lab_cfg *c, const char *self, int argc, char **argv)
{
	/* no session: the command connects on its own (no ControlPath) */
	const struct hosts_session s = { .cfg = &c->hosts, .self = self };
	struct strvec out = STRVEC_INIT;
	const char *why = NULL;
	bool null = false;
	size_t i;
	int k = 1, ret;

	if (argc < 2)
		return input_error("argv: give HOST -- FSLAB-ARGUMENTS...");
	i = host_index(&c->hosts, argv[1]);
	if (i == c->hosts.n)
		return input_error("argv: no [host %s] in %s", argv[1], c->path);
	for (k = 2; k < argc && strcmp(argv[k], "--"); k++) {
		if (!strcmp(argv[k], "--null") || !strcmp(argv[k], "-0"))
			null = true;
		else
			return input_error("argv: unknown option '%s'; give HOST [--null] -- ARGS...",
					   argv[k]);
	}
	if (k == argc)
		return input_error("argv: give the fslab arguments after --");
	ret = hosts_step_argv(&s, i, (const char *const *)argv + k + 1, &out, &why);
	if (ret) {
		strvec_clear(&out);
		return input_error("argv: host %s: %s", argv[1], why);
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

/* What `fslab hosts CONFIG [ACTION] [OPTIONS]` was asked. */
struct hosts_cli {
	const char *action; /* check (the default), start-at, argv, fetch */
	const char *json;
	char *out;
	uint64_t samples, in_ns;
	char self[PATH_MAX]; /* this fslab binary */
};

/* The options after CONFIG [ACTION]: 0, 1 (--help printed) or a negative errno (said). */
static int parse_options(struct hosts_cli *o, const struct lab_cfg *cfg, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "samples", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "in", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret = 0;

	optind = argc > 2 && argv[2][0] != '-' ? 3 : 2;
	opterr = 0;
	while (!ret && (opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 1;
		case 'j':
			o->json = optarg;
			break;
		case 's':
			if (parse_u64(optarg, 2, 1000, &o->samples))
				ret = input_error("--samples '%s': give 2 to 1000 round trips", optarg);
			break;
		case 'o':
			free(o->out);
			o->out = xstrdup(optarg);
			break;
		case 'i':
			if (parse_duration(optarg, &o->in_ns) || o->in_ns < NSEC_PER_SEC ||
			    o->in_ns > 3600 * NSEC_PER_SEC)
				ret = input_error("--in '%s': give the time until the start, 1s to 1h "
						  "(it must cover the databases' initialisation)", optarg);
			break;
		default:
			ret = input_error("unknown option '%s'; see 'fslab hosts --help'",
					  argv[optind - 1]);
		}
	}
	if (!ret && !o->out)
		o->out = default_out(cfg);
	if (!ret && o->json)
		ret = output_check(o->json, "--json");
	return ret;
}

/* fetch HOST REMOTE-FILE LOCAL-FILE: the file and its sha256, as the lab fetches results. */
static int do_fetch(const struct lab_cfg *cfg, struct hosts_session *s, const struct hosts_cli *o,
		    int argc, char **argv)
{
	char hex[SHA256_HEX_LEN + 1];
	size_t i;
	int ret;

	if (optind + 3 != argc)
		return input_error("fetch: give HOST REMOTE-FILE LOCAL-FILE");
	i = host_index(&cfg->hosts, argv[optind]);
	if (i == cfg->hosts.n)
		return input_error("fetch: no [host %s] in %s", argv[optind], argv[1]);
	ret = output_check(argv[optind + 2], "fetch: LOCAL-FILE");
	if (ret)
		return ret;
	ret = hosts_session_init(s, &cfg->hosts, o->self, o->out);
	if (!ret && hosts_connect(s, i))
		fslab_err("host %s: %s", cfg->hosts.v[i].name, s->st[i].problem);
	if (!ret && s->st[i].reached)
		ret = hosts_fetch(s, i, argv[optind + 1], argv[optind + 2], 4 * GiB, hex, NULL);
	else if (!ret)
		ret = -EHOSTUNREACH;
	if (!ret)
		printf("%s  %s\n", hex, argv[optind + 2]);
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

int cmd_hosts(int argc, char **argv)
{
	struct hosts_cli o = { .action = "check", .samples = 8 };
	struct lab_cfg cfg;
	struct hosts_session s = { 0 };
	int ret, status = FSLAB_EXIT_USAGE;
	ssize_t n;

	memset(&cfg, 0, sizeof(cfg));
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? FSLAB_EXIT_USAGE : FSLAB_EXIT_OK;
	}
	ret = lab_cfg_load(&cfg, argv[1]);
	if (ret)
		goto out;
	if (!cfg.hosts.n) {
		ret = input_error("%s has no [host NAME] section; add one per host (docs/HOSTS.md)",
				  argv[1]);
		goto out;
	}
	if (argc > 2 && argv[2][0] != '-')
		o.action = argv[2];
	n = readlink("/proc/self/exe", o.self, sizeof(o.self) - 1);
	if (n <= 0) {
		ret = -errno;
		fslab_err("cannot find the fslab binary (/proc/self/exe): %s", strerror(-ret));
		goto out;
	}
	o.self[n] = 0;
	if (!strcmp(o.action, "argv")) {
		ret = do_argv(&cfg, o.self, argc - 2, argv + 2);
		status = ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
		goto out;
	}
	ret = parse_options(&o, &cfg, argc, argv);
	if (ret) {
		status = ret == 1 ? FSLAB_EXIT_OK : FSLAB_EXIT_USAGE;
		goto out;
	}
	if (!strcmp(o.action, "fetch")) {
		ret = do_fetch(&cfg, &s, &o, argc, argv);
		status = ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
		goto out;
	}
	if (strcmp(o.action, "check") && strcmp(o.action, "start-at"))
		ret = input_error("unknown action '%s': give check, start-at, argv or fetch",
				  o.action);
	else if (optind != argc)
		ret = input_error("unexpected argument '%s'; see 'fslab hosts --help'", argv[optind]);
	else if (!strcmp(o.action, "start-at") && !o.in_ns)
		ret = input_error("start-at: give --in SECONDS, the time until the common start");
	else
		ret = hosts_session_init(&s, &cfg.hosts, o.self, o.out);
	if (ret)
		goto out;
	ret = do_check(&cfg, &s, &o);
	status = ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
out:
	if (ret == -FSLAB_EINPUT)
		status = FSLAB_EXIT_USAGE;
	if (s.st)
		hosts_session_end(&s);
	lab_cfg_release(&cfg);
	free(o.out);
	return status;
}

