/* SPDX-License-Identifier: MIT */
/* util.h: small shared helpers: messages, human units, files, PRNG (OS calls: os/os.h). */
#ifndef FSLAB_UTIL_H
#define FSLAB_UTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

#include "os/os.h"

/*
 * Error convention (docs/DESIGN.md): functions return 0 or -errno.  -FSLAB_EINPUT means
 * "bad input from the user, a message naming the problem and the fix was already printed";
 * each subcommand (cmd_*) turns it into exit status 2 (FSLAB_EXIT_USAGE) and other negative
 * values into 1; main() only returns what the subcommand returned.
 */
#define FSLAB_EINPUT 4096

/* Exit statuses of the fslab binary. */
enum {
	FSLAB_EXIT_OK = 0,
	FSLAB_EXIT_FAIL = 1,    /* runtime failure, or aborted by a signal */
	FSLAB_EXIT_USAGE = 2,   /* bad input: nothing created or overwritten */
	FSLAB_EXIT_VERDICT = 3, /* run completed, Jetstress-style verdict is FAIL */
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __must_check __attribute__((warn_unused_result))
#ifdef _WIN32 /* mingw's C99 stdio (__USE_MINGW_ANSI_STDIO): %zu, %llu as on Linux */
#define __printf(a, b) __attribute__((format(gnu_printf, a, b)))
#else
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#define KiB (1024ULL)
#define MiB (1024ULL * 1024)
#define GiB (1024ULL * 1024 * 1024)
#define TiB (GiB * 1024)

/*
 * Largest database (fslab run --db-size, the lab's db_size): 1 PiB.  A decision: far beyond any
 * Exchange database (Microsoft recommends at most 2 TB), and small enough that 64 databases
 * plus their logs add up without wrapping a 64-bit byte count.
 */
#define FSLAB_MAX_DB_SIZE (1024 * TiB)

/* a + b and a * b, saturating at UINT64_MAX: byte counts from user input never wrap */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}
#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

/*
 * The version and git hash this binary was built from, defined once (util.c, rebuilt by the
 * Makefile whenever HEAD moves): what fslab --version prints, results record and the lab
 * compares across its hosts, so one binary never names two builds.
 */
extern const char fslab_version[], fslab_git[];

/* Messages go to stderr, prefixed "fslab: error: " / "fslab: warning: " / "fslab: ". */
void fslab_err(const char *fmt, ...) __printf(1, 2);
void fslab_warn(const char *fmt, ...) __printf(1, 2);
void fslab_info(const char *fmt, ...) __printf(1, 2);
/* Prints like fslab_err() and returns -FSLAB_EINPUT, for "return input_error(...)". */
int input_error(const char *fmt, ...) __printf(1, 2);
/* Silences fslab_info() (fslab_err/fslab_warn always print). */
void fslab_set_quiet(bool quiet);

/* Allocation that cannot fail (aborts with a message on OOM). */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __printf(1, 2);
/* Page-aligned (4 KiB) buffer for O_DIRECT / FILE_FLAG_NO_BUFFERING; free with free_aligned()
 * (never free(): Windows' aligned allocations have their own free). */
void *xmalloc_aligned(size_t n);
void free_aligned(void *p);

/*
 * parse_size - "4096", "512K", "512M", "4G", "1T", "8GiB", "64k"; binary units (K = 1024).
 * Returns 0, or -EINVAL for anything else (empty, negative, fraction, trailing junk, overflow).
 */
int parse_size(const char *s, uint64_t *out) __must_check;
/*
 * parse_duration - "90", "90s", "500ms", "15m", "2h", "1h30m", "1d"; a bare number is seconds.
 * Stores nanoseconds.  Returns 0 or -EINVAL.
 */
int parse_duration(const char *s, uint64_t *ns) __must_check;
/* parse_u64 - a plain decimal in [min, max].  Returns 0, -EINVAL or -ERANGE. */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out) __must_check;
/* parse_list_u64 - "4,8,12" into out[] (at most max entries); returns count or -EINVAL. */
int parse_list_u64(const char *s, uint64_t *out, int max) __must_check;

