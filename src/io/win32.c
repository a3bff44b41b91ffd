// SPDX-License-Identifier: MIT
/*
 * win32.c: the Windows back end (--engine win32, the default there): overlapped I/O with
 * completion routines (ReadFileEx/WriteFileEx), reaped in alertable waits.
 *
 * Why completion routines and not a completion port: a handle binds to one port for good, and
 * fslab's sessions, lazy writer and BDM thread share one database handle while each thread
 * owns its io_ctx.  A port per thread cannot work (the handle would bind to the first), and a
 * shared port would hand one thread's completions to another.  A completion routine runs as
 * an APC on the thread that issued the I/O, so each ctx sees exactly its own completions and
 * the handle stays shareable, as ESE shares its database file.
 *
 * Files opened OS_DIRECT (FILE_FLAG_NO_BUFFERING) take only sector-multiple offsets, lengths
 * and buffer addresses: such an I/O is refused here with -EINVAL before it reaches Windows, so
 * the rule holds (and is tested) also where Wine would accept it.
 */
#include "io/ioengine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/os.h"
#include "os/osP.h"

struct w32_priv;

/* One I/O in flight: the OVERLAPPED first, so the completion routine finds its slot. */
struct w32_slot {
	OVERLAPPED ov;
	struct io_u *io;
	struct w32_priv *p;
	bool busy;
};

struct w32_priv {
	unsigned int depth;
	struct w32_slot *slots;
	struct w32_slot **free;
	unsigned int nfree;
	struct io_u **done; /* ring of finished I/Os, not yet reaped */
	unsigned int head, n;
};

static void finish(struct w32_priv *p, struct w32_slot *s, int res)
{
	struct io_u *io = s->io;

	io->res = res;
	io->end_ns = now_ns();
	p->done[(p->head + p->n++) % p->depth] = io;
	s->busy = false;
	s->io = NULL;
	p->free[p->nfree++] = s;
}

static VOID CALLBACK on_done(DWORD err, DWORD n, LPOVERLAPPED ov);

/* Issue what is left of s->io (after io->xfer bytes).  0, or -errno when Windows refused. */
static int issue(struct w32_slot *s)
{
	struct io_u *io = s->io;
	uint64_t off = io->off + io->xfer;
	char *buf = (char *)io->buf + io->xfer;
	DWORD len = io->len - io->xfer;
	BOOL ok;

	memset(&s->ov, 0, sizeof(s->ov));
	s->ov.Offset = (DWORD)off;
	s->ov.OffsetHigh = (DWORD)(off >> 32);
	ok = io->op == IO_READ ? ReadFileEx(io->file->h, buf, len, &s->ov, on_done)
			       : WriteFileEx(io->file->h, buf, len, &s->ov, on_done);
	if (ok)
		return 0;
	/* a read at or past the end may fail at once instead of completing */
	if (GetLastError() == ERROR_HANDLE_EOF && io->op == IO_READ)
		return 1;
	return os_errno_from_win(GetLastError());
}

/*
 * The completion routine: runs on the issuing thread inside an alertable wait.  A short
 * transfer is continued until it is whole (as psync and io_uring do): one event, one verdict.
 */
static VOID CALLBACK on_done(DWORD err, DWORD n, LPOVERLAPPED ov)
{
	struct w32_slot *s = (struct w32_slot *)ov;
	struct w32_priv *p = s->p;
	struct io_u *io = s->io;
	int ret;

	if (err == ERROR_HANDLE_EOF || (!err && !n)) {
		finish(p, s, io->op == IO_READ ? (int)io->xfer : -EIO);
		return;
	}
	if (err) {
		finish(p, s, os_errno_from_win(err));
		return;
	}
	io->xfer += n;
	if (io->xfer >= io->len) {
		finish(p, s, (int)io->xfer);
		return;
	}
	ret = issue(s);
	if (ret)
		finish(p, s, ret > 0 ? (int)io->xfer : ret);
}

static int w32_init(struct io_ctx *ctx, unsigned int depth)
{
	struct w32_priv *p = xcalloc(1, sizeof(*p));

	p->depth = depth;
	p->slots = xcalloc(depth, sizeof(*p->slots));
	p->free = xcalloc(depth, sizeof(*p->free));
	p->done = xcalloc(depth, sizeof(*p->done));
	for (unsigned int i = 0; i < depth; i++) {
		p->slots[i].p = p;
		p->free[p->nfree++] = &p->slots[depth - 1 - i];
	}
	ctx->priv = p;
	return 0;
}

/* Unbuffered files: offset, length and buffer address must be sector multiples. */
static bool aligned(const struct io_u *io)
{
	unsigned int sec = os_file_sector(io->file);

	if (!(io->file->flags & OS_DIRECT))
		return true;
	return !(io->off % sec) && !(io->len % sec) && !((uintptr_t)io->buf % sec);
}

static int w32_submit(struct io_ctx *ctx, struct io_u **ios, unsigned int n)
{
	struct w32_priv *p = ctx->priv;

	if (n > p->nfree)
		return -EBUSY; /* caller exceeded depth */
	for (unsigned int i = 0; i < n; i++) {
		struct w32_slot *s = p->free[--p->nfree];
		int ret;

		s->io = ios[i];
		s->busy = true;
		/* a refused I/O completes with its error, as a failed CQE does with io_uring */
		if (!aligned(ios[i])) {
			finish(p, s, -EINVAL);
			continue;
		}
		if (!ios[i]->len) {
			finish(p, s, 0);
			continue;
		}
		ret = issue(s);
		if (ret)
			finish(p, s, ret > 0 ? 0 : ret);
	}
	return 0;
}

static int w32_reap(struct io_ctx *ctx, struct io_u **out, unsigned int min, unsigned int max)
{
	struct w32_priv *p = ctx->priv;
	unsigned int k = 0;

	/* completion routines run here; with nothing wanted, only the ones already due */
	if (p->n < min) {
		while (p->n < min)
			SleepEx(INFINITE, TRUE);
	} else {
		SleepEx(0, TRUE);
	}
	while (p->n && k < max) {
		out[k++] = p->done[p->head];
		p->head = (p->head + 1) % p->depth;
		p->n--;
	}
	return (int)k;
}

/* I/Os still in flight are cancelled and waited for: their routines use the slots. */
static void w32_cleanup(struct io_ctx *ctx)
{
	struct w32_priv *p = ctx->priv;

	if (!p)
		return;
	for (unsigned int i = 0; i < p->depth; i++)
		if (p->slots[i].busy)
			CancelIoEx(p->slots[i].io->file->h, &p->slots[i].ov);
	while (p->nfree < p->depth)
		SleepEx(INFINITE, TRUE);
	free(p->slots);
	free(p->free);
	free(p->done);
	free(p);
}

const struct ioengine_ops ioengine_win32 = {
	.name = "win32",
	.init = w32_init,
	.submit = w32_submit,
	.reap = w32_reap,
	.cleanup = w32_cleanup,
};
