// SPDX-License-Identifier: MIT
/* util.c: small shared helpers: messages, human units, time, files, PRNG. */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <isa-l/crc.h>

const char fslab_version[] = FSLAB_VERSION;
const char fslab_git[] = FSLAB_GIT;

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
	void *p = os_alloc_aligned(4096, n);

	if (!p)
		oom(n);
	return p;
}

void free_aligned(void *p)
{
	os_free_aligned(p);
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

char *iso8601_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

int atomic_open(struct atomic_file *af, const char *path)
{
	af->f = NULL;
	return os_tmpfile_open(path, &af->t, &af->f);
}

const char *atomic_name(const struct atomic_file *af)
{
	return os_tmpfile_name(af->t);
}

void atomic_abort(struct atomic_file *af)
{
	os_tmpfile_abort(af->t);
	af->t = NULL;
	af->f = NULL;
}

int atomic_commit(struct atomic_file *af)
{
	int ret = os_tmpfile_commit(af->t);

	af->t = NULL;
	af->f = NULL;
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
	FILE *f = os_fopen(path, "r");
	char *buf;

	if (!f)
		return errno ? -errno : -EIO;
	buf = xmalloc(cap + 1);
	for (;;) {
		size_t n;

		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			int e = ferror(f) ? (errno ? errno : EIO) : 0;

			if (!e)
				break;
			free(buf);
			fclose(f);
			return -e;
		}
	}
	fclose(f);
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
			ret = *p ? os_mkdir(p, mode) : 0;
			if (ret == -EEXIST || (ret && os_is_dir(p))) /* "C:" too */
				ret = 0;
			if (ret)
				break;
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
	return os_run(argv, out);
}

bool have_program(const char *name)
{
	return os_have_program(name);
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
