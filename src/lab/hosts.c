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
#include "os/os.h"
#include "remote/remote.h"
#include "util.h"
#include "utctime.h"

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

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* ---- its processes: ssh (or this fslab) through the platform layer (os_proc) ---- */

/*
 * One process the hosts module starts itself (a connection, hello, the clock, a fetch, a
 * control command), through the same os_proc_* calls as the lab's steps: no shell, its own
 * process group, dying with the lab.  Its stdout is kept in out (up to cap bytes) or handed
 * to on_out as it arrives; its stderr kept in err (up to 64 KiB, for messages).
 */
struct hrun {
	struct os_proc *p;
	struct strbuf out, err;
	size_t cap;
	void (*on_out)(void *ctx, const char *buf, size_t len);
	void *ctx;
	bool done;
	int status;
};

static void hrun_output(void *ctx, int stream, const char *buf, size_t len)
{
	struct hrun *r = ctx;
	struct strbuf *sb = stream == OS_PROC_STDOUT ? &r->out : &r->err;
	size_t cap = stream == OS_PROC_STDOUT ? r->cap : 64 << 10;

	if (stream == OS_PROC_STDOUT && r->on_out) {
		r->on_out(r->ctx, buf, len);
		return;
	}
	if (sb->len < cap)
		strbuf_add(sb, buf, MIN(len, cap - sb->len));
}

static int hrun_start(struct hrun *r, const char *const *argv, bool stdin_pipe, size_t cap)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->out, 0);
	strbuf_init(&r->err, 0);
	r->cap = cap;
	return os_proc_spawn(argv, OS_PROC_OWN_GROUP | OS_PROC_DIE_WITH_PARENT |
			     (stdin_pipe ? OS_PROC_STDIN_PIPE : 0), &r->p);
}

/* Wait up to timeout_ms: 1 when it ended (r->status), 0 while it runs, -errno. */
static int hrun_poll(struct hrun *r, int timeout_ms)
{
	int ret;

	if (r->done)
		return 1;
	ret = os_proc_poll(r->p, timeout_ms, hrun_output, r, &r->status);
	if (ret == 1)
		r->done = true;
	return ret;
}

/* Its end (stdin closed first): the exit status, or -ETIMEDOUT (killed) at deadline_ns. */
static int hrun_wait(struct hrun *r, uint64_t deadline_ns)
{
	os_proc_close_stdin(r->p);
	while (!r->done) {
		uint64_t now = now_ns();
		int ret;

		if (now >= deadline_ns) {
			os_proc_kill(r->p);
			while (hrun_poll(r, 100) == 0)
				;
			return -ETIMEDOUT;
		}
		ret = hrun_poll(r, (int)MIN((deadline_ns - now) / 1000000 + 1, 1000));
		if (ret < 0)
			return ret;
	}
	return r->status;
}

/* A line of its stdout (without "\n" or "\r\n", at most cap bytes) into line, what follows
 * it kept: 0, -ETIMEDOUT at deadline_ns, -EPIPE at its end, -EPROTO for a longer line. */
static int hrun_read_line(struct hrun *r, struct strbuf *line, size_t cap, uint64_t deadline_ns)
{
	for (;;) {
		char *nl = memchr(r->out.buf, '\n', r->out.len);
		uint64_t now;

		if (nl) {
			size_t n = (size_t)(nl - r->out.buf);

			strbuf_reset(line);
			strbuf_add(line, r->out.buf, n - (n && nl[-1] == '\r'));
			memmove(r->out.buf, nl + 1, r->out.len - n - 1);
			strbuf_setlen(&r->out, r->out.len - n - 1);
			return line->len > cap ? -EPROTO : 0;
		}
		if (r->out.len > cap)
			return -EPROTO;
		if (r->done)
			return -EPIPE;
		now = now_ns();
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		if (hrun_poll(r, (int)MIN((deadline_ns - now) / 1000000 + 1, 1000)) < 0)
			return -EIO;
	}
}

static void hrun_free(struct hrun *r)
{
	os_proc_free(r->p); /* one still running is killed */
	r->p = NULL;
	strbuf_release(&r->out);
	strbuf_release(&r->err);
}

/* Run argv to its end (killed at deadline_ns): its exit status or -errno; stdout and stderr
 * kept in out and err when given (up to cap bytes of stdout). */
