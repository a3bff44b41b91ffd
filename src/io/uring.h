/* SPDX-License-Identifier: MIT */
/* uring.h: how the io_uring back end sets its rings up and waits, and what it chose (Linux). */
#ifndef FSLAB_URING_H
#define FSLAB_URING_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/*
 * How a ring is set up and how its thread waits for completions, chosen from the ctx's
 * IO_HINT_* (io/ioengine.h) by uring_choose():
 * - flags: the set-up flags to ask for, best first; the kernel refuses a flag it does not
 *   know with -EINVAL and the next set is tried (the last one is always 0);
 * - yield: instead of sleeping in io_uring_enter() until a completion arrives, the thread
 *   first gives its CPU away (sched_yield()) and looks at the ring again, for a short while.
 *   Only with IORING_SETUP_TASKRUN_FLAG among the flags the kernel took: the kernel then says
 *   in the ring (IORING_SQ_TASKRUN) that completions wait to be posted.
 */
struct uring_setup {
	unsigned int flags[3];
	size_t nflags;
	bool yield;
};

/*
 * uring_choose - the set-up for a ring whose I/O the caller described with hints (IO_HINT_*):
 * - no hint (the filesystem starts I/O without blocking: ext4, XFS, btrfs with O_DIRECT; or
 *   not known): fio 3.33's flags, SINGLE_ISSUER | DEFER_TASKRUN | COOP_TASKRUN, then
 *   COOP_TASKRUN (kernels before 6.1), then none (before 5.19); the thread sleeps in
 *   io_uring_enter() until a completion is there.
 * - IO_HINT_NO_NOWAIT (every I/O goes to an io-wq worker): the same plus TASKRUN_FLAG, and
 *   yield: a thread that slept each time it waited would be woken by every completion the
 *   worker posts (measured: 0.6-0.8 context switches per I/O on tmpfs, docs/BENCH.md).
 */
void uring_choose(unsigned int hints, struct uring_setup *s);

/* Append the names of the IORING_SETUP_* flags in flags to sb ("SINGLE_ISSUER|DEFER_TASKRUN",
 * "none" for 0, the number for bits without a name here). */
void uring_flags_name(unsigned int flags, struct strbuf *sb);

/* One kind of ring this process set up: the flags the kernel took, whether it yields, the
 * hints it was made for, and how many rings of the kind. */
struct uring_used {
	unsigned int flags;
	bool yield;
	unsigned int hints;
	unsigned int rings;
};

/* uring_used - the kinds of ring set up so far in this process (thread-safe), up to max of
 * them into out[]; returns how many there are. */
size_t uring_used(struct uring_used *out, size_t max);

#endif
