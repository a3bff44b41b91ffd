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

	if (ret)
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

int cmd_hosts(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "samples", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "in", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lab_cfg cfg;
	struct hosts_session s = { 0 };
	const char *json = NULL, *action = "check";
	char *out = NULL, self[PATH_MAX];
	uint64_t samples = 8, in_ns = 0;
	int opt, ret, status = FSLAB_EXIT_USAGE;
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
		action = argv[2];
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		ret = -errno;
		fslab_err("cannot find the fslab binary (/proc/self/exe): %s", strerror(-ret));
		goto out;
	}
	self[n] = 0;
	if (!strcmp(action, "argv")) {
		ret = do_argv(&cfg, self, argc - 2, argv + 2);
		status = ret ? (ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL)
			     : FSLAB_EXIT_OK;
		goto out;
	}
	/* options after CONFIG [ACTION] */
	optind = argc > 2 && argv[2][0] != '-' ? 3 : 2;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			status = FSLAB_EXIT_OK;
			goto out;
		case 'j':
			json = optarg;
			break;
		case 's':
			if (parse_u64(optarg, 2, 1000, &samples))
				ret = input_error("--samples '%s': give 2 to 1000 round trips", optarg);
			break;
		case 'o':
			free(out);
			out = xstrdup(optarg);
			break;
		case 'i':
			if (parse_duration(optarg, &in_ns) || in_ns < NSEC_PER_SEC ||
			    in_ns > 3600 * NSEC_PER_SEC)
				ret = input_error("--in '%s': give the time until the start, 1s to 1h "
						  "(it must cover the databases' initialisation)", optarg);
			break;
		default:
			ret = input_error("unknown option '%s'; see 'fslab hosts --help'",
					  argv[optind - 1]);
		}
		if (ret)
			goto out;
	}
	if (!out)
		out = default_out(&cfg);
	if (!strcmp(action, "fetch")) {
		size_t i;
		char hex[SHA256_HEX_LEN + 1];

		if (optind + 3 != argc) {
			ret = input_error("fetch: give HOST REMOTE-FILE LOCAL-FILE");
			goto out;
		}
		i = host_index(&cfg.hosts, argv[optind]);
		if (i == cfg.hosts.n) {
			ret = input_error("fetch: no [host %s] in %s", argv[optind], argv[1]);
			goto out;
		}
		ret = hosts_session_init(&s, &cfg.hosts, self, out);
		if (!ret && hosts_connect(&s, i))
			fslab_err("host %s: %s", cfg.hosts.v[i].name, s.st[i].problem);
		if (!ret && s.st[i].reached)
			ret = hosts_fetch(&s, i, argv[optind + 1], argv[optind + 2], 4 * GiB, hex, NULL);
		else if (!ret)
			ret = -EHOSTUNREACH;
		if (!ret)
			printf("%s  %s\n", hex, argv[optind + 2]);
		status = ret ? FSLAB_EXIT_FAIL : FSLAB_EXIT_OK;
		goto out;
	}
	if (strcmp(action, "check") && strcmp(action, "start-at")) {
		ret = input_error("unknown action '%s': give check, start-at, argv or fetch", action);
		goto out;
	}
	if (optind != argc) {
		ret = input_error("unexpected argument '%s'; see 'fslab hosts --help'", argv[optind]);
		goto out;
	}
	if (!strcmp(action, "start-at") && !in_ns) {
		ret = input_error("start-at: give --in SECONDS, the time until the common start");
		goto out;
	}
	ret = hosts_session_init(&s, &cfg.hosts, self, out);
	if (ret)
		goto out;
	ret = hosts_preflight(&s, (unsigned int)samples);
	/* start-at: stdout has only the lines 'HOST TIME' (for scripts) */
	table(strcmp(action, "start-at") ? stdout : stderr, &s);
	if (!ret && !strcmp(action, "start-at")) {
		char **starts = xcalloc(cfg.hosts.n, sizeof(char *));
		int64_t t;

		hosts_start_times(&s, (int64_t)in_ns, &t, starts);
		for (size_t i = 0; i < cfg.hosts.n; i++)
			printf("%s %s\n", cfg.hosts.v[i].name, starts[i]);
		if (json) {
			json_t *o = record(&s, cfg.path, t, starts);

			ret = write_json(json, o);
			json_decref(o);
		}
		for (size_t i = 0; i < cfg.hosts.n; i++)
			free(starts[i]);
		free(starts);
	} else if (json) {
		json_t *o = record(&s, cfg.path, 0, NULL);
		int r = write_json(json, o);

		json_decref(o);
		if (!ret)
			ret = r;
	}
	status = !ret ? FSLAB_EXIT_OK : ret == -FSLAB_EINPUT ? FSLAB_EXIT_USAGE : FSLAB_EXIT_FAIL;
out:
	if (ret == -FSLAB_EINPUT)
		status = FSLAB_EXIT_USAGE;
	if (s.st)
		hosts_session_end(&s);
	lab_cfg_release(&cfg);
	free(out);
	return status;
}
