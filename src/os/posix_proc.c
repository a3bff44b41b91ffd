// SPDX-License-Identifier: MIT
/* posix_proc.c: processes on Linux (and POSIX): os_run(), process facts and child processes
 * with fork/exec, their output through pipes (os.h "child processes"). */
#include "os/osP.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <iconv.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/path.h"
#include "os/os.h"
#include "lib/strbuf.h"

/* ---- processes ---- */

int os_run(const char *const argv[], char **out)
{
	int pfd[2] = { -1, -1 };
	int status;
	pid_t pid;

	if (out && pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		if (out) {
			close(pfd[0]);
			close(pfd[1]);
		}
		return -e;
	}
	if (pid == 0) {
		if (out) {
			dup2(pfd[1], 1);
			dup2(pfd[1], 2);
		}
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (out) {
		struct strbuf sb = STRBUF_INIT;

		close(pfd[1]);
		(void)strbuf_read_fd(&sb, pfd[0]); /* what came before a read error is kept */
		close(pfd[0]);
		*out = strbuf_detach(&sb, NULL);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

bool os_have_program(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs = xasprintf("%s:/sbin:/usr/sbin:/usr/local/sbin", path ? path : "/usr/bin:/bin");
	char *save = NULL;
	bool found = false;

	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *f = path_join(d, name);

		found = access(f, X_OK) == 0;
		free(f);
	}
	free(dirs);
	return found;
}

unsigned long os_pid(void)
{
	return (unsigned long)getpid();
}

bool os_is_admin(void)
{
	return geteuid() == 0;
}

bool os_stderr_tty(void)
{
	return isatty(STDERR_FILENO);
}

bool os_stdout_tty(void)
{
	return isatty(STDOUT_FILENO);
}

char *os_exe_path(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = 0;
	return xstrdup(exe);
}

/* ---- child processes ---- */

struct os_proc {
	pid_t pid;
	unsigned int flags;
	int in, out, err;   /* the parent's ends, -1 once closed */
	bool exited, killed;
	int status;
	uint64_t exited_at; /* now_ns() when it was reaped */
};

/* A descriptor to the null device as stdin: the child reads EOF. */
static int null_fd(void)
{
	return open("/dev/null", O_RDWR | O_CLOEXEC);
}

int os_proc_spawn(const char *const argv[], unsigned int flags, struct os_proc **out)
{
	int in[2] = { -1, -1 }, o[2] = { -1, -1 }, e[2] = { -1, -1 }, ret = 0;
	struct os_proc *p;
	pid_t pid, parent = getpid();

	if (!argv[0])
		return -EINVAL;
	if (pipe2(o, O_CLOEXEC) || pipe2(e, O_CLOEXEC))
		ret = -errno;
	else if (flags & OS_PROC_STDIN_PIPE ? pipe2(in, O_CLOEXEC) : (in[0] = null_fd()) < 0)
		ret = -errno;
	if (ret)
		goto fail;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto fail;
	}
	if (pid == 0) {
		sigset_t none;

		/* a parent killed by SIGKILL takes this child with it: nothing runs on
		 * unsupervised (a run would go on writing on volumes the next teardown removes) */
		if (flags & OS_PROC_DIE_WITH_PARENT) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(OS_PROC_KILLED);
		}
		if (flags & OS_PROC_OWN_GROUP)
			setpgid(0, 0);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* dup2 clears close-on-exec on the copies */
		if (dup2(in[0], 0) < 0 || dup2(o[1], 1) < 0 || dup2(e[1], 2) < 0)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "fslab: error: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (flags & OS_PROC_OWN_GROUP)
		setpgid(pid, pid); /* also here: no window in which a kill of the group misses */
	close(in[0]);
	close(o[1]);
	close(e[1]);
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->flags = flags;
	p->in = in[1];
	p->out = o[0];
	p->err = e[0];
	fcntl(p->out, F_SETFL, O_NONBLOCK);
	fcntl(p->err, F_SETFL, O_NONBLOCK);
	*out = p;
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (o[i] >= 0)
			close(o[i]);
		if (e[i] >= 0)
			close(e[i]);
	}
	return ret;
}

