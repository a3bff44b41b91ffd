// SPDX-License-Identifier: MIT
/* posix.c: the platform layer on Linux (and POSIX): clock_gettime, O_DIRECT files, fork/exec. */
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
#include "lib/files.h"
#include "os/os.h"
#include "lib/strbuf.h"

/* ---- time ---- */

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int sleep_until_ns(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = t_ns / NSEC_PER_SEC, .tv_nsec = t_ns % NSEC_PER_SEC };

	return -clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* ---- memory ---- */

void *os_alloc_aligned(size_t align, size_t n)
{
	void *p;

	return posix_memalign(&p, align, n ? n : align) ? NULL : p;
}

void os_free_aligned(void *p)
{
	free(p);
}

/* ---- files ---- */

int os_open(const char *path, unsigned int flags, struct os_file **out)
{
	int oflags = O_CLOEXEC, fd;
	struct os_file *f;

	if (flags & OS_DIR)
		oflags |= O_RDONLY | O_DIRECTORY;
	else
		oflags |= flags & OS_RDWR ? O_RDWR : O_RDONLY;
	if (flags & OS_CREATE)
		oflags |= O_CREAT;
	if (flags & OS_TRUNC)
		oflags |= O_TRUNC;
	if (flags & OS_DIRECT)
		oflags |= O_DIRECT;
	if (flags & OS_WRITE_THROUGH)
		oflags |= O_DSYNC;
	fd = open(path, oflags, 0644);
	if (fd < 0)
		return -errno;
	f = xmalloc(sizeof(*f));
	f->fd = fd;
	f->flags = flags;
	*out = f;
	return 0;
}

int os_close(struct os_file *f)
{
	int ret = 0;

	if (!f)
		return 0;
	if (close(f->fd))
		ret = -errno;
	free(f);
	return ret;
}

int os_file_fd(const struct os_file *f)
{
	return f->fd;
}

ssize_t os_pread(struct os_file *f, void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	do
		n = pread(f->fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

ssize_t os_pread_nowait(struct os_file *f, void *buf, size_t len, uint64_t off)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	ssize_t n;

	do
		n = preadv2(f->fd, &iov, 1, (off_t)off, RWF_NOWAIT);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

ssize_t os_pwrite(struct os_file *f, const void *buf, size_t len, uint64_t off)
{
	ssize_t n;

	do
		n = pwrite(f->fd, buf, len, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int os_file_sync(struct os_file *f)
{
	return fsync(f->fd) ? -errno : 0;
}

int os_file_datasync(struct os_file *f)
{
	return fdatasync(f->fd) ? -errno : 0;
}

int os_file_allocate(struct os_file *f, uint64_t size)
{
	if (!fallocate(f->fd, 0, 0, (off_t)size))
		return 0;
	return errno == EOPNOTSUPP || errno == ENOSYS ? -EOPNOTSUPP : -errno;
}

int os_file_size(struct os_file *f, uint64_t *size)
{
	struct stat st;

	if (fstat(f->fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode)) { /* a block device's size is where its end is */
		off_t end = lseek(f->fd, 0, SEEK_END);

		if (end < 0)
			return -errno;
		*size = (uint64_t)end;
		return 0;
	}
	*size = (uint64_t)st.st_size;
	return 0;
}

unsigned int os_file_sector(struct os_file *f)
{
	(void)f;
	return 512; /* O_DIRECT's minimum on Linux; callers use 4 KiB multiples anyway */
}

/* ---- names ---- */

int os_rename_replace(const char *from, const char *to)
{
	return rename(from, to) ? -errno : 0;
}

int os_unlink(const char *path)
{
	return unlink(path) ? -errno : 0;
}

int os_mkdir(const char *path, unsigned int mode)
{
	return mkdir(path, (mode_t)mode) ? -errno : 0;
}

int os_rmdir(const char *path)
{
	return rmdir(path) ? -errno : 0;
}

int os_dir_sync(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		ret = -errno;
	close(fd);
	return ret;
}

FILE *os_fopen(const char *path, const char *mode)
{
	char m[8];

	snprintf(m, sizeof(m), "%se", mode);
	return fopen(path, m);
}

int os_kind_of_mode(mode_t m)
{
	return S_ISREG(m) ? OS_KIND_FILE : S_ISDIR(m) ? OS_KIND_DIR : S_ISBLK(m) ? OS_KIND_BLOCK
	       : S_ISCHR(m) ? OS_KIND_CHAR : S_ISFIFO(m) ? OS_KIND_FIFO
	       : S_ISLNK(m) ? OS_KIND_LINK : OS_KIND_OTHER;
}

int os_fopen_regular(const char *path, FILE **f, int *kind)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), k;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		return -e;
	}
	k = os_kind_of_mode(st.st_mode);
	if (kind)
		*kind = k;
	/* O_NONBLOCK means nothing to a regular file's reads; drop it all the same */
	if (k != OS_KIND_FILE || fcntl(fd, F_SETFL, 0)) {
		close(fd);
		return -EINVAL;
	}
	*f = fdopen(fd, "r");
	if (!*f) {
		int e = errno;

		close(fd);
		return -e;
	}
	return 0;
}

int os_stream_sync(FILE *f)
{
	return fsync(fileno(f)) ? -errno : 0;
}

int os_stat(const char *path, int *kind, uint64_t *size)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	if (kind)
		*kind = os_kind_of_mode(st.st_mode);
	if (size)
		*size = (uint64_t)st.st_size;
	return 0;
}

