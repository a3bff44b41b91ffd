// SPDX-License-Identifier: MIT
/* util.c: small shared helpers: messages, human units, time, files, PRNG. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <isa-l/crc.h>

static bool quiet;

void fslab_set_quiet(bool q)
{
	quiet = q;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* One write, so concurrent messages do not interleave mid-line. */
	fprintf(stderr, "fslab: %s%s\n", prefix, buf);
}

void fslab_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void fslab_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void fslab_info(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

int input_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
	return -FSLAB_EINPUT;
}

static void oom(size_t n)
{
	fprintf(stderr, "fslab: error: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);

	if (!p)
		oom(nmemb * n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		oom(strlen(s));
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	return p;
}

void *xmalloc_aligned(size_t n)
{
	void *p;

	if (posix_memalign(&p, 4096, n ? n : 4096))
		oom(n);
	return p;
}

/* Multiplier for a unit suffix, or 0 if unknown.  Binary units throughout. */
static uint64_t size_unit(const char *u)
{
	static const struct {
		const char *s;
		uint64_t mul;
	} units[] = {
		{ "", 1 }, { "b", 1 },
		{ "k", KiB }, { "kb", KiB }, { "kib", KiB },
		{ "m", MiB }, { "mb", MiB }, { "mib", MiB },
		{ "g", GiB }, { "gb", GiB }, { "gib", GiB },
		{ "t", GiB * KiB }, { "tb", GiB * KiB }, { "tib", GiB * KiB },
	};
	for (size_t i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcasecmp(u, units[i].s))
			return units[i].mul;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	uint64_t mul;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	mul = size_unit(end);
	if (!mul)
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -EINVAL;
	*out = v * mul;
	return 0;
}

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *s;
		uint64_t mul;
	} units[] = {
		/* longest first so "ms" is not read as "m" */
		{ "ms", NSEC_PER_MSEC }, { "us", NSEC_PER_USEC },
		{ "s", NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC },
		{ "h", 3600 * NSEC_PER_SEC }, { "d", 86400 * NSEC_PER_SEC },
	};
	uint64_t total = 0;
	const char *p = s;
	bool any = false;

	if (!s || !*s)
		return -EINVAL;
	while (*p) {
		unsigned long long v;
		uint64_t mul = 0;
		char *end;
		size_t i;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		if (!*end) {
			if (any) /* "1h30" is ambiguous */
				return -EINVAL;
			mul = NSEC_PER_SEC;
			p = end;
		} else {
			for (i = 0; i < ARRAY_SIZE(units); i++) {
				size_t l = strlen(units[i].s);

				if (!strncmp(end, units[i].s, l) &&
				    (end[l] == 0 || isdigit((unsigned char)end[l]))) {
					mul = units[i].mul;
					p = end + l;
					break;
				}
			}
			if (!mul)
				return -EINVAL;
		}
		if (v > (UINT64_MAX - total) / mul)
			return -EINVAL;
		total += v * mul;
		any = true;
	}
	*ns = total;
	return 0;
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_list_u64(const char *s, uint64_t *out, int max)
{
	int n = 0;
	const char *p = s;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		unsigned long long v;
		char *end;

		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p) || n >= max)
			return -EINVAL;
		errno = 0;
		v = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		out[n++] = v;
		p = end;
		while (*p == ' ')
			p++;
		if (!*p)
			return n;
		if (*p++ != ',')
			return -EINVAL;
	}
}

char *fmt_size(char *buf, size_t len, uint64_t b)
{
	static const char *const u[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	int i = 0;

	while (v >= 1024 && i < (int)ARRAY_SIZE(u) - 1) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	else if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu %s", (unsigned long long)v, u[i]);
	else
		snprintf(buf, len, "%.1f %s", v, u[i]);
	return buf;
}

char *fmt_duration(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / NSEC_PER_SEC;

	if (ns < NSEC_PER_SEC)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / NSEC_PER_MSEC));
	else if (s < 60 && ns % NSEC_PER_SEC)
		snprintf(buf, len, "%.1fs", (double)ns / NSEC_PER_SEC);
	else if (s < 3600)
		snprintf(buf, len, s % 60 && s >= 60 ? "%llum%02llus" : (s >= 60 ? "%llum" : "%llus"),
			 (unsigned long long)(s >= 60 ? s / 60 : s), (unsigned long long)(s % 60));
	else if (s % 3600 == 0)
		snprintf(buf, len, "%lluh", (unsigned long long)(s / 3600));
	else
		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
			 (unsigned long long)(s % 3600 / 60));
	return buf;
}

