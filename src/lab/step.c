// SPDX-License-Identifier: MIT
/* step.c: the step runner (step.h): targets, the argv of a step, its child process through
 * the platform layer, and its output split into log lines and progress lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lab/hosts.h"
#include "lab/step.h"
#include "os/os.h"
#include "run/run.h"
#include "lib/strbuf.h"
#include "lib/base.h"

int step_target_local(struct step_target *t)
{
	memset(t, 0, sizeof(*t));
	t->fslab = os_exe_path();
	if (!t->fslab)
		return -ENOENT;
	t->name = xstrdup("this machine");
	t->sys = lab_system_here();
	return 0;
}

void step_target_host(struct step_target *t, const struct hosts_session *s, size_t i)
{
	const struct lab_host *h = &s->cfg->v[i];

	memset(t, 0, sizeof(*t));
	t->name = xstrdup(h->name);
	t->sys = lab_host_sys(h);
	t->fslab = xstrdup(lab_host_local(h) ? s->self : lab_host_fslab(h));
	t->hosts = s;
	t->host = i;
}

void step_target_release(struct step_target *t)
{
	free(t->name);
	free(t->fslab);
	memset(t, 0, sizeof(*t));
}

int step_argv(const struct step_target *t, const struct strvec *args, bool stoppable,
	      struct strvec *out, const char **why)
{
	struct strvec a = STRVEC_INIT;
	int ret;

	if (!t->hosts) {
		/* this machine: exec'd directly, no shell, nothing to quote */
		strvec_push(out, t->fslab);
		strvec_pushv(out, args->v);
		if (stoppable)
			strvec_push(out, "--stop-on-stdin-eof");
		return 0;
	}
	strvec_pushv(&a, args->v);
	if (stoppable)
		strvec_push(&a, "--stop-on-stdin-eof");
	ret = hosts_step_argv(t->hosts, t->host, a.v, out, why);
	strvec_clear(&a);
	return ret;
}

struct step {
	struct os_proc *proc;
	unsigned int flags;
	struct step_io io;
	struct strbuf line[2]; /* a line not yet ended, per stream (stdout, stderr) */
	bool stopped, done;
	int status;
};

/* One whole line (without its newline) of a stream: progress or log. */
static void step_line(struct step *s, int stream, const char *line, size_t len)
{
	while (len && line[len - 1] == '\r') /* Windows text mode ("\r\n", "\r\r\n") */
		len--;
	if (stream == OS_PROC_STDOUT && s->io.progress && len >= strlen(RUN_PROGRESS_TAG) &&
	    !memcmp(line, RUN_PROGRESS_TAG, strlen(RUN_PROGRESS_TAG))) {
		char *copy = xasprintf("%.*s", (int)len, line);

		s->io.progress(s->io.ctx, copy);
		free(copy);
		return;
	}
	if (s->io.log) {
		fwrite(line, 1, len, s->io.log);
		fputc('\n', s->io.log);
	}
}

static void on_output(void *ctx, int stream, const char *buf, size_t len)
{
	struct step *s = ctx;
	struct strbuf *sb = &s->line[stream == OS_PROC_STDOUT ? 0 : 1];

	for (size_t i = 0; i < len; i++) {
		if (buf[i] != '\n') {
			strbuf_addch(sb, buf[i]);
			continue;
		}
		step_line(s, stream, sb->buf, sb->len);
		strbuf_reset(sb);
	}
	if (s->io.log)
		fflush(s->io.log);
}

int step_start(const struct step_target *t, const struct strvec *args, unsigned int flags,
	       const struct step_io *io, struct step **out)
{
	struct strvec argv = STRVEC_INIT;
	struct step *s = xcalloc(1, sizeof(*s));
	unsigned int pflags = OS_PROC_OWN_GROUP;
	const char *why = NULL;
	int ret;

	ret = step_argv(t, args, flags & STEP_STOPPABLE, &argv, &why);
	if (ret) {
		strvec_clear(&argv);
		free(s);
		return ret;
	}
	if (flags & STEP_STOPPABLE)
		pflags |= OS_PROC_STDIN_PIPE;
	if (flags & STEP_KILLABLE)
		pflags |= OS_PROC_DIE_WITH_PARENT;
	if (io->log)
		fflush(io->log);
	ret = os_proc_spawn(argv.v, pflags, &s->proc);
	strvec_clear(&argv);
	if (ret) {
		free(s);
		return ret;
	}
	s->flags = flags;
	s->io = *io;
	strbuf_init(&s->line[0], 0);
	strbuf_init(&s->line[1], 0);
	*out = s;
	return 0;
}

int step_poll(struct step *s, int timeout_ms, int *status)
{
	int ret;

	if (s->done) {
		*status = s->status;
		return 1;
	}
	ret = os_proc_poll(s->proc, timeout_ms, on_output, s, &s->status);
	if (ret != 1)
		return ret;
	/* a last line without its newline */
	for (int i = 0; i < 2; i++)
		if (s->line[i].len) {
			step_line(s, i ? OS_PROC_STDERR : OS_PROC_STDOUT, s->line[i].buf,
				  s->line[i].len);
			strbuf_reset(&s->line[i]);
		}
	if (s->io.log)
		fflush(s->io.log);
	s->done = true;
	*status = s->status;
	return 1;
}

void step_stop(struct step *s)
{
	if (s->stopped || !(s->flags & STEP_STOPPABLE))
		return;
	s->stopped = true;
	os_proc_close_stdin(s->proc);
}

void step_kill(struct step *s)
{
	if (s->flags & STEP_KILLABLE)
		os_proc_kill(s->proc);
}

void step_free(struct step *s)
{
	int st;

	if (!s)
		return;
	/* one that may not be killed is waited for: it finishes its own work */
	while (!s->done && !(s->flags & STEP_KILLABLE) && step_poll(s, 1000, &st) == 0)
		;
	os_proc_free(s->proc);
	strbuf_release(&s->line[0]);
	strbuf_release(&s->line[1]);
	free(s);
}
