/* SPDX-License-Identifier: MIT */
/* ioengine.h: I/O back ends behind one ops table (fio's ioengine_ops shape). */
#ifndef FSLAB_IOENGINE_H
#define FSLAB_IOENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "os/os.h"

enum io_op {
	IO_READ,
	IO_WRITE,
};

/*
 * One I/O unit.  The caller owns it (and its buffer) from submit until it comes back from
 * reap; the back end fills res and end_ns.  res is len (the whole transfer), -errno, or for a
 * read that met the end of the file the bytes before it: every back end continues a short
 * transfer until it is whole, as fio does, so one event gets one verdict everywhere.
 */
struct os_file;
struct io_u {
	struct os_file *file; /* from os_open(): an fd or a HANDLE behind it (os/osP.h) */
	uint8_t op;      /* enum io_op */
	uint8_t cls;     /* measurement class (enum io_class), the back end ignores it */
	uint32_t len;
	uint64_t off;
	void *buf;
	int res;
	uint32_t xfer;   /* back end's: bytes already transferred of a continued short transfer */
	uint64_t start_ns, end_ns;
};

/*
 * What a caller knows about the files a ctx will do I/O on (io_ctx_open()), for the back end
 * to set itself up for them; a back end may ignore a hint.
 * - IO_HINT_NO_NOWAIT: their filesystem refuses non-blocking I/O (RWF_NOWAIT gives
 *   EOPNOTSUPP, struct volume's nowait == 0, e.g. tmpfs): the kernel cannot start such an I/O
 *   from io_uring_enter() and hands every one to an io-wq worker thread, whose completions
 *   each wake the waiting thread.
 */
#define IO_HINT_NO_NOWAIT 0x1u

/*
 * A back end.  Each thread owns one io_ctx; nothing here is shared between threads, and a ctx
 * is used only by the thread that set it up (io_uring rings are SINGLE_ISSUER).
 * - init:   set up for up to depth I/Os in flight (ctx->hints says what is known of the
 *           files); store private state in ctx->priv.
 * - submit: start n I/Os (start_ns is set by io_submit()); psync performs them right away.
 * - reap:   wait until at least min I/Os completed, store up to max of them in out[],
 *           return how many (>= 0) or -errno.
 * - submit_reap (optional): submit, then reap, in one step where the back end can (io_uring:
 *           one io_uring_enter() that submits and waits, instead of two).  Same results as
 *           submit followed by reap; io_submit_reap() falls back to those without it.
 * - cleanup: free ctx->priv.
 */
struct io_ctx;
struct ioengine_ops {
	const char *name;
	int (*init)(struct io_ctx *ctx, unsigned int depth);
	int (*submit)(struct io_ctx *ctx, struct io_u **ios, unsigned int n);
	int (*reap)(struct io_ctx *ctx, struct io_u **out, unsigned int min, unsigned int max);
	int (*submit_reap)(struct io_ctx *ctx, struct io_u **ios, unsigned int n, struct io_u **out,
			   unsigned int min, unsigned int max);
	void (*cleanup)(struct io_ctx *ctx);
};

struct io_ctx {
	const struct ioengine_ops *ops;
	void *priv;
	unsigned int depth;
	unsigned int inflight;
	unsigned int hints; /* IO_HINT_*, as io_ctx_open() was given them */
};

/* The back ends, in order of preference: io_uring and psync on Linux, win32 and psync on
 * Windows.  IOENGINE_DEFAULT names the first. */
extern const struct ioengine_ops ioengine_uring;
extern const struct ioengine_ops ioengine_psync;
extern const struct ioengine_ops ioengine_win32;
#ifdef _WIN32
#define IOENGINE_DEFAULT "win32"
#else
#define IOENGINE_DEFAULT "io_uring"
#endif

/* Back end by name ("io_uring", "psync", "win32"), or NULL. */
const struct ioengine_ops *ioengine_find(const char *name);
/* The i-th back end of this build (0 = the default), NULL past the last. */
const struct ioengine_ops *ioengine_at(size_t i);
/* "io_uring or psync": every back end's name, for messages and --help. */
const char *ioengine_names(void);

/* Set up ctx with the named back end.  0, -ENOENT (unknown name) or the back end's -errno. */
int io_ctx_init(struct io_ctx *ctx, const char *engine, unsigned int depth)
	__attribute__((warn_unused_result));
/* io_ctx_init() for files the caller knows something about: hints is IO_HINT_* or 0. */
int io_ctx_open(struct io_ctx *ctx, const char *engine, unsigned int depth, unsigned int hints)
	__attribute__((warn_unused_result));
void io_ctx_release(struct io_ctx *ctx);
/* Stamp start_ns and submit n I/Os (n <= depth - inflight).  0 or -errno. */
int io_submit(struct io_ctx *ctx, struct io_u **ios, unsigned int n)
	__attribute__((warn_unused_result));
/* Reap between min and max completions into out[].  Count or -errno. */
int io_reap(struct io_ctx *ctx, struct io_u **out, unsigned int min, unsigned int max)
	__attribute__((warn_unused_result));
/*
 * Stamp start_ns, submit n I/Os and reap between min and max completions into out[] (which may
 * be ios: the back end reads ios[] before it writes out[]).  The hot loop of the calibration
 * workloads: with io_uring, one system call per round trip.  Count or -errno (a failed submit
 * as with io_submit(), nothing reaped).
 */
int io_submit_reap(struct io_ctx *ctx, struct io_u **ios, unsigned int n, struct io_u **out,
		   unsigned int min, unsigned int max) __attribute__((warn_unused_result));
/* Submit one I/O and wait for it.  Returns io->res (bytes or -errno). */
int io_sync(struct io_ctx *ctx, struct io_u *io);
/*
 * io_drain - reap until nothing is in flight (fio's io_u_quiesce()): before a caller frees or
 * reuses the buffers of I/Os it gave up on (an error, a stop).  @out (room for @max) receives
 * the completions, which are dropped: their results no longer matter.  0, or the first -errno
 * of a reap (-EIO when the back end completes nothing while I/Os are in flight); a ctx whose
 * set-up failed (no ops) has nothing in flight.
 */
int io_drain(struct io_ctx *ctx, struct io_u **out, unsigned int max);

#endif