/* Read what is there on *fd; at EOF close it.  */
static void drain(int *fd, int stream, os_proc_output_fn fn, void *ctx)
{
	char buf[8192];

	while (*fd >= 0) {
		ssize_t n = read(*fd, buf, sizeof(buf));

		if (n > 0) {
			if (fn)
				fn(ctx, stream, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		close(*fd); /* EOF, or an error: nothing more comes */
		*fd = -1;
	}
}

static void reap(struct os_proc *p, bool block)
{
	int st;
	pid_t w;

	if (p->exited)
		return;
	do
		w = waitpid(p->pid, &st, block ? 0 : WNOHANG);
	while (w < 0 && errno == EINTR);
	if (w != p->pid)
		return;
	p->exited = true;
	p->exited_at = now_ns();
	if (p->killed && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)
		p->status = OS_PROC_KILLED;
	else
		p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int os_proc_poll(struct os_proc *p, int timeout_ms, os_proc_output_fn fn, void *ctx,
		 int *status)
{
	struct pollfd pf[2];
	nfds_t n = 0;

	reap(p, false);
	/* after the exit, a grandchild may still hold the pipes: 200 ms, then done */
	if (p->exited && (now_ns() - p->exited_at) / NSEC_PER_MSEC >= 200)
		timeout_ms = 0;
	else if (p->exited)
		timeout_ms = MIN(timeout_ms, 50);
	if (p->out >= 0)
		pf[n++] = (struct pollfd){ .fd = p->out, .events = POLLIN };
	if (p->err >= 0)
		pf[n++] = (struct pollfd){ .fd = p->err, .events = POLLIN };
	if (n) {
		if (poll(pf, n, timeout_ms) < 0 && errno != EINTR)
			return -errno;
	} else if (!p->exited) {
		/* both streams closed, the child still running: wait for it in small steps */
		struct timespec ts = { 0, (long)MIN(timeout_ms, 50) * 1000000L };

		nanosleep(&ts, NULL);
	}
	drain(&p->out, OS_PROC_STDOUT, fn, ctx);
	drain(&p->err, OS_PROC_STDERR, fn, ctx);
	reap(p, false);
	if (!p->exited)
		return 0;
	if ((p->out >= 0 || p->err >= 0) && (now_ns() - p->exited_at) / NSEC_PER_MSEC < 200)
		return 0;
	*status = p->status;
	return 1;
}

int os_proc_write(struct os_proc *p, const void *buf, size_t len)
{
	sigset_t pipe_set, old;
	bool pending;
	int ret = 0;

	if (p->in < 0)
		return -EPIPE;
	/*
	 * A child gone makes the write raise SIGPIPE, which a parent with a stop handler (the
	 * lab) would take for its own stop request: blocked meanwhile, and one it raised
	 * itself taken back (sigtimedwait) before the mask is restored.
	 */
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	{
		sigset_t now;

		sigpending(&now);
		pending = sigismember(&now, SIGPIPE);
	}
	while (len) {
		ssize_t n = write(p->in, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
	if (ret == -EPIPE && !pending) {
		const struct timespec zero = { 0, 0 };

		sigtimedwait(&pipe_set, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

int os_proc_close_stdin(struct os_proc *p)
{
	int ret = 0;

	if (p->in >= 0 && close(p->in))
		ret = -errno;
	p->in = -1;
	return ret;
}

int os_proc_kill(struct os_proc *p)
{
	if (p->exited)
		return 0;
	p->killed = true;
	if ((p->flags & OS_PROC_OWN_GROUP) && !kill(-p->pid, SIGKILL))
		return 0;
	return kill(p->pid, SIGKILL) ? -errno : 0;
}

long os_proc_pid(const struct os_proc *p)
{
	return (long)p->pid;
}

void os_proc_free(struct os_proc *p)
{
	if (!p)
		return;
	if (!p->exited) {
		os_proc_kill(p);
		reap(p, true);
	}
	os_proc_close_stdin(p);
	if (p->out >= 0)
		close(p->out);
	if (p->err >= 0)
		close(p->err);
	free(p);
}
