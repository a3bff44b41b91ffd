/* SPDX-License-Identifier: MIT */
/*
 * base.h: what every file of fslab needs: the error convention, exit statuses, small macros
 * and allocation that cannot fail (git's git-compat-util.h and wrapper.c).  Messages are
 * msg.h, units units.h, files files.h, random numbers random.h, OS calls os/os.h.
 */
#ifndef FSLAB_BASE_H
#define FSLAB_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

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

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL

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

/* Allocation that cannot fail (aborts with a message on OOM). */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __printf(1, 2);
/* die_oom - the message of an allocation that failed (n bytes), then abort(). */
void die_oom(size_t n) __attribute__((noreturn));

/*
 * The version and git hash this binary was built from, defined once (version.c, rebuilt by the
 * Makefile whenever HEAD moves): what fslab --version prints, results record and the lab
 * compares across its hosts, so one binary never names two builds.  fslab_git_describe is
 * `git describe --tags --always --dirty` of the tree: the hash, a tag where there is one, and
 * "-dirty" for a build with uncommitted changes (fslab version, results' environment).
 */
extern const char fslab_version[], fslab_git[], fslab_git_describe[];

#endif