static int hrun(const char *const *argv, struct strbuf *out, struct strbuf *err, size_t cap,
		uint64_t deadline_ns)
{
	struct hrun r;
	int ret = hrun_start(&r, argv, false, cap);

	if (ret)
		return ret;
	ret = hrun_wait(&r, deadline_ns);
	if (out)
		strbuf_add(out, r.out.buf, r.out.len);
	if (err)
		strbuf_add(err, r.err.buf, r.err.len);
	hrun_free(&r);
	return ret;
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
	t = tail_text(r->err.buf, 300);
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
	char *t = tail_text(err, 300);

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

/* ---- results back ---- */

/*
 * The receiving side of fslab cat-result, fed the stream in pieces as they arrive (from a
 * pipe, from ssh's output): "fslab-cat-result/1 SIZE\n", SIZE bytes (into an atomic file,
 * hashed), "\nsha256 HEX\n", then nothing.  The first problem stops it; nothing is written
 * unless the whole stream was right.
 */
enum rx_state { RX_HEADER, RX_BODY, RX_SEP, RX_TRAILER, RX_END, RX_FAILED };

struct result_rx {
	enum rx_state state;
	const char *path;
	uint64_t max, size, left;
	struct strbuf line, *err;
	struct atomic_file af;
	bool open;
	struct sha256 h;
	int ret;
};

static void rx_fail(struct result_rx *rx, int ret)
{
	if (rx->open)
		atomic_abort(&rx->af);
	rx->open = false;
	rx->ret = ret;
	rx->state = RX_FAILED;
}

static void rx_header(struct result_rx *rx)
{
	const char *num = rx->line.buf + strlen(REMOTE_CAT_SCHEMA) + 1;
	int ret;

	if (strncmp(rx->line.buf, REMOTE_CAT_SCHEMA " ", strlen(REMOTE_CAT_SCHEMA) + 1) ||
	    !all_digits(num)) {
		strbuf_addf(rx->err, "no '%s SIZE' line came first (is fslab there this build?)",
			    REMOTE_CAT_SCHEMA);
		rx_fail(rx, -EPROTO);
		return;
	}
	errno = 0;
	rx->size = strtoull(num, NULL, 10);
	if (errno || rx->size > rx->max) {
		strbuf_addf(rx->err, "it announced %s bytes, more than the %llu a result may have",
			    num, (unsigned long long)rx->max);
		rx_fail(rx, -EFBIG);
		return;
	}
	ret = atomic_open(&rx->af, rx->path);
	if (ret) {
		strbuf_addf(rx->err, "cannot create %s (%s)", rx->path,
			    ret == -FSLAB_EINPUT ? "not a regular file" : strerror(-ret));
		rx_fail(rx, ret);
		return;
	}
	rx->open = true;
	sha256_init(&rx->h);
	rx->left = rx->size;
	rx->state = rx->left ? RX_BODY : RX_SEP;
}

static void rx_feed(struct result_rx *rx, const char *buf, size_t len)
{
	while (len && rx->state != RX_FAILED) {
		switch (rx->state) {
		case RX_HEADER:
		case RX_TRAILER:
			if (*buf != '\n') {
				if (rx->line.len >= 128) {
					if (rx->state == RX_HEADER)
						strbuf_addf(rx->err, "no '%s SIZE' line came first (is "
							    "fslab there this build?)", REMOTE_CAT_SCHEMA);
					else
						strbuf_addf(rx->err, "no 'sha256 HEX' line after the "
							    "%llu bytes", (unsigned long long)rx->size);
					rx_fail(rx, -EPROTO);
					break;
				}
				strbuf_addch(&rx->line, *buf);
			} else if (rx->state == RX_HEADER) {
				rx_header(rx);
				strbuf_reset(&rx->line);
			} else {
				rx->state = RX_END;
			}
			buf++;
			len--;
			break;
		case RX_BODY: {
			size_t n = (size_t)MIN((uint64_t)len, rx->left);

			sha256_update(&rx->h, buf, n);
			if (fwrite(buf, 1, n, rx->af.f) != n) {
				strbuf_addf(rx->err, "cannot write %s", rx->path);
				rx_fail(rx, -EIO);
				break;
			}
			rx->left -= n;
			buf += n;
			len -= n;
			if (!rx->left)
				rx->state = RX_SEP;
			break;
		}
		case RX_SEP:
			if (*buf != '\n') {
				strbuf_addf(rx->err, "no 'sha256 HEX' line after the %llu bytes",
					    (unsigned long long)rx->size);
				rx_fail(rx, -EPROTO);
				break;
			}
			rx->state = RX_TRAILER;
			buf++;
			len--;
			break;
		case RX_END:
			strbuf_addf(rx->err, "more bytes followed the sha256 line");
			rx_fail(rx, -EPROTO);
			break;
		case RX_FAILED:
			break;
		}
	}
}

static void rx_on_output(void *ctx, const char *buf, size_t len)
{
	rx_feed(ctx, buf, len);
}

/* The end of the stream: 0 with the file in place and its hash in hex, or -errno. */
static int rx_finish(struct result_rx *rx, char hex[SHA256_HEX_LEN + 1])
{
	uint8_t d[SHA256_LEN];
	const char *sent = rx->line.buf + 7;
	int ret;

	switch (rx->state) {
	case RX_FAILED:
		return rx->ret;
	case RX_HEADER:
		strbuf_addf(rx->err, "no '%s SIZE' line came first (is fslab there this build?)",
			    REMOTE_CAT_SCHEMA);
		return -EPROTO;
	case RX_BODY:
		strbuf_addf(rx->err, "the stream ended after %llu of %llu bytes",
			    (unsigned long long)(rx->size - rx->left), (unsigned long long)rx->size);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	case RX_SEP:
	case RX_TRAILER:
		strbuf_addf(rx->err, "no 'sha256 HEX' line after the %llu bytes",
			    (unsigned long long)rx->size);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	case RX_END:
		break;
	}
	sha256_final(&rx->h, d);
	sha256_to_hex(d, hex);
	if (strncmp(rx->line.buf, "sha256 ", 7) || !sha256_hex_valid(sent)) {
		strbuf_addf(rx->err, "no 'sha256 HEX' line after the %llu bytes",
			    (unsigned long long)rx->size);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	}
	if (strcmp(sent, hex)) {
		strbuf_addf(rx->err, "the sha256 of the bytes received (%s) is not the one sent (%s)",
			    hex, sent);
		rx_fail(rx, -EPROTO);
		return -EPROTO;
	}
	rx->open = false;
	ret = atomic_commit(&rx->af);
	if (ret)
		strbuf_addf(rx->err, "cannot write %s (%s)", rx->path,
			    ret == -FSLAB_EINPUT ? "not a regular file" : strerror(-ret));
	return ret;
}

static void rx_init(struct result_rx *rx, const char *local_path, uint64_t max_bytes,
		    struct strbuf *err)
{
	memset(rx, 0, sizeof(*rx));
	rx->path = local_path;
	rx->max = max_bytes;
	rx->err = err;
	strbuf_init(&rx->line, 0);
}

static void rx_release(struct result_rx *rx)
{
	if (rx->open)
		atomic_abort(&rx->af);
	rx->open = false;
	strbuf_release(&rx->line);
}

int hosts_receive_result(int fd, const char *local_path, uint64_t max_bytes,
			 char hex[SHA256_HEX_LEN + 1], struct strbuf *err)
{
	struct result_rx rx;
	char buf[1 << 14];
	int ret = 0;

	rx_init(&rx, local_path, max_bytes, err);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		if (n <= 0)
			break;
		rx_feed(&rx, buf, (size_t)n);
	}
	if (!ret)
		ret = rx_finish(&rx, hex);
	rx_release(&rx);
	return ret;
}

