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

static bool quiet;

void fslab_set_quiet(bool q)
{
	quiet = q;
}

size_t utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0; /* a continuation byte, an overlong lead (c0, c1) or beyond f4 */
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* cut short (the NUL ends it too) */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0; /* overlong, beyond Unicode, or a UTF-16 surrogate */
	return n;
}

/*
 * The escaped form of s into out (room for 4 * strlen(s) + 1: one byte becomes at most
 * "\xNN"); returns out.  keep_nl keeps newlines (a message that quotes a tool's output).
 */
static char *escape_into(char *out, const char *s, bool keep_nl)
{
	static const char hex[] = "0123456789abcdef";
	char *o = out;

	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = utf8_len(s);
		/* C1 controls (U+0080..U+009F) are c2 80..c2 9f in UTF-8: CSI, OSC, ... */
		bool c1 = n == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0;

		if (n == 1 && (c >= 0x20 || (c == '\n' && keep_nl)) && c != 0x7f) {
			*o++ = *s++;
		} else if (n > 1 && !c1) {
			memcpy(o, s, n);
			o += n;
			s += n;
		} else if (n == 1 && strchr("\n\r\t", c)) {
			*o++ = '\\';
			*o++ = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
			s++;
		} else {
			/* a control, DEL, each byte of a C1 control, a byte that is not UTF-8 */
			for (size_t i = 0; i < (n ? n : 1); i++, s++) {
				*o++ = '\\';
				*o++ = 'x';
				*o++ = hex[(unsigned char)*s >> 4];
				*o++ = hex[(unsigned char)*s & 15];
			}
		}
	}
	*o = 0;
	return out;
}

char *str_escape(const char *s)
{
	return escape_into(xmalloc(4 * strlen(s) + 1), s, false);
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096], out[4 * sizeof(buf)];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/*
	 * Messages quote input (file names, fields of result files and reports): what a terminal
	 * would act on (ESC sequences, OSC 52, C1 controls, CR) is shown escaped, never sent; a
	 * newline too, unless the message's own format has one (a tool's output quoted whole).
	 * One write, so concurrent messages do not interleave mid-line.
	 */
	fprintf(stderr, "fslab: %s%s\n", prefix, escape_into(out, buf, strchr(fmt, '\n')));
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

static int fsync_dir_of(const char *path)
{
	char *copy = xstrdup(path), *slash = strrchr(copy, '/');
	int ret;

#ifdef _WIN32
	if (strrchr(copy, '\\') > slash)
		slash = strrchr(copy, '\\');
#endif
	if (!slash)
		ret = os_dir_sync(".");
	else if (slash == copy)
		ret = os_dir_sync("/");
	else {
		*slash = 0;
		ret = os_dir_sync(copy);
	}
	free(copy);
	return ret;
}

int atomic_open(struct atomic_file *af, const char *path)
{
	af->path = xstrdup(path);
	af->tmp = xasprintf("%s.tmp.%lu", path, os_pid());
	af->f = os_fopen(af->tmp, "w");
	if (!af->f) {
		int e = errno ? errno : EIO;

		free(af->path);
		free(af->tmp);
		return -e;
	}
	return 0;
}

void atomic_abort(struct atomic_file *af)
{
	fclose(af->f);
	os_unlink(af->tmp);
	free(af->path);
	free(af->tmp);
}

int atomic_commit(struct atomic_file *af)
{
	int ret = 0;

	errno = 0;
	if (fflush(af->f) || ferror(af->f) || os_stream_sync(af->f))
		ret = errno ? -errno : -EIO;
	if (fclose(af->f) && !ret)
		ret = errno ? -errno : -EIO;
	if (!ret)
		ret = os_rename_replace(af->tmp, af->path);
	if (ret)
		os_unlink(af->tmp);
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

const char *os_kind_name(int kind)
{
	switch (kind) {
	case OS_KIND_FILE: return "a regular file";
	case OS_KIND_DIR: return "a directory";
	case OS_KIND_BLOCK: return "a block device";
	case OS_KIND_CHAR: return "a character device";
	case OS_KIND_FIFO: return "a FIFO";
	default: return "a special file";
	}
}

int read_file(const char *path, char **out, size_t *lenp)
{
	size_t cap = 65536, len = 0;
	char *buf;
	FILE *f;
	int ret = os_fopen_regular(path, &f, NULL);

	if (ret)
		return ret;
	/* room for the whole file at once: no copies while a large file grows the buffer */
	if (!fseeko(f, 0, SEEK_END)) {
		off_t size = ftello(f);

		if (size > 0 && (uint64_t)size < SIZE_MAX / 2)
			cap = MAX(cap, (size_t)size + 1);
		rewind(f);
	}
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
