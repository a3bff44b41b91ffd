// SPDX-License-Identifier: MIT
/*
 * jetstress_bdm.c: the Jetstress background database maintenance reader: sequential 256 KiB
 * reads through each database, verified, throttled to --bdm-rate, kept off pages the lazy
 * writer is writing (and the writer off the pages it reads).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "jetstressP.h"
#include "os/os.h"

void *js_bdm_main(void *arg)
{
	struct js_db *db = arg;
	struct engine *e = &db->rc->eng;
	double rate = db->rc->o->bdm_mbps * 1e6; /* bytes per second */
	const uint64_t pages_per_io = JS_BDM_IO / DB_PAGE_SIZE;
	void *buf = xmalloc_aligned(JS_BDM_IO);
	uint64_t pos = 1, done_bytes = 0, t0 = now_ns();
	struct io_ctx ctx;
	int ret;

	ret = io_ctx_init(&ctx, db->rc->o->engine, 1);
	if (ret) {
		js_fail(db, NULL, 0, "%s BDM reader: cannot set up the %s I/O engine: %s", db->name,
			db->rc->o->engine, strerror(-ret));
		free_aligned(buf);
		return NULL;
	}
	while (js_running(db)) {
		uint64_t n = MIN(pages_per_io, db->npages - pos), due;
		struct io_u io = { .file = db->file, .op = IO_READ, .cls = CLS_BDM_READ, .buf = buf,
				   .len = (uint32_t)(n * DB_PAGE_SIZE),
				   .off = db->base + pos * DB_PAGE_SIZE };
		bool busy;
		int res;

		/* throttle: the next read is due when the bytes so far match the rate */
		due = t0 + (uint64_t)(done_bytes / rate * 1e9);
		while (js_running(db) && now_ns() < due)
			sleep_until_ns(MIN(due, now_ns() + 100 * NSEC_PER_MSEC));
		if (!js_running(db))
			break;
		/* keep the checkpoint off these pages while they are read */
		pthread_mutex_lock(&db->mu);
		do {
			busy = false;
			for (uint64_t p = pos; p < pos + n && !busy; p++) {
				uint32_t s = js_cache_lookup(db, p);

				busy = s != NONE && (db->slots[s].flags & SLOT_WRITING);
			}
			if (busy)
				pthread_cond_wait(&db->cv_state, &db->mu);
		} while (busy && js_running(db));
		db->bdm_lo = pos;
		db->bdm_hi = pos + n;
		pthread_mutex_unlock(&db->mu);

		res = io_sync(&ctx, &io);
		engine_account(e, db->bst, CLS_BDM_READ, io.len, io.start_ns, io.end_ns,
			       res != (int)io.len);
		if (res != (int)io.len)
			js_note_io_error(db, &io);
		if (res == (int)io.len && !db->rc->o->no_verify)
			for (uint64_t p = 0; p < n; p++) {
				const char *why = db_verify_page((char *)buf + p * DB_PAGE_SIZE,
								 db->info.dbid, pos + p);

				if (why)
					js_note_bad_page(db, db->bst, pos + p, why);
			}

		pthread_mutex_lock(&db->mu);
		db->bdm_lo = db->bdm_hi = 0;
		pthread_cond_broadcast(&db->cv_state);
		pthread_mutex_unlock(&db->mu);
		done_bytes += io.len;
		pos += n;
		if (pos >= db->npages)
			pos = 1;
	}
	io_ctx_release(&ctx);
	free_aligned(buf);
	return NULL;
}
