// SPDX-License-Identifier: MIT
/* posix.c: the platform layer on Linux (and POSIX): clock_gettime, O_DIRECT files, names, stop
 * requests (processes: posix_proc.c). */
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
