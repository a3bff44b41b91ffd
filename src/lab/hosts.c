// SPDX-License-Identifier: MIT
/*
 * hosts.c: a lab's hosts at work over OpenSSH (hosts.h): the ssh argv of a step, one reused
 * connection per host, the preflight (connect, hello, clocks), start times and the fetch of
 * results with their sha256.  Nothing here listens or runs a daemon: every host is reached by
 * the user's own ssh, as the user's ssh configuration says.
 */
#include "lab/hosts.h"
#include "lab/hostsP.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/argv_quote.h"
#include "os/os.h"
#include "remote/remote.h"
#include "lib/base.h"
#include "lib/msg.h"
#include "os/files.h"
#include "lib/utctime.h"

/* ---- names and paths ---- */

/*
 * The output directory as it will be once it exists: the real path of its longest existing
 * part (symbolic links resolved), then the rest with "." and ".." taken lexically, so that a
 * lab names itself the same before its directory exists and at every --resume after.
 */
static char *future_realpath(const char *path)
{
	char cwd[PATH_MAX], *abs, *p, *real = NULL;
	struct strvec rest = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	abs = path[0] == '/' || !getcwd(cwd, sizeof(cwd)) ? xstrdup(path) : path_join(cwd, path);
	/* peel components off the end until what is left exists */
	while (!(real = realpath(abs, NULL))) {
		p = strrchr(abs, '/');
		if (!p || p == abs) {
			if (p && p[1])
				strvec_push(&rest, p + 1);
			real = xstrdup("/");
			break;
		}
		if (p[1])
			strvec_push(&rest, p + 1);
		*p = 0;
	}
	strbuf_addstr(&sb, real);
	for (size_t i = rest.nr; i-- > 0;) {
		const char *c = rest.v[i];

		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *slash = strrchr(sb.buf, '/');

			strbuf_setlen(&sb, slash && slash != sb.buf ? (size_t)(slash - sb.buf) : 1);
			continue;
		}
		if (sb.len > 1)
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, c);
	}
	strvec_clear(&rest);
	free(real);
	free(abs);
	return strbuf_detach(&sb, NULL);
}

char *hosts_lab_id(const char *out_dir)
{
	char host[256] = "?", hex[SHA256_HEX_LEN + 1], *abs = future_realpath(out_dir), *key;

	gethostname(host, sizeof(host) - 1);
	key = xasprintf("%s:%s", host, abs);
	sha256_hex(key, strlen(key), hex);
	free(key);
	free(abs);
	hex[12] = 0;
	return xstrdup(hex);
}

static const char *jtext(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "?";
}

/* ---- the session ---- */

int hosts_session_init(struct hosts_session *s, const struct lab_hosts *cfg, const char *self,
		       const char *out_dir)
{
	char tmpl[] = "/tmp/fslab-ssh.XXXXXX";

	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->self = self;
	s->lab_id = hosts_lab_id(out_dir);
	s->st = xcalloc(cfg->n + 1, sizeof(*s->st));
	/* sockets of the connections: a directory only we can enter (mkdtemp: 0700), short
	 * enough for a socket path (108 bytes) whatever TMPDIR says */
	if (!mkdtemp(tmpl)) {
		int e = -errno;

		fslab_err("cannot create a directory for the ssh connections in /tmp (%s)",
			  strerror(-e));
		return e;
	}
	s->ctl_dir = xstrdup(tmpl);
	return 0;
}

static void ssh_control(const struct hosts_session *s, const struct lab_host *h, const char *op,
			struct strvec *out)
{
	hosts_ssh_base(s->cfg, s->ctl_dir, out);
	strvec_pushl(out, "-O", op, "--", h->ssh, NULL);
}

/* ssh -O check|exit: its exit status (0: a connection is there / was told to go) */
static int control(const struct hosts_session *s, const struct lab_host *h, const char *op)
{
	struct strvec a = STRVEC_INIT;
	int ret;

	ssh_control(s, h, op, &a);
	ret = hrun(a.v, NULL, NULL, 0, now_ns() + 10 * NSEC_PER_SEC);
	strvec_clear(&a);
	return ret;
}

