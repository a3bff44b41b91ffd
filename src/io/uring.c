// SPDX-License-Identifier: MIT
/* uring.c: io_uring back end (liburing), one ring per thread. */
#include "io/ioengine.h"

#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

#include "util.h"

struct uring_priv {
	struct io_uring ring;
};

static int uring_init(struct io_ctx *ctx, unsigned int depth)
{
	struct uring_priv *p = xcalloc(1, sizeof(*p));
	int ret;

	/* A private ring per thread: no SQPOLL, no shared work queue; the same defaults as
	 * fio's io_uring engine (no registered files or buffers) so comparisons are fair. */
	ret = io_uring_queue_init(depth, &p->ring, 0);
	if (ret < 0) {
		free(p);
		return ret;
	}
	ctx->priv = p;
	return 0;
}

static int uring_submit(struct io_ctx *ctx, struct io_u **ios, unsigned int n)
{
	struct uring_priv *p = ctx->priv;
	unsigned int done = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
		struct io_u *io = ios[i];

		if (!sqe)
			return -EBUSY; /* caller exceeded depth */
		if (io->op == IO_READ)
			io_uring_prep_read(sqe, io->fd, io->buf, io->len, io->off);
		else
			io_uring_prep_write(sqe, io->fd, io->buf, io->len, io->off);
		io_uring_sqe_set_data(sqe, io);
	}
	while (done < n) {
		int ret = io_uring_submit(&p->ring);

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

static int uring_reap(struct io_ctx *ctx, struct io_u **out, unsigned int min, unsigned int max)
{
	struct uring_priv *p = ctx->priv;
	struct io_uring_cqe *cqes[64];
	unsigned int k = 0;

	while (k < max) {
		unsigned int got, want = MIN(max - k, (unsigned int)ARRAY_SIZE(cqes));
		uint64_t now;

		got = io_uring_peek_batch_cqe(&p->ring, cqes, want);
		if (!got) {
			struct io_uring_cqe *cqe;
			int ret;

			if (k >= min)
				break;
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

			io->end_ns = now;
			io->res = cqes[i]->res;
			out[k++] = io;
		}
		io_uring_cq_advance(&p->ring, got);
	}
	return (int)k;
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
	.cleanup = uring_cleanup,
};