int os_dir_writable(const char *dir)
{
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

bool os_is_dir(const char *path)
{
	int kind;

	return !os_stat(path, &kind, NULL) && kind == OS_KIND_DIR;
}

bool os_is_symlink(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISLNK(st.st_mode);
}

int os_opendir(const char *path, struct os_dir **out)
{
	DIR *d = opendir(path);

	if (!d)
		return -errno;
	*out = xmalloc(sizeof(**out));
	(*out)->d = d;
	return 0;
}

const char *os_readdir(struct os_dir *d)
{
	struct dirent *de;

	while ((de = readdir(d->d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			return de->d_name;
	return NULL;
}

void os_closedir(struct os_dir *d)
{
	if (!d)
		return;
	closedir(d->d);
	free(d);
}

char *os_exe_dir(void)
{
	char exe[4096], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	return xstrdup(exe);
}

char *os_tmp_dir(void)
{
	const char *t = getenv("TMPDIR");

	return xstrdup(t && *t ? t : "/tmp");
}

FILE *os_memstream_open(struct os_memstream *ms, char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	ms->buf = buf;
	ms->len = len;
	ms->f = open_memstream(buf, len);
	return ms->f;
}

int os_memstream_done(struct os_memstream *ms)
{
	int ret = fclose(ms->f) ? -errno : 0;

	if (!*ms->buf) {
		*ms->buf = xstrdup("");
		*ms->len = 0;
	}
	return ret;
}

/* ---- stop requests ---- */

static void (*stop_fn)(int why);
/* each signal with what it means, in os.h's order */
static const struct {
	int sig, why;
	const char *name;
} stop_sigs[] = {
	{ SIGINT, OS_STOP_INT, "SIGINT" },
	{ SIGTERM, OS_STOP_TERM, "SIGTERM" },
	{ SIGHUP, OS_STOP_HUP, "SIGHUP" },
	{ SIGPIPE, OS_STOP_PIPE, "SIGPIPE" },
};
static struct sigaction old_sa[ARRAY_SIZE(stop_sigs)];

static void on_signal(int sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		if (stop_sigs[i].sig == sig && stop_fn)
			stop_fn(stop_sigs[i].why);
}

void os_stop_handler_set(void (*fn)(int why))
{
	struct sigaction sa = { .sa_handler = on_signal };

	stop_fn = fn;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++) {
		int sig = stop_sigs[i].sig;

		/* `nohup fslab run`: a SIGHUP (and SIGPIPE) ignored from the start stays ignored */
		if (sigaction(sig, NULL, &old_sa[i]) == 0 && old_sa[i].sa_handler == SIG_IGN &&
		    (sig == SIGHUP || sig == SIGPIPE))
			continue;
		sigaction(sig, &sa, NULL);
	}
}

void os_stop_handler_clear(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i].sig, &old_sa[i], NULL);
	stop_fn = NULL;
}

const char *os_stop_name(int why)
{
	if (why == OS_STOP_EOF)
		return "the end of standard input";
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		if (stop_sigs[i].why == why)
			return stop_sigs[i].name;
	return "SIGINT";
}

static volatile sig_atomic_t stdin_eof;

static void *stdin_watch(void *arg)
{
	sigset_t all;
	char buf[512];

	(void)arg;
	/* signals go to the other threads: their sleeps are what a stop must cut short */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));

		if (n > 0 || (n < 0 && errno == EINTR))
			continue;
		break; /* EOF, or stdin unusable: the parent is gone either way */
	}
	stdin_eof = 1;
	if (stop_fn)
		stop_fn(OS_STOP_EOF);
	kill(getpid(), SIGINT);
	return NULL;
}

