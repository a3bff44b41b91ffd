// SPDX-License-Identifier: MIT
/*
 * hosts.c: a lab's hosts at work over OpenSSH (hosts.h): the ssh argv of a step, one reused
 * connection per host, the preflight (connect, hello, clocks), start times and the fetch of
 * results with their sha256.  Nothing here listens or runs a daemon: every host is reached by
 * the user's own ssh, as the user's ssh configuration says.
 */
#include "lab/hosts.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argv_quote.h"
#include "lab/hosts_procP.h"
#include "remote/remote.h"
#include "util.h"
#include "utctime.h"

/* ---- names and paths ---- */

char *hosts_lab_id(const char *out_dir)
{
	char host[256] = "?", hex[SHA256_HEX_LEN + 1], *abs = realpath(out_dir, NULL), *key;

	if (!abs) {
		char cwd[PATH_MAX];

		abs = out_dir[0] == '/' || !getcwd(cwd, sizeof(cwd)) ? xstrdup(out_dir)
								    : path_join(cwd, out_dir);
	}
	gethostname(host, sizeof(host) - 1);
	key = xasprintf("%s:%s", host, abs);
	sha256_hex(key, strlen(key), hex);
	free(key);
	free(abs);
	hex[12] = 0;
	return xstrdup(hex);
}

char *hosts_workdir(const struct lab_host *h, const char *lab_id)
{
	if (h->workdir)
		return xstrdup(h->workdir);
	if (h->os == HOST_OS_WINDOWS)
		return xasprintf("C:\\fslab-lab-%s\\%s", lab_id, h->name);
	return xasprintf("/var/tmp/fslab-lab-%s/%s", lab_id, h->name);
}

char *hosts_remote_path(const struct lab_host *h, const char *lab_id, const char *rel)
{
	char *wd = hosts_workdir(h, lab_id), sep = h->os == HOST_OS_WINDOWS ? '\\' : '/';
	size_t n = strlen(wd);
	char *out = xasprintf("%s%s%s", wd, n && (wd[n - 1] == '/' || wd[n - 1] == '\\') ? "" :
			      (char[2]){ sep, 0 }, rel);

	for (char *p = out + strlen(wd); *p; p++)
		if (*p == '/' || *p == '\\')
			*p = sep;
	free(wd);
	return out;
}

/* ---- ssh ---- */

/* The options every ssh of the lab has: the user's config, never a password prompt,
 * keepalives that notice a dead host within 10 s, the connection's socket. */
static void ssh_base(const struct lab_hosts *cfg, const char *ctl_dir, struct strvec *out)
{
	strvec_push(out, "ssh");
	if (cfg->ssh_config)
		strvec_pushl(out, "-F", cfg->ssh_config, NULL);
	strvec_pushl(out, "-o", "BatchMode=yes", NULL);
	strvec_push(out, "-o");
	strvec_pushf(out, "ServerAliveInterval=%d", HOSTS_ALIVE_INTERVAL);
	strvec_push(out, "-o");
	strvec_pushf(out, "ServerAliveCountMax=%d", HOSTS_ALIVE_COUNT);
	strvec_push(out, "-o");
	strvec_pushf(out, "ConnectTimeout=%d", HOSTS_CONNECT_TIMEOUT);
	if (ctl_dir) {
		strvec_push(out, "-o");
		strvec_pushf(out, "ControlPath=%s/%%C", ctl_dir);
	}
}

void hosts_ssh_argv(const struct lab_hosts *cfg, const struct lab_host *h, const char *ctl_dir,
		    const char *remote_cmd, struct strvec *out)
{
	ssh_base(cfg, ctl_dir, out);
	/* a step uses the host's connection when it is there and never becomes one itself (a
	 * connection in a step's process would end with it) */
	strvec_pushl(out, "-o", "ControlMaster=no", "-T", "--", h->ssh, remote_cmd, NULL);
}

