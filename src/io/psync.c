// SPDX-License-Identifier: MIT
/* psync.c: positional read/write back end (os_pread/os_pwrite: pread/pwrite, or ReadFile and
 * WriteFile waited for on Windows): each I/O completes inside submit (like fio's psync). */
#include "io/ioengine.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/base.h"
#include "os/os.h"

struct psync_priv {
	unsigned int n, head;
	struct io_u **done; /* completed, not yet reaped */
};

static int psync_init(struct io_ctx *ctx, unsigned int depth)
{
	struct psync_priv *p = xcalloc(1, sizeof(*p));

	p->done = xcalloc(depth, sizeof(*p->done));
	ctx->priv = p;
	return 0;
}

/* Full transfer or an error: a short O_DIRECT transfer is continued, as fio does. */
static int do_io(struct io_u *io)
{
	size_t done = 0;

	while (done < io->len) {
		ssize_t n;

		if (io->op == IO_READ)
			n = os_pread(io->file, (char *)io->buf + done, io->len - done, io->off + done);
		else
			n = os_pwrite(io->file, (char *)io->buf + done, io->len - done, io->off + done);
		if (n < 0)
			return (int)n;
		if (n == 0)
			return io->op == IO_READ ? (int)done : -EIO;
		done += n;
	}
	return (int)done;
}

static int psync_submit(struct io_ctx *ctx, struct io_u **ios, unsigned int n)
{
	struct psync_priv *p = ctx->priv;

	for (unsigned int i = 0; i < n; i++) {
		struct io_u *io = ios[i];

		io->res = do_io(io);
		io->end_ns = now_ns();
		p->done[(p->head + p->n++) % ctx->depth] = io;
	}
	return 0;
}

static int psync_reap(struct io_ctx *ctx, struct io_u **out, unsigned int min, unsigned int max)
{
	struct psync_priv *p = ctx->priv;
	unsigned int k = 0;

	(void)min; /* everything submitted has completed */
	while (p->n && k < max) {
		out[k++] = p->done[p->head];
		p->head = (p->head + 1) % ctx->depth;
		p->n--;
	}
	return (int)k;
}

static void psync_cleanup(struct io_ctx *ctx)
{
	struct psync_priv *p = ctx->priv;

	if (p)
		free(p->done);
	free(p);
}

const struct ioengine_ops ioengine_psync = {
	.name = "psync",
	.init = psync_init,
	.submit = psync_submit,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};