void hosts_session_end(struct hosts_session *s)
{
	if (s->ctl_dir) {
		struct os_dir *d;

		for (size_t i = 0; i < s->cfg->n; i++)
			if (s->st[i].reached && !lab_host_local(&s->cfg->v[i]))
				control(s, &s->cfg->v[i], "exit");
		/* the connections' logs; their sockets go with them */
		if (!os_opendir(s->ctl_dir, &d)) {
			const char *name;

			while ((name = os_readdir(d))) {
				char *p = path_join(s->ctl_dir, name);

				unlink(p);
				free(p);
			}
			os_closedir(d);
		}
		rmdir(s->ctl_dir);
	}
	for (size_t i = 0; s->st && i < s->cfg->n; i++) {
		struct host_state *st = &s->st[i];

		free(st->version);
		free(st->git);
		free(st->os);
		free(st->hostname);
		free(st->problem);
	}
	free(s->st);
	free(s->ctl_dir);
	free(s->lab_id);
	memset(s, 0, sizeof(*s));
}

static void problem(struct hosts_session *s, size_t i, const char *fmt, ...) __printf(3, 4);
static void problem(struct hosts_session *s, size_t i, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (s->st[i].problem)
		return; /* the first one says what to fix first */
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	s->st[i].problem = strbuf_detach(&sb, NULL);
}

/* ---- connect ---- */

static int connect_start(struct hosts_session *s, size_t i, struct hrun *r)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct strvec a = STRVEC_INIT;
	int ret;

	if (!control(s, h, "check"))
		return 1; /* there already */
	hosts_ssh_base(s->cfg, s->ctl_dir, &a);
	/* the connection goes to the background once authenticated (-f: its standard streams
	 * then go to /dev/null, ours close) and stays ten minutes after its last session (a
	 * lab's steps follow each other within seconds).  Not -M as well: ControlMaster=yes
	 * and -M together mean "ask before each session", which BatchMode refuses */
	strvec_pushl(&a, "-o", "ControlMaster=yes", "-o", "ControlPersist=600", "-N", "-f", "--",
		     h->ssh, NULL);
	ret = hrun_start(r, a.v, false, 0);
	strvec_clear(&a);
	return ret;
}

static int connect_finish(struct hosts_session *s, size_t i, struct hrun *r)
{
	const struct lab_host *h = &s->cfg->v[i];
	int st = hrun_wait(r, now_ns() + (HOSTS_CONNECT_TIMEOUT + 30) * NSEC_PER_SEC);
	char *t;

	if (st == 0 && !control(s, h, "check")) {
		hrun_free(r);
		s->st[i].reached = true;
		return 0;
	}
	t = hosts_tail_text(r->err.buf, 300);
	problem(s, i, "cannot connect to %s over ssh (%s%s%s): check that 'ssh%s%s -o "
		"BatchMode=yes %s true' works without a prompt (a key, not a password) and "
		"that its host key is in your known_hosts (fslab never accepts one for you)",
		h->ssh, st == -ETIMEDOUT ? "no answer" : "ssh failed", *t ? ": " : "", t,
		s->cfg->ssh_config ? " -F " : "", s->cfg->ssh_config ? s->cfg->ssh_config : "",
		h->ssh);
	free(t);
	hrun_free(r);
	return -EHOSTUNREACH;
}

int hosts_connect(struct hosts_session *s, size_t i)
{
	struct hrun r;
	int ret;

	if (lab_host_local(&s->cfg->v[i])) {
		s->st[i].reached = true;
		return 0;
	}
	free(s->st[i].problem);
	s->st[i].problem = NULL;
	ret = connect_start(s, i, &r);
	if (ret == 1) {
		s->st[i].reached = true;
		return 0;
	}
	if (ret) {
		problem(s, i, "cannot start ssh (%s): install the Debian package openssh-client",
			strerror(-ret));
		return ret;
	}
	return connect_finish(s, i, &r);
}

