// SPDX-License-Identifier: MIT
/* uring.c: io_uring back end (liburing), one ring per thread. */
#include "io/ioengine.h"

#include "io/uring.h"

#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "lib/base.h"
#include "os/os.h"

struct uring_priv {
	struct io_uring ring;
	bool yield;              /* wait by yielding first (struct uring_setup) */
	unsigned int yield_skip; /* waits left that sleep at once, after a yield that timed out */
};

/*
 * The first set-up is fio 3.33's own (strace -e io_uring_setup fio ...: SINGLE_ISSUER |
 * DEFER_TASKRUN | COOP_TASKRUN, and CQSIZE), so that both tools pay the same kernel costs:
 * - SINGLE_ISSUER: only the thread that set the ring up may use it (a ctx per thread);
 * - DEFER_TASKRUN: completions are posted when this thread enters io_uring_enter() to wait or
 *   to get events, not by interrupting it; so reap sees new completions only when it enters;
 * - COOP_TASKRUN: where DEFER_TASKRUN is refused, do not interrupt the thread either;
 * - TASKRUN_FLAG (yielding rings only): the kernel sets IORING_SQ_TASKRUN in the ring when
 *   completions wait to be posted, which a yielding thread reads without a system call.
 * Older kernels refuse what they do not know with -EINVAL: each step drops the newest flags.
 */
void uring_choose(unsigned int hints, struct uring_setup *s)
{
	unsigned int tf = 0;

	*s = (struct uring_setup){ .nflags = 3 };
	if (hints & IO_HINT_NO_NOWAIT) {
		tf = IORING_SETUP_TASKRUN_FLAG;
		s->yield = true;
	}
	s->flags[0] = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
		      IORING_SETUP_COOP_TASKRUN | tf;
	s->flags[1] = IORING_SETUP_COOP_TASKRUN | tf; /* 5.19 */
	s->flags[2] = 0;
}

void uring_flags_name(unsigned int flags, struct strbuf *sb)
{
	static const struct { unsigned int bit; const char *name; } names[] = {
		{ IORING_SETUP_SINGLE_ISSUER, "SINGLE_ISSUER" },
		{ IORING_SETUP_DEFER_TASKRUN, "DEFER_TASKRUN" },
		{ IORING_SETUP_COOP_TASKRUN, "COOP_TASKRUN" },
		{ IORING_SETUP_TASKRUN_FLAG, "TASKRUN_FLAG" },
		{ IORING_SETUP_CQSIZE, "CQSIZE" },
		{ IORING_SETUP_SQPOLL, "SQPOLL" },
		{ IORING_SETUP_IOPOLL, "IOPOLL" },
	};
	const char *sep = "";

	if (!flags)
		strbuf_addstr(sb, "none");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].bit) {
			strbuf_addf(sb, "%s%s", sep, names[i].name);
			flags &= ~names[i].bit;
			sep = "|";
		}
	if (flags)
		strbuf_addf(sb, "%s0x%x", sep, flags);
}

/* The kinds of ring this process set up, for the result's environment. */
static pthread_mutex_t used_lock = PTHREAD_MUTEX_INITIALIZER;
static struct uring_used used[8];
static size_t nused;

static void note_used(unsigned int flags, bool yield, unsigned int hints)
{
	size_t i;

	pthread_mutex_lock(&used_lock);
	for (i = 0; i < nused; i++)
		if (used[i].flags == flags && used[i].yield == yield && used[i].hints == hints)
			break;
	if (i == nused && nused < ARRAY_SIZE(used))
		used[nused++] = (struct uring_used){ .flags = flags, .yield = yield, .hints = hints };
	if (i < nused)
		used[i].rings++;
	pthread_mutex_unlock(&used_lock);
}

size_t uring_used(struct uring_used *out, size_t max)
{
	size_t n;

	pthread_mutex_lock(&used_lock);
	n = nused;
	for (size_t i = 0; i < n && i < max; i++)
		out[i] = used[i];
	pthread_mutex_unlock(&used_lock);
	return n;
}

