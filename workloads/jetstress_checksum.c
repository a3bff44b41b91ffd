// SPDX-License-Identifier: MIT
/*
 * jetstress_checksum.c: the Jetstress checksum pass after the load: every page of every
 * database read sequentially and verified (Jetstress's "database checksum" step).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "jetstressP.h"
#include "lib/msg.h"
#include "os/os.h"

/* As fio's reference for sequential reads (make bench, case init): 1 MiB reads, 8 in flight. */
#define CK_DEPTH 8
#define CK_CHUNK_PAGES 32
#define CK_CHUNK ((size_t)CK_CHUNK_PAGES * DB_PAGE_SIZE)

struct ck_state {
	struct checksum_result *cs;
	struct js_db *db;
	uint64_t from_load; /* bad pages counted because the load saw them */
	uint64_t seen;      /* bit i: the pass found db->bad_pg[i] bad itself */
};

_Static_assert(JS_BAD_KEEP <= 64, "ck_state.seen has a bit per kept bad page");

/* Pages [first, first + n) failed in the pass: mark the load's bad pages among them. */
static void ck_seen(struct ck_state *c, uint64_t first, uint64_t n)
{
	for (unsigned int i = 0; i < c->db->nbad_pg; i++)
		if (c->db->bad_pg[i] >= first && c->db->bad_pg[i] < first + n)
			c->seen |= 1ULL << i;
}

/* Verify the pages of one completed read. */
static void ck_verify(struct ck_state *c, const struct io_u *io)
{
	struct checksum_result *cs = c->cs;
	struct js_db *db = c->db;
	uint64_t first = (io->off - db->base) / DB_PAGE_SIZE, n = io->len / DB_PAGE_SIZE;

	if (io->res != (int)io->len) {
		cs->bad_pages += n;
		ck_seen(c, first, n);
		if (!cs->first_bad)
			cs->first_bad = xasprintf("%s pages %llu-%llu: read error (%s)", db->name,
						  (unsigned long long)first,
						  (unsigned long long)(first + n - 1),
						  io->res < 0 ? strerror(-io->res) : "short read");
	} else {
		for (uint64_t p = 0; p < n; p++) {
			const char *why = db_verify_page((const char *)io->buf + p * DB_PAGE_SIZE,
							 db->info.dbid, first + p);

			if (!why)
				continue;
			cs->bad_pages++;
			ck_seen(c, first + p, 1);
			if (!cs->first_bad)
				cs->first_bad = xasprintf("%s page %llu: %s", db->name,
							  (unsigned long long)(first + p), why);
		}
	}
	cs->pages += n;
	cs->bytes += io->len;
}

/*
 * Pages the load found bad and the pass read fine: the lazy writer rewrote them in between.
 * They count: the database was corrupt, whatever it holds now.
 */
static void ck_from_load(struct ck_state *c)
{
	struct checksum_result *cs = c->cs;
	struct js_db *db = c->db;

	for (unsigned int i = 0; i < db->nbad_pg; i++) {
		if (c->seen & (1ULL << i))
			continue; /* still bad: the pass counted it */
		c->from_load++;
		cs->bad_pages++;
		if (!cs->first_bad)
			cs->first_bad = xasprintf("%s page %llu: found corrupt during the load, "
						  "rewritten before the checksum pass (the load's "
						  "notes say why)", db->name,
						  (unsigned long long)db->bad_pg[i]);
	}
}

/*
 * One database, CK_DEPTH reads in flight.  Returns 0, -EINTR when the run is stopped, or the
 * engine's -errno.  Nothing is left in flight into ios[] (this frame) when it returns: what was
 * submitted is reaped, or, when reaping fails too, the caller releases the context (which
 * cancels the reads) before anything else touches bufs.
 */