bool hosts_connected(const struct hosts_session *s, size_t i)
{
	return lab_host_local(&s->cfg->v[i]) || !control(s, &s->cfg->v[i], "check");
}

/* ---- hello: version, system, the arguments as received ---- */

/* Words a shell or cmd.exe would change if the quoting were wrong (the newline: POSIX). */
static const char *const probe_words[] = {
	"a b", "it's", "\"q\"", "$(exit 3)", "`exit 3`", "a;b", "%PATH%", "^!&|<>()", "C:\\d\\",
	"\xc3\xa9", "l1\nl2",
};

/* 'fslab hello' on host i did not run, or failed with RET: why, said as host i's problem. */
static void hello_failed(struct hosts_session *s, size_t i, int ret, const char *err)
{
	const struct lab_host *h = &s->cfg->v[i];
	char *t = hosts_tail_text(err, 300);

	if (ret == 127 || strstr(err, "not found") || strstr(err, "not recognized"))
		problem(s, i, "%s is not there (%s): install the same fslab build on it, or give its "
			"path with fslab = PATH in [host %s]", lab_host_fslab(h), t, h->name);
	else if (ret < 0)
		problem(s, i, "'%s hello' failed (%s%s%s)", lab_host_fslab(h), strerror(-ret),
			*t ? ": " : "", t);
	else
		problem(s, i, "'%s hello' failed (exit status %d%s%s)", lab_host_fslab(h), ret,
			*t ? ": " : "", t);
	free(t);
}

/* The last line of OUT that is fslab's answer (a login script may print before it). */
static json_t *hello_answer(char *out)
{
	json_t *j = NULL;
	char *line, *save = NULL;

	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *x = json_loads(line, 0, NULL);

		if (x && !strcmp(jtext(x, "schema"), REMOTE_HELLO_SCHEMA)) {
			json_decref(j);
			j = x;
		} else {
			json_decref(x);
		}
	}
	return j;
}

/* The probe words came back unchanged in the answer's argv: true, else host i's problem. */
static bool hello_argv_ok(struct hosts_session *s, size_t i, json_t *j, size_t nwords)
{
	json_t *a = json_object_get(j, "argv");

	for (size_t k = 0; k < nwords; k++) {
		const char *got = json_string_value(json_array_get(a, k));
		struct strbuf q = STRBUF_INIT;

		if (got && !strcmp(got, probe_words[k]) && json_array_size(a) == nwords)
			continue;
		strbuf_add_sq(&q, probe_words[k]);
		problem(s, i, "arguments do not arrive unchanged (%s came back as %s): the login shell "
			"there must be a POSIX shell (sh, bash, dash, zsh, ksh) for a Linux host, or "
			"cmd.exe, Windows OpenSSH's default shell, with delayed expansion off, for an "
			"os = windows host", q.buf, got ? got : "nothing");
		strbuf_release(&q);
		return false;
	}
	return true;
}

