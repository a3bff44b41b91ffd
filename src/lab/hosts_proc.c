// SPDX-License-Identifier: MIT
/*
 * hosts_proc.c: the few processes the hosts module starts itself during the preflight and a
 * fetch (ssh for hello, clock, cat-result, the connection), with pipes, a deadline and no
 * shell.  The lab's steps are the step runner's (child.c); when the platform layer's process
 * calls (os_proc_spawn/poll/kill, issue 18) land, this file becomes a thin use of them.
 */
#include "lab/hosts_procP.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

int hproc_spawn(struct hproc *p, const char *const *argv, unsigned int flags,
		const char *stderr_path)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	pid_t parent = getpid();

	memset(p, 0, sizeof(*p));
	p->in = p->out = p->err = -1;
	if (((flags & HPROC_STDIN) && pipe2(in, O_CLOEXEC)) ||
	    ((flags & HPROC_STDOUT) && pipe2(out, O_CLOEXEC)) ||
	    (!stderr_path && pipe2(err, O_CLOEXEC))) {
		int e = -errno;

		for (int i = 0; i < 2; i++) {
			if (in[i] >= 0)
				close(in[i]);
			if (out[i] >= 0)
				close(out[i]);
			if (err[i] >= 0)
				close(err[i]);
		}
		return e;
	}
	fflush(NULL);
	p->pid = fork();
	if (p->pid < 0) {
		int e = -errno;

		for (int i = 0; i < 2; i++) {
			if (in[i] >= 0)
				close(in[i]);
			if (out[i] >= 0)
				close(out[i]);
			if (err[i] >= 0)
				close(err[i]);
		}
		return e;
	}
	if (!p->pid) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		sigset_t none;

		/* the lab killed takes its ssh with it (as child.c's steps) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(128 + SIGKILL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* its own process group: a Ctrl-C of the terminal reaches the lab, which decides */
		setpgid(0, 0);
		dup2(flags & HPROC_STDIN ? in[0] : null, 0);
		dup2(flags & HPROC_STDOUT ? out[1] : null, 1);
		if (stderr_path) {
			int fd = open(stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

			dup2(fd >= 0 ? fd : null, 2);
		} else {
			dup2(err[1], 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (flags & HPROC_STDIN) {
		close(in[0]);
		p->in = in[1];
	}
	if (flags & HPROC_STDOUT) {
		close(out[1]);
		p->out = out[0];
	}
	if (!stderr_path) {
		close(err[1]);
		p->err = err[0];
	}
	return 0;
}

/* Read what fd has into sb (at most cap bytes kept); 0 at EOF, 1 when more may come. */
static int drain(int fd, struct strbuf *sb, size_t cap)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	if (n == 0)
		return 0;
	if (sb && sb->len < cap)
		strbuf_add(sb, buf, MIN((size_t)n, cap - sb->len));
	return 1;
}

int hproc_wait(struct hproc *p, uint64_t deadline_ns)
{
	int status;

	for (;;) {
		pid_t w = waitpid(p->pid, &status, WNOHANG);

		if (w == p->pid)
			break;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (deadline_ns && now_ns() >= deadline_ns) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, &status, 0);
			p->pid = 0;
			return -ETIMEDOUT;
		}
		{
			struct timespec ts = { 0, 20 * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
	p->pid = 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int hproc_collect(struct hproc *p, struct strbuf *out, struct strbuf *err, size_t cap,
		  uint64_t deadline_ns)
{
	struct pollfd fds[2];

	if (p->in >= 0) {
		close(p->in);
		p->in = -1;
	}
	while (p->out >= 0 || p->err >= 0) {
		uint64_t now = now_ns();
		int nf = 0, r;

		if (deadline_ns && now >= deadline_ns) {
			hproc_kill(p);
			return -ETIMEDOUT;
		}
		if (p->out >= 0)
			fds[nf++] = (struct pollfd){ .fd = p->out, .events = POLLIN };
		if (p->err >= 0)
			fds[nf++] = (struct pollfd){ .fd = p->err, .events = POLLIN };
		r = poll(fds, (nfds_t)nf, deadline_ns ? (int)MIN((deadline_ns - now) / 1000000 + 1, 1000)
						      : 1000);
		if (r < 0 && errno != EINTR)
			break;
		for (int i = 0; r > 0 && i < nf; i++) {
			int *fd = fds[i].fd == p->out ? &p->out : &p->err;

			if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!drain(*fd, fd == &p->out ? out : err, cap)) {
				close(*fd);
				*fd = -1;
			}
		}
	}
	return hproc_wait(p, deadline_ns);
}

void hproc_kill(struct hproc *p)
{
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
		p->pid = 0;
	}
	hproc_close(p);
}

void hproc_close(struct hproc *p)
{
	if (p->in >= 0)
		close(p->in);
	if (p->out >= 0)
		close(p->out);
	if (p->err >= 0)
		close(p->err);
	p->in = p->out = p->err = -1;
}

int hproc_read_line(int fd, struct strbuf *line, size_t cap, uint64_t deadline_ns)
{
	strbuf_reset(line);
	for (;;) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		uint64_t now = now_ns();
		char ch;
		ssize_t n;
		int r;

		if (now >= deadline_ns)
			return -ETIMEDOUT;
		r = poll(&pf, 1, (int)MIN((deadline_ns - now) / 1000000 + 1, 1000));
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		/* one byte at a time: what follows the line stays in the pipe for the caller */
		n = read(fd, &ch, 1);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		if (ch == '\n') {
			if (line->len && line->buf[line->len - 1] == '\r')
				strbuf_setlen(line, line->len - 1);
			return 0;
		}
		if (line->len >= cap)
			return -EPROTO;
		strbuf_addch(line, ch);
	}
}