char *fmt_hms(char *buf, size_t len, double secs)
{
	unsigned int s = secs > 0 ? (unsigned int)MIN(secs + 0.5, 359999.0) : 0;

	snprintf(buf, len, "%02u:%02u:%02u", s / 3600 % 100, s / 60 % 60, s % 60);
	return buf;
}

int sleep_until_ns(uint64_t t_ns)
{
	struct timespec ts = { .tv_sec = t_ns / NSEC_PER_SEC, .tv_nsec = t_ns % NSEC_PER_SEC };

	return -clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

char *iso8601_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static int fsync_dir_of(const char *path)
{
	char *copy = xstrdup(path);
	int fd, ret = 0;

	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		ret = -errno;
	else if (fsync(fd))
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(copy);
	return ret;
}

int atomic_open(struct atomic_file *af, const char *path)
{
	int fd;

	af->path = xstrdup(path);
	af->tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	fd = open(af->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	af->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!af->f) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(af->tmp);
		}
		free(af->path);
		free(af->tmp);
		return -e;
	}
	return 0;
}

void atomic_abort(struct atomic_file *af)
{
	fclose(af->f);
	unlink(af->tmp);
	free(af->path);
	free(af->tmp);
}

int atomic_commit(struct atomic_file *af)
{
	int ret = 0;

	if (fflush(af->f) || ferror(af->f) || fsync(fileno(af->f)))
		ret = errno ? -errno : -EIO;
	if (fclose(af->f) && !ret)
		ret = -errno;
	if (!ret && rename(af->tmp, af->path))
		ret = -errno;
	if (ret)
		unlink(af->tmp);
	else
		ret = fsync_dir_of(af->path);
	free(af->path);
	free(af->tmp);
	return ret;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (ret)
		return ret;
	if (len && fwrite(data, 1, len, af.f) != len) {
		ret = errno ? -errno : -EIO;
		atomic_abort(&af);
		return ret;
	}
	return atomic_commit(&af);
}

int read_file(const char *path, char **out, size_t *lenp)
{
	size_t cap = 65536, len = 0;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = 0;
	*out = buf;
	if (lenp)
		*lenp = len;
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || !*s) {
			char c = *s;

			*s = 0;
			if (mkdir(p, mode) && errno != EEXIST) {
				ret = -errno;
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}

char *path_join(const char *a, const char *b)
{
	size_t l = strlen(a);

	if (l && a[l - 1] == '/')
		return xasprintf("%s%s", a, b);
	return xasprintf("%s/%s", a, b);
}

int run_cmd(const char *const argv[], char **out)
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
		size_t cap = 4096, len = 0;
		char *buf = xmalloc(cap);

		close(pfd[1]);
		for (;;) {
			ssize_t n;

			if (cap - len < 1024)
				buf = xrealloc(buf, cap *= 2);
			n = read(pfd[0], buf + len, cap - len - 1);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			len += n;
		}
		buf[len] = 0;
		close(pfd[0]);
		*out = buf;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

bool have_program(const char *name)
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

const char *label_problem(const char *label)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				  "._+-";
	size_t n = strnlen(label, 65);

	if (!n)
		return "a label cannot be empty";
	if (n > 64)
		return "a label has at most 64 characters";
	if (strspn(label, set) != n)
		return "a label has only letters, digits, '.', '_', '+' and '-'";
	if (!isalnum((unsigned char)label[0]))
		return "a label starts with a letter or a digit";
	return NULL;
}

uint32_t crc32c(uint32_t seed, const void *data, size_t len)
{
	const unsigned char *p = data;

	/* crc32_iscsi takes an int length (and a non-const buffer it does not write) */
	while (len) {
		int n = len > (1U << 30) ? 1 << 30 : (int)len;

		seed = crc32_iscsi((unsigned char *)p, n, seed);
		p += n;
		len -= (size_t)n;
	}
	return seed;
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* splitmix64 expands the seed into xoshiro's state, as its authors recommend. */
void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		r->s[i] = z ^ (z >> 31);
	}
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

double rng_double(struct rng *r)
{
	return (rng_next(r) >> 11) * 0x1.0p-53;
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

int lock_path(const char *path, long *holder)
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