int hosts_hello(struct hosts_session *s, size_t i)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct host_state *st = &s->st[i];
	size_t nwords = ARRAY_SIZE(probe_words) - !!(lab_host_sys(h)->flags & SYS_CMD_SHELL);
	const char *os = lab_host_sys(h)->name;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec args = STRVEC_INIT, argv = STRVEC_INIT;
	const char *why = NULL;
	json_t *j = NULL;
	int ret;

	strvec_push(&args, "hello");
	for (size_t k = 0; k < nwords; k++)
		strvec_push(&args, probe_words[k]);
	ret = hosts_step_argv(s, i, args.v, &argv, &why);
	if (!ret)
		ret = hrun(argv.v, &out, &err, 1 << 20, now_ns() + 60 * NSEC_PER_SEC);
	if (ret) {
		hello_failed(s, i, ret, err.buf);
		ret = -EPROTO;
		goto out;
	}
	j = hello_answer(out.buf);
	if (!j) {
		problem(s, i, "'%s hello' gave no answer fslab understands: is it an fslab older than "
			"this one? Install the same build", lab_host_fslab(h));
		ret = -EPROTO;
		goto out;
	}
	st->version = xstrdup(jtext(j, "version"));
	st->git = xstrdup(jtext(j, "git"));
	st->os = xstrdup(jtext(j, "os"));
	st->hostname = xstrdup(jtext(j, "hostname"));
	if (!hello_argv_ok(s, i, j, nwords)) {
		ret = -EPROTO;
		goto out;
	}
	if (strcmp(st->os, os)) {
		problem(s, i, "fslab there runs on %s, the config says os = %s: fix os in [host %s]",
			st->os, os, h->name);
		ret = -EPROTO;
		goto out;
	}
	st->hello = true;
out:
	json_decref(j);
	strbuf_release(&out);
	strbuf_release(&err);
	strvec_clear(&args);
	strvec_clear(&argv);
	return ret;
}

/* ---- clocks ---- */

int hosts_clock_best(const struct clock_sample *v, size_t n, double *offset_s, double *rtt_s)
{
	size_t best = n, first = n > 1;

	/* a time the host could hold, before any arithmetic: -1e20 overflowed the subtraction */
	for (size_t k = 0; k < n; k++)
		if (v[k].remote_ns < 0 || v[k].remote_ns > HOSTS_CLOCK_MAX_NS)
			return -EPROTO;
	for (size_t k = first; k < n; k++)
		if (v[k].rtt_ns >= 0 && (best == n || v[k].rtt_ns < v[best].rtt_ns))
			best = k;
	if (best == n)
		return -EINVAL;
	/* round trip / 2: the host read its clock, by assumption, half way */
	*offset_s = (v[best].remote_ns - (v[best].asked_ns + v[best].rtt_ns / 2)) / 1e9;
	*rtt_s = v[best].rtt_ns / 1e9;
	return 0;
}

int hosts_clock(struct hosts_session *s, size_t i, unsigned int samples)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct host_state *st = &s->st[i];
	struct strvec argv = STRVEC_INIT;
	struct strbuf line = STRBUF_INIT, err = STRBUF_INIT;
	struct clock_sample *v;
	const char *why = NULL;
	struct hrun r;
	size_t n = 0;
	int ret;

	if (lab_host_local(h)) {
		/* this machine's own clock */
		st->clock = true;
		st->offset_s = st->rtt_s = 0;
		return 0;
	}
	samples = MAX(samples, 2);
	v = xcalloc(samples, sizeof(*v));
	ret = hosts_step_argv(s, i, (const char *[]){ "clock", NULL }, &argv, &why);
	if (!ret)
		ret = hrun_start(&r, argv.v, true, 4096);
	if (ret) {
		problem(s, i, "cannot start ssh for the clock (%s)", strerror(-ret));
		goto out;
	}
	for (n = 0; n < samples; n++) {
		uint64_t m0 = now_ns();
		int64_t w0 = os_wall_ns();
		char *end;

		ret = os_proc_write(r.p, "\n", 1);
		if (ret)
			break;
		ret = hrun_read_line(&r, &line, 64, m0 + 15 * NSEC_PER_SEC);
		if (ret)
			break;
		v[n].asked_ns = w0;
		v[n].rtt_ns = (int64_t)(now_ns() - m0);
		errno = 0;
		v[n].remote_ns = strtoll(line.buf, &end, 10);
		if (end == line.buf || *end || errno) {
			ret = -EPROTO;
			break;
		}
	}
	hrun_wait(&r, now_ns() + 10 * NSEC_PER_SEC);
	strbuf_addbuf(&err, &r.err);
	hrun_free(&r);
	if (!ret)
		ret = hosts_clock_best(v, n, &st->offset_s, &st->rtt_s);
	if (ret) {
		char *t = hosts_tail_text(err.buf, 200);

		problem(s, i, "cannot read its clock (%s%s%s)", ret == -EPROTO ? "an answer that is "
			"not a time" : strerror(-ret), *t ? ": " : "", t);
		free(t);
		goto out;
	}
	st->clock = true;
	st->samples = (unsigned int)n;