static int ck_database(struct run_ctx *rc, struct io_ctx *ctx, void *bufs, struct ck_state *c)
{
	struct js_db *db = c->db;
	struct io_u ios[CK_DEPTH], *fr[CK_DEPTH], *batch[CK_DEPTH];
	unsigned int nfree = CK_DEPTH;
	uint64_t next = 1;
	int ret = 0, drained;

	for (unsigned int i = 0; i < CK_DEPTH; i++) {
		ios[i] = (struct io_u){ .file = db->file, .op = IO_READ, .cls = CLS_DB_READ,
					.buf = (char *)bufs + i * CK_CHUNK };
		fr[i] = &ios[i];
	}
	c->seen = 0;
	while (!ret && (next < db->npages || nfree < CK_DEPTH)) {
		unsigned int n = 0;
		int k;

		if (atomic_load(rc->stop))
			ret = -EINTR;
		while (!ret && nfree && next < db->npages) {
			struct io_u *io = fr[--nfree];
			uint64_t pages = MIN((uint64_t)CK_CHUNK_PAGES, db->npages - next);

			io->off = db->base + next * DB_PAGE_SIZE;
			io->len = (uint32_t)(pages * DB_PAGE_SIZE);
			next += pages;
			batch[n++] = io;
		}
		if (!n && nfree == CK_DEPTH)
			break;
		/* submit the batch and wait for a completion in one step (io_uring: one call) */
		k = io_submit_reap(ctx, batch, n, batch, 1, CK_DEPTH);
		if (k < 0) {
			ret = k;
			/* what was not submitted is ours again; the rest may still be in flight */
			break;
		}
		for (int i = 0; i < k; i++) {
			ck_verify(c, batch[i]);
			fr[nfree++] = batch[i];
		}
	}
	/* never leave reads in flight into this frame: drain what the engine still holds */
	drained = io_drain(ctx, batch, CK_DEPTH);
	if (drained)
		return ret ? ret : drained;
	if (!ret)
		ck_from_load(c);
	return ret;
}

uint64_t js_checksum_pass(struct run_ctx *rc)
{
	struct js *js = js_of(rc);
	struct checksum_result *cs = &rc->res->checksum;
	void *bufs = xmalloc_aligned(CK_CHUNK * CK_DEPTH);
	struct ck_state c = { .cs = cs };
	uint64_t t0 = now_ns();
	struct io_ctx ctx;
	int ret;

	ret = io_ctx_init(&ctx, rc->o->engine, CK_DEPTH);
	if (ret) {
		fslab_err("checksum pass: cannot set up the %s I/O engine: %s; the databases were "
			  "not verified", rc->o->engine, strerror(-ret));
		result_add_note(rc->res, "checksum pass skipped: cannot set up the %s I/O engine: %s",
				rc->o->engine, strerror(-ret));
		free_aligned(bufs);
		return 0;
	}
	fslab_info("checksum pass: reading every page of %u database(s)", js->ndbs);
	cs->ran = true;
	for (unsigned int d = 0; d < js->ndbs && !ret; d++) {
		c.db = &js->dbs[d];
		ret = ck_database(rc, &ctx, bufs, &c);
	}
	if (ret) {
		cs->ran = false;
		if (ret == -EINTR) {
			result_add_note(rc->res, "checksum pass interrupted after %llu pages",
					(unsigned long long)cs->pages);
		} else {
			fslab_err("checksum pass: %s: %s; the pass stopped after %llu pages",
				  c.db->name, strerror(-ret), (unsigned long long)cs->pages);
			result_add_note(rc->res, "checksum pass incomplete: reading %s failed in the I/O "
					"engine (%s) after %llu pages", c.db->name, strerror(-ret),
					(unsigned long long)cs->pages);
		}
	}
	cs->seconds = (now_ns() - t0) / 1e9;
	cs->mbps = cs->seconds > 0 ? cs->bytes / cs->seconds / 1e6 : 0;
	io_ctx_release(&ctx); /* before bufs goes: it cancels whatever a failed engine still has */
	free_aligned(bufs);
	return c.from_load;
}