/* A fetch's problem: into msg when the caller keeps it, else on stderr. */
static void fetch_msg(struct strbuf *msg, const char *fmt, ...) __printf(2, 3);
static void fetch_msg(struct strbuf *msg, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (msg)
		strbuf_addbuf(msg, &sb);
	else
		fslab_err("%s", sb.buf);
	strbuf_release(&sb);
}

int hosts_fetch(struct hosts_session *s, size_t i, const char *remote_path,
		const char *local_path, uint64_t max_bytes, char hex[SHA256_HEX_LEN + 1],
		struct strbuf *msg)
{
	const struct lab_host *h = &s->cfg->v[i];
	struct strvec argv = STRVEC_INIT;
	struct strbuf why_rx = STRBUF_INIT;
	struct result_rx rx;
	const char *why = NULL;
	struct hrun r;
	int ret, st;

	ret = hosts_step_argv(s, i, (const char *[]){ "cat-result", remote_path, NULL }, &argv, &why);
	if (ret) {
		fetch_msg(msg, "host %s: cannot fetch %s: %s", h->name, remote_path, why);
		strvec_clear(&argv);
		return ret;
	}
	ret = hrun_start(&r, argv.v, false, 0);
	strvec_clear(&argv);
	if (ret) {
		fetch_msg(msg, "host %s: cannot start ssh (%s)", h->name, strerror(-ret));
		return ret;
	}
	rx_init(&rx, local_path, max_bytes, &why_rx);
	r.on_out = rx_on_output;
	r.ctx = &rx;
	/* a result is a few MB at most; keepalives end a dead connection sooner */
	st = hrun_wait(&r, now_ns() + 600 * NSEC_PER_SEC);
	if (st == HOSTS_SSH_FAILED && !hosts_connected(s, i)) {
		/* a lost host, whatever the stream held when it went (nothing is kept): never a
		 * torn stream blamed on the fslab there */
		fetch_msg(msg, "host %s: the ssh connection ended while %s was fetched (no answer "
			  "to keepalives within %d s: host down or network cut)", h->name,
			  remote_path, HOSTS_ALIVE_INTERVAL * (HOSTS_ALIVE_COUNT + 1));
		ret = -ENOTCONN;
		goto out;
	}
	ret = rx_finish(&rx, hex);
	if (!ret && st) {
		ret = st < 0 ? st : -EPROTO;
		os_unlink(local_path);
	}
	if (ret) {
		char *t = tail_text(r.err.buf, 300);

		/* nothing came and the command failed: its own words, not a guess at the build */
		if (rx.state == RX_HEADER && !rx.line.len && st) {
			strbuf_reset(&why_rx);
			strbuf_addf(&why_rx, "fslab cat-result %s %d", st < 0 ? "failed:" : "exited",
				    st);
		}
		fetch_msg(msg, "host %s: cannot fetch %s: %s%s%s", h->name, remote_path,
			  why_rx.len ? why_rx.buf : "fslab cat-result failed", *t ? ": " : "", t);
		free(t);
	}
out:
	rx_release(&rx);
	hrun_free(&r);
	strbuf_release(&why_rx);
	return ret;
}