out:
	free(v);
	strvec_clear(&argv);
	strbuf_release(&line);
	strbuf_release(&err);
	return ret;
}

void hosts_start_times(const struct hosts_session *s, int64_t ahead_ns, int64_t *t_ns,
		       char **starts)
{
	char buf[40];

	*t_ns = os_wall_ns() + ahead_ns;
	for (size_t i = 0; i < s->cfg->n; i++) {
		/* the same instant as that host's clock reads it */
		int64_t t = *t_ns + (s->st[i].clock ? (int64_t)llround(s->st[i].offset_s * 1e9) : 0);

		starts[i] = xstrdup(utc_format(buf, sizeof(buf), t));
	}
}

/* ---- the preflight ---- */

int hosts_preflight(struct hosts_session *s, unsigned int samples)
{
	const struct lab_hosts *cfg = s->cfg;
	struct hrun *p = xcalloc(cfg->n + 1, sizeof(*p));
	int *started = xcalloc(cfg->n + 1, sizeof(int));
	double lo = INFINITY, hi = -INFINITY;
	size_t lo_i = 0, hi_i = 0;
	unsigned int bad = 0;

	/* every connection at once: one slow host does not add its time to the others' */
	for (size_t i = 0; i < cfg->n; i++) {
		if (lab_host_local(&cfg->v[i])) {
			s->st[i].reached = true;
			continue;
		}
		started[i] = connect_start(s, i, &p[i]);
		if (started[i] == 1)
			s->st[i].reached = true;
		else if (started[i])
			problem(s, i, "cannot start ssh (%s): install the Debian package openssh-client",
				strerror(-started[i]));
	}
	for (size_t i = 0; i < cfg->n; i++)
		if (!lab_host_local(&cfg->v[i]) && !started[i])
			connect_finish(s, i, &p[i]);
	for (size_t i = 0; i < cfg->n; i++)
		if (s->st[i].reached)
			hosts_hello(s, i);
	for (size_t i = 0; i < cfg->n; i++) {
		struct host_state *st = &s->st[i];

		if (st->hello && (strcmp(st->version, fslab_version) || strcmp(st->git, fslab_git)))
			problem(s, i, "fslab there is %s (%s), this one %s (%s): the hosts must run the "
				"same build (results of different builds are not comparable); install "
				"this one there", st->version, st->git, fslab_version, fslab_git);
		/* one at a time: round trips measured without the others' traffic */
		if (st->hello && !st->problem)
			hosts_clock(s, i, samples);
		if (st->clock && !st->problem) {
			if (st->offset_s < lo) {
				lo = st->offset_s;
				lo_i = i;
			}
			if (st->offset_s > hi) {
				hi = st->offset_s;
				hi_i = i;
			}
		}
	}
	if (hi - lo > cfg->clock_limit_s)
		problem(s, hi_i, "its clock is %.3f s ahead of %s's (offsets %+.3f s and %+.3f s "
			"against this machine), more than clock_limit = %g s: synchronise the hosts' "
			"clocks (chrony or NTP on every host), or raise [lab] clock_limit",
			hi - lo, cfg->v[lo_i].name, hi, lo, cfg->clock_limit_s);
	for (size_t i = 0; i < cfg->n; i++)
		if (s->st[i].problem) {
			fslab_err("host %s: %s", cfg->v[i].name, s->st[i].problem);
			bad++;
		}
	free(p);
	free(started);
	if (bad) {
		fslab_err("preflight of the hosts found %u problem(s); nothing was changed on any host",
			  bad);
		return -FSLAB_EINPUT;
	}
	return 0;
}