int hosts_remote_command(const struct lab_host *h, const char *const *args, struct strbuf *out,
			 const char **why)
{
	struct strvec v = STRVEC_INIT;
	int ret = 0;

	strvec_push(&v, lab_host_fslab(h));
	strvec_pushv(&v, args);
	if (h->os == HOST_OS_WINDOWS) {
		ret = argv_quote_cmd(out, v.v, why);
	} else {
		/* exec: fslab itself is the session's process, so a closed session reaches it */
		strbuf_addstr(out, "exec ");
		argv_quote_sh(out, v.v);
	}
	strvec_clear(&v);
	return ret;
}

int hosts_step_argv(const struct hosts_session *s, size_t i, const char *const *args,
		    struct strvec *out, const char **why)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct strbuf cmd = STRBUF_INIT;
	int ret;

	if (lab_host_local(h)) {
		strvec_push(out, s->self);
		strvec_pushv(out, args);
		return 0;
	}
	ret = hosts_remote_command(h, args, &cmd, why);
	if (!ret)
		hosts_ssh_argv(s->cfg, h, s->ctl_dir, cmd.buf, out);
	strbuf_release(&cmd);
	return ret;
}

static const char *jtext(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "?";
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
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
	ssh_base(s->cfg, s->ctl_dir, out);
	strvec_pushl(out, "-O", op, "--", h->ssh, NULL);
}

