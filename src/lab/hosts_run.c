// SPDX-License-Identifier: MIT
/*
 * hosts_run.c: the processes the hosts module starts itself (hostsP.h struct hrun): ssh, or
 * this fslab for ssh = local, through the platform layer's os_proc_* calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lab/hostsP.h"
#include "os/os.h"
#include "lib/base.h"

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

int hrun_start(struct hrun *r, const char *const *argv, bool stdin_pipe, size_t cap)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->out, 0);
	strbuf_init(&r->err, 0);
	r->cap = cap;
	return os_proc_spawn(argv, OS_PROC_OWN_GROUP | OS_PROC_DIE_WITH_PARENT |
			     (stdin_pipe ? OS_PROC_STDIN_PIPE : 0), &r->p);
}

/* Wait up to timeout_ms: 1 when it ended (r->status), 0 while it runs, -errno. */
int hrun_poll(struct hrun *r, int timeout_ms)
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
int hrun_wait(struct hrun *r, uint64_t deadline_ns)
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
int hrun_read_line(struct hrun *r, struct strbuf *line, size_t cap, uint64_t deadline_ns)
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

void hrun_free(struct hrun *r)
{
	os_proc_free(r->p); /* one still running is killed */
	r->p = NULL;
	strbuf_release(&r->out);
	strbuf_release(&r->err);
}

/* Run argv to its end (killed at deadline_ns): its exit status or -errno; stdout and stderr
 * kept in out and err when given (up to cap bytes of stdout). */
int hrun(const char *const *argv, struct strbuf *out, struct strbuf *err, size_t cap,
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

/* The last lines of text, one line, for a message. */
char *hosts_tail_text(const char *text, size_t max)
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