static int uring_init(struct io_ctx *ctx, unsigned int depth)
{
	struct uring_priv *p = xcalloc(1, sizeof(*p));
	struct uring_setup su;
	int ret = -EINVAL;

	/* A private ring per thread: no SQPOLL, no registered files or buffers (fio's
	 * defaults too), so comparisons are fair. */
	uring_choose(ctx->hints, &su);
	for (size_t i = 0; i < su.nflags && ret == -EINVAL; i++) {
		struct io_uring_params par = { .flags = su.flags[i] };

		ret = io_uring_queue_init_params(depth, &p->ring, &par);
	}
	if (ret < 0) {
		free(p);
		return ret;
	}
	p->yield = su.yield && (p->ring.flags & IORING_SETUP_TASKRUN_FLAG);
	note_used(p->ring.flags, p->yield, ctx->hints);
	ctx->priv = p;
	return 0;
}

/* Fill an SQE for each I/O (what is left of it after io->xfer bytes); nothing reaches the
 * kernel yet.  0, or -EBUSY past the depth. */
static int queue_sqes(struct uring_priv *p, struct io_u **ios, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
		struct io_u *io = ios[i];
		char *buf = (char *)io->buf + io->xfer;

		if (!sqe)
			return -EBUSY; /* caller exceeded depth */
		if (io->op == IO_READ)
			io_uring_prep_read(sqe, os_file_fd(io->file), buf, io->len - io->xfer, io->off + io->xfer);
		else
			io_uring_prep_write(sqe, os_file_fd(io->file), buf, io->len - io->xfer, io->off + io->xfer);
		io_uring_sqe_set_data(sqe, io);
	}
	return 0;
}

/*
 * A completion of res bytes (or -errno) for io: true when io is finished (io->res set), false
 * when a short transfer was queued again for its remainder (as psync's loop and fio do).  A
 * read that returns 0 met the end of the file: the bytes before it are the result; a write
 * that returns 0 cannot make progress: -EIO.
 */
static bool complete(struct uring_priv *p, struct io_u *io, int res)
{
	if (res > 0 && io->xfer + (uint32_t)res < io->len) {
		io->xfer += (uint32_t)res;
		if (!queue_sqes(p, &io, 1))
			return false;
		io->res = -EIO; /* no SQE: cannot happen within the depth; fail loudly */
		return true;
	}
	if (res < 0)
		io->res = res;
	else if (res == 0)
		io->res = io->op == IO_READ ? (int)io->xfer : -EIO;
	else
		io->res = (int)(io->xfer + (uint32_t)res);
	return true;
}

/* Hand the queued SQEs to the kernel; with wait, also wait for that many completions in the
 * same io_uring_enter() (a failed wait is left to reap, which waits again). */
static int flush_sqes(struct uring_priv *p, unsigned int n, unsigned int wait)
{
	unsigned int done = 0;

	while (done < n) {
		int ret = wait ? io_uring_submit_and_wait(&p->ring, wait) : io_uring_submit(&p->ring);

		if (ret < 0) {
			if (ret == -EINTR || ret == -EAGAIN)
				continue;
			return ret;
		}
		done += ret;
		if (ret == 0)
			break;
	}
	return 0;
}

/*
 * A yielding ring's wait (struct uring_setup): give the CPU away and look at the ring again,
 * until a completion is there or waits to be posted (IORING_SQ_TASKRUN), for at most
 * YIELD_NS.  A thread asleep in io_uring_enter() is woken by every completion an io-wq worker
 * posts, however many it waits for; yielding lets the worker (on this CPU or another) finish
 * more before the thread looks.  True when there is something to reap; false after YIELD_NS,
 * and then the next YIELD_SKIP waits sleep at once: I/O that slow (a punted read from a slow
 * device) gains nothing from yields, which would only cost CPU.
 */