int os_stop_on_stdin_eof(void)
{
	pthread_t t;
	int ret = pthread_create(&t, NULL, stdin_watch, NULL);

	if (ret)
		return -ret;
	pthread_detach(t);
	return 0;
}

bool os_stdin_eof_seen(void)
{
	return stdin_eof;
}

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

void os_fdprintf(int fd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdprintf(fd, fmt, ap);
	va_end(ap);
}

bool os_drop_caches(void)
{
	int fd;
	bool ok;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ok = write(fd, "3\n", 2) == 2;
	close(fd);
	return ok;
}

int os_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* The pid holding a flock on (dev, ino) per /proc/locks, or 0 when it cannot be told. */
static long lock_holder(dev_t dev, ino_t ino)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256];
	long pid = 0;

	if (!f)
		return 0;
	/* "1: FLOCK  ADVISORY  WRITE 1234 08:01:131074 0 EOF" (major:minor in hex) */
	while (!pid && fgets(line, sizeof(line), f)) {
		char type[16], mode[16];
		unsigned int maj, min;
		unsigned long long i;
		long p;

		if (sscanf(line, "%*d: %15s %*s %15s %ld %x:%x:%llu", type, mode, &p, &maj, &min,
			   &i) == 6 &&
		    !strcmp(type, "FLOCK") && maj == major(dev) && min == minor(dev) &&
		    i == (unsigned long long)ino)
			pid = p;
	}
	fclose(f);
	return pid;
}

int os_lock_path(const char *path, long *holder)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*holder = 0;
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		if (e == EWOULDBLOCK && !fstat(fd, &st))
			*holder = lock_holder(st.st_dev, st.st_ino);
		close(fd);
		return -e;
	}
	return fd;
}

void os_unlock(int lock)
{
	if (lock >= 0)
		close(lock);
}

int os_path_id(const char *path, struct os_id *id)
{
	struct stat st;

	if (stat(path, &st))
		return -errno;
	id->dev = (uint64_t)st.st_dev;
	id->ino = (uint64_t)st.st_ino;
	return 0;
}

int os_dir_can_create(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	return access(dir, W_OK | X_OK) ? -errno : 0;
}

char *os_abs_path(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return path_join(cwd, path);
}

char *os_realpath(const char *path)
{
	return realpath(path, NULL);
}

bool os_fnmatch(const char *pattern, const char *name)
{
	return !fnmatch(pattern, name, 0);
}

uint64_t os_file_allocated(const char *path)
{
	struct stat st;

	return stat(path, &st) || !S_ISREG(st.st_mode) ? 0 : (uint64_t)st.st_blocks * 512;
}

char *os_utf16le_to_utf8(const void *buf, size_t len, size_t *outlen)
{
	iconv_t cd = iconv_open("UTF-8", "UTF-16LE");
	size_t cap = len * 2 + 1, left = cap - 1, inleft = len;
	char *out, *o, *in = (char *)buf;

	if (cd == (iconv_t)-1)
		return NULL;
	out = o = xmalloc(cap);
	if (iconv(cd, &in, &inleft, &o, &left) == (size_t)-1) {
		iconv_close(cd);
		free(out);
		return NULL;
	}
	iconv_close(cd);
	*o = 0;
	*outlen = (size_t)(o - out);
	return out;
}

char *os_strcasestr(const char *haystack, const char *needle)
{
	return strcasestr(haystack, needle);
}

int64_t os_strptime_utc(const char *s, const char *fmt)
{
	struct tm tm = { 0 };

	if (!strptime(s, fmt, &tm))
		return -1;
	return (int64_t)timegm(&tm);
}