/* ssh -O check|exit: its exit status (0: a connection is there / was told to go) */
static int control(const struct hosts_session *s, const struct lab_host *h, const char *op)
{
	struct strvec a = STRVEC_INIT;
	struct hproc p;
	int ret;

	ssh_control(s, h, op, &a);
	ret = hproc_spawn(&p, a.v, 0, NULL);
	if (!ret)
		ret = hproc_collect(&p, NULL, NULL, 0, now_ns() + 10 * NSEC_PER_SEC);
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

/* The last lines of text, one line, for a message. */
static char *tail_text(const char *text, size_t max)
{
	size_t n = strlen(text);
	char *out, *p;

	while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
		n--;
	out = xasprintf("%.*s", (int)MIN(n, max), text + (n > max ? n - max : 0));
	for (p = out; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return out;
}

/* ---- connect ---- */

static char *conn_log(const struct hosts_session *s, size_t i)
{
	return xasprintf("%s/h%zu.log", s->ctl_dir, i);
}

static int connect_start(struct hosts_session *s, size_t i, struct hproc *p)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct strvec a = STRVEC_INIT;
	char *log;
	int ret;

	if (!control(s, h, "check"))
		return 1; /* there already */
	ssh_base(s->cfg, s->ctl_dir, &a);
	/* the connection goes to the background once authenticated (-f) and stays ten minutes
	 * after its last session (a lab's steps follow each other within seconds).  Not -M as
	 * well: ControlMaster=yes and -M together mean "ask before each session", which
	 * BatchMode refuses */
	strvec_pushl(&a, "-o", "ControlMaster=yes", "-o", "ControlPersist=600", "-N", "-f", "--",
		     h->ssh, NULL);
	log = conn_log(s, i);
	ret = hproc_spawn(p, a.v, 0, log);
	free(log);
	strvec_clear(&a);
	return ret;
}

static int connect_finish(struct hosts_session *s, size_t i, struct hproc *p)
{
	const struct lab_host *h = &s->cfg->v[i];
	int st = hproc_wait(p, now_ns() + (HOSTS_CONNECT_TIMEOUT + 30) * NSEC_PER_SEC);

	if (st == 0 && !control(s, h, "check")) {
		s->st[i].reached = true;
		return 0;
	}
	{
		char *log = conn_log(s, i), *text = NULL, *t;

		if (read_file(log, &text, NULL))
			text = xstrdup("");
		t = tail_text(text, 300);
		problem(s, i, "cannot connect to %s over ssh (%s%s%s): check that 'ssh%s%s -o "
			"BatchMode=yes %s true' works without a prompt (a key, not a password) and "
			"that its host key is in your known_hosts (fslab never accepts one for you)",
			h->ssh, st == -ETIMEDOUT ? "no answer" : "ssh failed", *t ? ": " : "", t,
			s->cfg->ssh_config ? " -F " : "", s->cfg->ssh_config ? s->cfg->ssh_config : "",
			h->ssh);
		free(t);
		free(text);
		free(log);
	}
	return -EHOSTUNREACH;
}

int hosts_connect(struct hosts_session *s, size_t i)
{
	struct hproc p;
	int ret;

	if (lab_host_local(&s->cfg->v[i])) {
		s->st[i].reached = true;
		return 0;
	}
	ret = connect_start(s, i, &p);
	if (ret == 1) {
		s->st[i].reached = true;
		return 0;
	}
	if (ret) {
		problem(s, i, "cannot start ssh (%s): install the Debian package openssh-client",
			strerror(-ret));
		return ret;
	}
	return connect_finish(s, i, &p);
}

/* ---- hello: version, system, the arguments as received ---- */

/* Words a shell or cmd.exe would change if the quoting were wrong (the newline: POSIX). */
static const char *const probe_words[] = {
	"a b", "it's", "\"q\"", "$(exit 3)", "`exit 3`", "a;b", "%PATH%", "^!&|<>()", "C:\\d\\",
	"\xc3\xa9", "l1\nl2",
};

int hosts_hello(struct hosts_session *s, size_t i)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct host_state *st = &s->st[i];
	size_t nwords = ARRAY_SIZE(probe_words) - (h->os == HOST_OS_WINDOWS);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct strvec args = STRVEC_INIT, argv = STRVEC_INIT;
	const char *why = NULL;
	json_t *j = NULL, *a;
	struct hproc p;
	char *line, *save = NULL;
	int ret;

	strvec_push(&args, "hello");
	for (size_t k = 0; k < nwords; k++)
		strvec_push(&args, probe_words[k]);
	ret = hosts_step_argv(s, i, args.v, &argv, &why);
	if (!ret)
		ret = hproc_spawn(&p, argv.v, HPROC_STDOUT, NULL);
	if (!ret)
		ret = hproc_collect(&p, &out, &err, 1 << 20, now_ns() + 60 * NSEC_PER_SEC);
	if (ret) {
		char *t = tail_text(err.buf, 300);

		if (ret == 127 || strstr(err.buf, "not found") || strstr(err.buf, "not recognized"))
			problem(s, i, "%s is not there (%s): install the same fslab build on it, or "
				"give its path with fslab = PATH in [host %s]", lab_host_fslab(h), t,
				h->name);
		else if (ret < 0)
			problem(s, i, "'%s hello' failed (%s%s%s)", lab_host_fslab(h), strerror(-ret),
				*t ? ": " : "", t);
		else
			problem(s, i, "'%s hello' failed (exit status %d%s%s)", lab_host_fslab(h), ret,
				*t ? ": " : "", t);
		free(t);
		ret = -EPROTO;
		goto out;
	}
	/* the last line that is fslab's answer (a login script may print before it) */
	for (line = strtok_r(out.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_t *x = json_loads(line, 0, NULL);

		if (x && !strcmp(jtext(x, "schema"), REMOTE_HELLO_SCHEMA)) {
			json_decref(j);
			j = x;
		} else {
			json_decref(x);
		}
	}
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
	a = json_object_get(j, "argv");
	for (size_t k = 0; k < nwords; k++) {
		const char *got = json_string_value(json_array_get(a, k));

		if (!got || strcmp(got, probe_words[k]) || json_array_size(a) != nwords) {
			struct strbuf q = STRBUF_INIT;

			strbuf_add_sq(&q, probe_words[k]);
			problem(s, i, "arguments do not arrive unchanged (%s came back as %s): the "
				"login shell there must be a POSIX shell (sh, bash, dash, zsh, ksh) for a "
				"Linux host, or cmd.exe, Windows OpenSSH's default shell, with delayed "
				"expansion off, for an os = windows host", q.buf, got ? got : "nothing");
			strbuf_release(&q);
			ret = -EPROTO;
			goto out;
		}
	}
	if (strcmp(st->os, h->os == HOST_OS_WINDOWS ? "windows" : "linux")) {
		problem(s, i, "fslab there runs on %s, the config says os = %s: fix os in [host %s]",
			st->os, h->os == HOST_OS_WINDOWS ? "windows" : "linux", h->name);
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
	struct hproc p;
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
		ret = hproc_spawn(&p, argv.v, HPROC_STDIN | HPROC_STDOUT, NULL);
	if (ret) {
		problem(s, i, "cannot start ssh for the clock (%s)", strerror(-ret));
		goto out;
	}
	for (n = 0; n < samples; n++) {
		uint64_t m0 = now_ns();
		int64_t w0 = os_wall_ns();
		char *end;

		if (write(p.in, "\n", 1) != 1) {
			ret = -errno;
			break;
		}
		ret = hproc_read_line(p.out, &line, 64, m0 + 15 * NSEC_PER_SEC);
		if (ret)
			break;
		v[n].asked_ns = w0;
		v[n].rtt_ns = (int64_t)(now_ns() - m0);
		v[n].remote_ns = strtoll(line.buf, &end, 10);
		if (end == line.buf || *end) {
			ret = -EPROTO;
			break;
		}
	}
	hproc_collect(&p, NULL, &err, 4096, now_ns() + 10 * NSEC_PER_SEC);
	if (!ret)
		ret = hosts_clock_best(v, n, &st->offset_s, &st->rtt_s);
	if (ret) {
		char *t = tail_text(err.buf, 200);

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
	struct hproc *p = xcalloc(cfg->n + 1, sizeof(*p));
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

/* ---- results back ---- */

static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : (int)got;
		got += (size_t)n;
	}
	return (int)got;
}

/* A line from fd (blocking, byte by byte, at most cap): 0, or -EPROTO / -errno. */
static int read_line_fd(int fd, struct strbuf *sb, size_t cap)
{
	strbuf_reset(sb);
	for (;;) {
		char ch;
		int n = read_full(fd, &ch, 1);

		if (n < 0)
			return n;
		if (n == 0)
			return -EPROTO;
		if (ch == '\n')
			return 0;
		if (sb->len >= cap)
			return -EPROTO;
		strbuf_addch(sb, ch);
	}
}

int hosts_receive_result(int fd, const char *local_path, uint64_t max_bytes,
			 char hex[SHA256_HEX_LEN + 1], struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT;
	struct atomic_file af;
	struct sha256 h;
	uint8_t d[SHA256_LEN];
	char *buf = NULL, *end;
	unsigned long long size = 0, left;
	const char *sent;
	int ret;

	ret = read_line_fd(fd, &line, 128);
	if (!ret && (strncmp(line.buf, REMOTE_CAT_SCHEMA " ", strlen(REMOTE_CAT_SCHEMA) + 1) ||
		     !all_digits(line.buf + strlen(REMOTE_CAT_SCHEMA) + 1)))
		ret = -EPROTO;
	if (ret) {
		strbuf_addf(err, "no '%s SIZE' line came first (is fslab there this build?)",
			    REMOTE_CAT_SCHEMA);
		goto out;
	}
	errno = 0;
	size = strtoull(line.buf + strlen(REMOTE_CAT_SCHEMA) + 1, &end, 10);
	if (errno || size > max_bytes) {
		strbuf_addf(err, "it announced %s bytes, more than the %llu a result may have",
			    line.buf + strlen(REMOTE_CAT_SCHEMA) + 1, (unsigned long long)max_bytes);
		ret = -EFBIG;
		goto out;
	}
	ret = atomic_open(&af, local_path);
	if (ret) {
		strbuf_addf(err, "cannot create %s (%s)", local_path, strerror(-ret));
		goto out;
	}
	buf = xmalloc(1 << 16);
	sha256_init(&h);
	for (left = size; left;) {
		int n = read_full(fd, buf, MIN(left, (unsigned long long)(1 << 16)));

		if (n <= 0) {
			strbuf_addf(err, "the stream ended after %llu of %llu bytes", size - left, size);
			ret = n < 0 ? n : -EPROTO;
			atomic_abort(&af);
			goto out;
		}
		sha256_update(&h, buf, (size_t)n);
		if (fwrite(buf, 1, (size_t)n, af.f) != (size_t)n) {
			ret = -EIO;
			strbuf_addf(err, "cannot write %s", local_path);
			atomic_abort(&af);
			goto out;
		}
		left -= (unsigned long long)n;
	}
	sha256_final(&h, d);
	sha256_to_hex(d, hex);
	/* "\nsha256 HEX\n", then the end of the stream */
	ret = read_line_fd(fd, &line, 8);
	if (!ret && line.len)
		ret = -EPROTO;
	if (!ret)
		ret = read_line_fd(fd, &line, 128);
	sent = line.buf + 7;
	if (!ret && (strncmp(line.buf, "sha256 ", 7) || !sha256_hex_valid(sent)))
		ret = -EPROTO;
	if (ret) {
		strbuf_addf(err, "no 'sha256 HEX' line after the %llu bytes", size);
		atomic_abort(&af);
		goto out;
	}
	if (strcmp(sent, hex)) {
		strbuf_addf(err, "the sha256 of the bytes received (%s) is not the one sent (%s)", hex,
			    sent);
		ret = -EPROTO;
		atomic_abort(&af);
		goto out;
	}
	if (read_full(fd, buf, 1) != 0) {
		strbuf_addf(err, "more bytes followed the sha256 line");
		ret = -EPROTO;
		atomic_abort(&af);
		goto out;
	}
	ret = atomic_commit(&af);
	if (ret)
		strbuf_addf(err, "cannot write %s (%s)", local_path, strerror(-ret));
out:
	free(buf);
	strbuf_release(&line);
	return ret;
}

int hosts_fetch(struct hosts_session *s, size_t i, const char *remote_path,
		const char *local_path, uint64_t max_bytes, char hex[SHA256_HEX_LEN + 1])
{
	const struct lab_host *h = &s->cfg->v[i];
	struct strvec argv = STRVEC_INIT;
	struct strbuf err = STRBUF_INIT, why_rx = STRBUF_INIT;
	const char *why = NULL;
	struct hproc p;
	int ret, st = 0;

	ret = hosts_step_argv(s, i, (const char *[]){ "cat-result", remote_path, NULL }, &argv, &why);
	if (ret) {
		fslab_err("host %s: cannot fetch %s: %s", h->name, remote_path, why);
		goto out;
	}
	ret = hproc_spawn(&p, argv.v, HPROC_STDOUT, NULL);
	if (ret) {
		fslab_err("host %s: cannot start ssh (%s)", h->name, strerror(-ret));
		goto out;
	}
	ret = hosts_receive_result(p.out, local_path, max_bytes, hex, &why_rx);
	if (ret)
		hproc_kill(&p);
	else
		st = hproc_collect(&p, NULL, &err, 4096, now_ns() + 30 * NSEC_PER_SEC);
	if (!ret && st) {
		ret = -EPROTO;
		os_unlink(local_path);
	}
	if (ret) {
		char *t = tail_text(err.buf, 300);

		fslab_err("host %s: cannot fetch %s: %s%s%s", h->name, remote_path,
			  why_rx.len ? why_rx.buf : "fslab cat-result failed", *t ? ": " : "", t);
		free(t);
	}
out:
	strvec_clear(&argv);
	strbuf_release(&err);
	strbuf_release(&why_rx);
	return ret;
}