#define YIELD_NS 30000
#define YIELD_SKIP 64

static bool yield_for_completion(struct uring_priv *p)
{
	uint64_t until;

	if (p->yield_skip) {
		p->yield_skip--;
		return false;
	}
	until = now_ns() + YIELD_NS;
	do {
		sched_yield();
		if (io_uring_cq_ready(&p->ring) ||
		    (IO_URING_READ_ONCE(*p->ring.sq.kflags) & IORING_SQ_TASKRUN))
			return true;
	} while (now_ns() < until);
	p->yield_skip = YIELD_SKIP;
	return false;
}

static int uring_submit(struct io_ctx *ctx, struct io_u **ios, unsigned int n)
{
	struct uring_priv *p = ctx->priv;
	int ret = queue_sqes(p, ios, n);

	return ret ? ret : flush_sqes(p, n, 0);
}

static int uring_reap(struct io_ctx *ctx, struct io_u **out, unsigned int min, unsigned int max)
{
	struct uring_priv *p = ctx->priv;
	struct io_uring_cqe *cqes[64];
	unsigned int k = 0, again = 0;

	while (k < max) {
		unsigned int got, want = MIN(max - k, (unsigned int)ARRAY_SIZE(cqes));
		uint64_t now;

		got = io_uring_peek_batch_cqe(&p->ring, cqes, want);
		if (!got) {
			struct io_uring_cqe *cqe;
			int ret;

			if (k >= min)
				break;
			if (again) { /* continued transfers first reach the kernel */
				ret = flush_sqes(p, again, 0);
				if (ret < 0)
					return k ? (int)k : ret;
				again = 0;
			}
			if (p->yield && yield_for_completion(p))
				continue; /* the peek posts what waits (TASKRUN_FLAG) */
			ret = io_uring_wait_cqe(&p->ring, &cqe);
			if (ret == -EINTR || ret == -EAGAIN)
				continue;
			if (ret < 0)
				return k ? (int)k : ret;
			continue;
		}
		/* completions seen together get one timestamp: they were observed at once */
		now = now_ns();
		for (unsigned int i = 0; i < got; i++) {
			struct io_u *io = io_uring_cqe_get_data(cqes[i]);

			if (!complete(p, io, cqes[i]->res)) {
				again++;
				continue;
			}
			io->end_ns = now;
			out[k++] = io;
		}
		io_uring_cq_advance(&p->ring, got);
	}
	if (again) {
		int ret = flush_sqes(p, again, 0);

		if (ret < 0 && !k)
			return ret;
	}
	return (int)k;
}

/*
 * One io_uring_enter() submits the batch and waits for min completions: the simple workloads'
 * loop makes one system call per round trip instead of two (submit, then wait; measured: 35 %
 * fewer io_uring_enter() calls per I/O, +2 % IOPS on tmpfs).  start_ns was stamped just before
 * this call and end_ns is stamped when the completions are seen, as with separate submit and
 * reap.  A yielding ring submits only: its wait is the reap's (yield_for_completion()).
 */
static int uring_submit_reap(struct io_ctx *ctx, struct io_u **ios, unsigned int n,
			     struct io_u **out, unsigned int min, unsigned int max)
{
	struct uring_priv *p = ctx->priv;
	int ret = queue_sqes(p, ios, n);

	if (!ret)
		ret = flush_sqes(p, n, p->yield ? 0 : min);
	return ret ? ret : uring_reap(ctx, out, min, max);
}

static void uring_cleanup(struct io_ctx *ctx)
{
	struct uring_priv *p = ctx->priv;

	if (!p)
		return;
	io_uring_queue_exit(&p->ring);
	free(p);
}

const struct ioengine_ops ioengine_uring = {
	.name = "io_uring",
	.init = uring_init,
	.submit = uring_submit,
	.reap = uring_reap,
	.submit_reap = uring_submit_reap,
	.cleanup = uring_cleanup,
};