/* "1.5 GiB", "512 MiB", "4 KiB", "100 B" into buf; returns buf. */
char *fmt_size(char *buf, size_t len, uint64_t bytes);
/* "2h", "1h30m", "90s", "1.5s", "250ms" into buf; returns buf. */
char *fmt_duration(char *buf, size_t len, uint64_t ns);

/* "HH:MM:SS" of secs (rounded, capped at 99:59:59) into buf; returns buf. */
char *fmt_hms(char *buf, size_t len, double secs);

/* now_ns() and sleep_until_ns() are the platform layer's (os/os.h). */
/* CLOCK_REALTIME as "2026-12-02T11:52:41Z" into buf (>= 21 bytes). */
char *iso8601_now(char *buf, size_t len);

/*
 * write_file_atomic - write data to path atomically: a temporary file in the same directory,
 * created exclusively and never through a symbolic link (os_tmpfile_open()), fsync, rename
 * over path, fsync the directory.  Readers see the old file or the new one, never a
 * half-written one; a symbolic link planted at path is replaced, its target left alone.
 * Returns 0 or -errno.
 */
int write_file_atomic(const char *path, const void *data, size_t len) __must_check;
/*
 * Atomic file written in pieces: atomic_open() creates the temporary file (os_tmpfile_open():
 * unnamed where the filesystem can, else "path.tmp.PID"), written through af->f;
 * atomic_name() is a name another process can write it by (gnuplot); atomic_commit()
 * flushes, fsyncs, renames it over path and fsyncs the directory; atomic_abort() removes it.
 * Both free what atomic_open() made.  0 or -errno.
 */
struct atomic_file {
	FILE *f;
	struct os_tmpfile *t;
};
int atomic_open(struct atomic_file *af, const char *path) __must_check;
const char *atomic_name(const struct atomic_file *af);
int atomic_commit(struct atomic_file *af) __must_check;
void atomic_abort(struct atomic_file *af);

/* read_file - whole file into a NUL-terminated heap buffer (*out, caller frees). 0 or -errno. */
int read_file(const char *path, char **out, size_t *len) __must_check;
/* mkdir_p - like mkdir -p.  0 or -errno. */
int mkdir_p(const char *path, mode_t mode) __must_check;
/* path_join - "a" + "b" -> "a/b", heap allocated. */
char *path_join(const char *a, const char *b);

/* run_cmd - run argv (execvp, no shell), wait, return exit status (>= 0) or -errno.
 * With out != NULL, stdout+stderr are captured into *out (heap, caller frees). */
int run_cmd(const char *const argv[], char **out) __must_check;
/* have_program - is name executable somewhere in $PATH (or /sbin, /usr/sbin)? */
bool have_program(const char *name);


/*
 * label_problem - NULL when label is a usable result label: 1-64 characters from letters,
 * digits, '.', '_', '+' and '-', starting with a letter or digit (so it is safe as a file name,
 * in HTML, Markdown, CSV and gnuplot, and ".", ".." or "-x" cannot be one); else a static text
 * naming the rule it breaks.
 */
const char *label_problem(const char *label);

/*
 * crc32c - CRC-32C (Castagnoli) through ISA-L's crc32_iscsi (SSE4.2/PCLMUL, about 20-50 GB/s
 * here, against libext2fs's table version at 1.6-1.9 GB/s).  Same convention as
 * ext2fs_crc32c_le: no inversion inside, so ~crc32c(~0U, ...) is the iSCSI/RFC 3720 value.
 */
uint32_t crc32c(uint32_t seed, const void *data, size_t len);

/* mix64 - a 64-bit finaliser (Stafford's variant 13 of MurmurHash3's): a well-spread hash of
 * x, for seeding and tags. */
static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Fast seeded PRNG (xoshiro256**): deterministic per seed, one per thread, no locking. */
struct rng {
	uint64_t s[4];
};
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n) (n > 0), without modulo bias worth speaking of (Lemire). */
uint64_t rng_below(struct rng *r, uint64_t n);
/* Uniform double in [0, 1). */
double rng_double(struct rng *r);

#endif
