// SPDX-License-Identifier: MIT
/* ioengine.c: back-end table and the thin wrappers around it. */
#include "io/ioengine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/base.h"
#include "os/os.h"
#include "lib/strbuf.h"

static const struct ioengine_ops *const engines[] = {
#ifdef _WIN32
	&ioengine_win32,
#else
	&ioengine_uring,
#endif
	&ioengine_psync,
};

const struct ioengine_ops *ioengine_at(size_t i)
{
	return i < ARRAY_SIZE(engines) ? engines[i] : NULL;
}

const struct ioengine_ops *ioengine_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const char *ioengine_names(void)
{
	static struct strbuf names = STRBUF_INIT;

	if (!names.len)
		for (size_t i = 0; i < ARRAY_SIZE(engines); i++)
			strbuf_addf(&names, "%s%s",
				    !i ? "" : i + 1 < ARRAY_SIZE(engines) ? ", " : " or ",
				    engines[i]->name);
	return names.buf;
}

int io_ctx_open(struct io_ctx *ctx, const char *engine, unsigned int depth, unsigned int hints)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->ops = ioengine_find(engine);
	if (!ctx->ops)
		return -ENOENT;
	ctx->depth = depth ? depth : 1;
	ctx->hints = hints;
	return ctx->ops->init(ctx, ctx->depth);
}

int io_ctx_init(struct io_ctx *ctx, const char *engine, unsigned int depth)
{
	return io_ctx_open(ctx, engine, depth, 0);
}

void io_ctx_release(struct io_ctx *ctx)
{
	if (ctx->ops && ctx->ops->cleanup)
		ctx->ops->cleanup(ctx);
	ctx->ops = NULL;
	ctx->priv = NULL;
}

int io_submit(struct io_ctx *ctx, struct io_u **ios, unsigned int n)
{
	uint64_t now = now_ns();
	int ret;

	for (unsigned int i = 0; i < n; i++) {
		ios[i]->start_ns = now;
		ios[i]->xfer = 0;
	}
	ret = ctx->ops->submit(ctx, ios, n);
	if (!ret)
		ctx->inflight += n;
	return ret;
}

int io_reap(struct io_ctx *ctx, struct io_u **out, unsigned int min, unsigned int max)
{
	int n = ctx->ops->reap(ctx, out, min, max);

	if (n > 0)
		ctx->inflight -= n;
	return n;
}

int io_submit_reap(struct io_ctx *ctx, struct io_u **ios, unsigned int n, struct io_u **out,
		   unsigned int min, unsigned int max)
{
	uint64_t now;
	int ret;

	if (!ctx->ops->submit_reap) {
		ret = io_submit(ctx, ios, n);
		return ret ? ret : io_reap(ctx, out, min, max);
	}
	now = now_ns();
	for (unsigned int i = 0; i < n; i++) {
		ios[i]->start_ns = now;
		ios[i]->xfer = 0;
	}
	ret = ctx->ops->submit_reap(ctx, ios, n, out, min, max);
	if (ret >= 0)
		ctx->inflight += n - (unsigned int)ret;
	return ret;
}

int io_sync(struct io_ctx *ctx, struct io_u *io)
{
	struct io_u *done;
	int ret;

	ret = io_submit(ctx, &io, 1);
	if (ret)
		return ret;
	do {
		ret = io_reap(ctx, &done, 1, 1);
	} while (ret == 0);
	if (ret < 0)
		return ret;
	return io->res;
}

int io_drain(struct io_ctx *ctx, struct io_u **out, unsigned int max)
{
	while (ctx->ops && ctx->inflight) {
		int n = io_reap(ctx, out, 1, MIN(ctx->inflight, max));

		if (n < 0)
			return n;
		if (n == 0)
			return -EIO; /* the back end holds I/Os it does not complete */
	}
	return 0;
}
