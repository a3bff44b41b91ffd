// SPDX-License-Identifier: MIT
/*
 * jetstress_load.c: the Jetstress database load threads.  Sessions run closed-loop
 * transactions of the Jetstress mix (a seek that misses the page-ID cache reads a random
 * 32 KiB page, verified; modifications dirty the page and append a log record; 30 % of the
 * commits wait for the log flush).  The lazy writer (checkpoint) writes dirty pages back as
 * random 32 KiB write-through writes, oldest first, as soon as they are dirty (or, under a
 * hold, as ESE's checkpoint depth and clean-page pool ask: js_cache_hold()), up to
 * js_writer_depth() in flight.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "jetstressP.h"
#include "lib/random.h"

/* Log record sizes in bytes, header included (ESE log records carry the changed data:
 * inserts the record, deletes little more than a bookmark). */
static const struct {
	uint32_t lo, hi;
} rec_size[JS_TXN_NR] = {
	[JS_INSERT] = { 512, 2560 }, [JS_DELETE] = { 96, 224 }, [JS_REPLACE] = { 384, 1152 },
};
_Static_assert(96 >= JS_LREC_HDR && 2560 <= JS_LREC_MAX, "records hold a header and fit");
/* A read transaction touches a second page (long value, next leaf) this often, percent:
 * with one page per modifying transaction this puts reads:writes near 1.75:1, inside the
 * 3:2 .. 2:1 range Jetstress shows. */
#define READ_SECOND_PAGE_PCT 40

/* Read and verify one page into buf; account it as db_read.  Its time (header generation),
 * or 0 when it could not be read or does not verify. */
static uint64_t read_page(struct js_session *se, struct io_ctx *ctx, void *buf, uint64_t pgno)
{
	struct js_db *db = se->db;
	struct io_u io = { .file = db->file, .op = IO_READ, .cls = CLS_DB_READ, .buf = buf,
			   .len = DB_PAGE_SIZE, .off = db->base + pgno * DB_PAGE_SIZE };
	int res = io_sync(ctx, &io);
	bool err = res != DB_PAGE_SIZE;
	const char *why;

	engine_account(&db->rc->eng, se->st, CLS_DB_READ, DB_PAGE_SIZE, io.start_ns, io.end_ns, err);
	if (err) {
		js_note_io_error(db, &io);
		return 0;
	}
	why = db->rc->o->no_verify ? NULL : db_verify_page(buf, db->info.dbid, pgno);
	if (why) {
		js_note_bad_page(db, se->st, pgno, why);
		return 0;
	}
	return ((const struct page_hdr *)buf)->gen;
}

/*
 * With db->mu held: slot s changes.  Its new time comes from the database's clock, and its
 * log record (r: type, txn, flags, session, len set) is appended in the same order as the
 * change, as ESE logs a change while it holds the page; the slot remembers where the log
 * must be durable before the page may be written.  Returns the LSN past the record.
 */
static uint64_t change_page(struct js_db *db, uint32_t s, struct js_lrec *r, size_t off)
{
	struct slot *sl = &db->slots[s];
	uint64_t end;

	r->pgno = sl->pgno;
	r->before = sl->dbtime;
	r->after = js_next_dbtime(db->dbtime, sl->dbtime);
	db->dbtime = sl->dbtime = r->after;
	end = js_log_append(db, r, off);
	sl->lsn = end;
	if (!(sl->flags & SLOT_DIRTY))
		sl->first_end = end;
	db->lsn_end = end;
	js_mark_dirty(db, s);
	return end;
}

/*
 * Seek page pgno: a cache hit costs nothing; a miss reads the page (other sessions wanting
 * the same page wait for that read).  With r, the page is changed and its record logged
 * (change_page(), body at off of the log payload); *end gets the LSN past it.  Returns false
 * when the load is stopping.
 *
 * A miss that finds no free or clean page (every slot dirty or being read/written: the lazy
 * writer is behind) blocks until the writer cleans one.  That is ESE's database page fault
 * stall (Jetstress's "Database Page Fault Stalls/sec"); it is counted once per such miss.
 */
static bool seek(struct js_session *se, struct io_ctx *ctx, void *buf, uint64_t pgno,
		 struct js_lrec *r, size_t off, uint64_t *end)
{
	struct js_db *db = se->db;
	bool stalled = false, ok = true;
	uint32_t s;

	pthread_mutex_lock(&db->mu);
	for (;;) {
		s = js_cache_lookup(db, pgno);
		if (s != NONE && !(db->slots[s].flags & SLOT_READING))
			break; /* hit */
		if (s == NONE) {
			s = js_cache_victim(db);
			if (s != NONE) {
				uint64_t t;

				js_cache_insert(db, s, pgno, SLOT_VALID | SLOT_READING);
				pthread_mutex_unlock(&db->mu);
				t = read_page(se, ctx, buf, pgno);
				pthread_mutex_lock(&db->mu);
				db->slots[s].dbtime = t;
				db->slots[s].flags &= ~SLOT_READING;
				pthread_cond_broadcast(&db->cv_state);
				break;
			}
			/* every slot dirty or busy: the checkpoint is behind, wait for it */
			if (!stalled) {
				engine_page_fault_stall(&db->rc->eng, se->st);
				stalled = true;
				db->stalled++;
			}
			pthread_cond_signal(&db->cv_dirty);
		}
		if (!js_running(db)) {
			ok = false;
			break;
		}
		pthread_cond_wait(&db->cv_state, &db->mu);
	}
	db->stalled -= stalled;
	if (ok) {
		db->slots[s].flags |= SLOT_REF;
		if (r)
			*end = change_page(db, s, r, off);
	}
	pthread_mutex_unlock(&db->mu);
	return ok;
}

void *js_session_main(void *arg)
{
	struct js_session *se = arg;
	struct js_db *db = se->db;
	struct engine *e = &db->rc->eng;
	void *buf = xmalloc_aligned(DB_PAGE_SIZE);
	struct io_ctx ctx;
	struct rng r;
	int ret;

	ret = io_ctx_init(&ctx, db->rc->o->engine, 1);
	if (ret) {
		js_fail(db, NULL, 0, "%s session %d: cannot set up the %s I/O engine: %s", db->name,
			se->id, db->rc->o->engine, strerror(-ret));
		free_aligned(buf);
		return NULL;
	}
	rng_seed(&r, mix64(db->rc->o->seed) ^ mix64(0x5e55ULL + se->id));
	while (js_running(db)) {
		enum js_txn t = js_pick_txn(&r);
		uint64_t pgno = 1 + rng_below(&r, db->npages - 1), end = 0;

		if (t == JS_READ) {
			if (!seek(se, &ctx, buf, pgno, NULL, 0, NULL))
				break;
			if (rng_below(&r, 100) < READ_SECOND_PAGE_PCT &&
			    !seek(se, &ctx, buf, 1 + rng_below(&r, db->npages - 1), NULL, 0, NULL))
				break;
		} else {
			uint32_t bytes = rec_size[t].lo +
					 (uint32_t)rng_below(&r, rec_size[t].hi - rec_size[t].lo + 1);
			bool lazy = rng_below(&r, 100) < JS_LAZY_COMMIT_PCT;
			struct js_lrec rec = { .type = JS_LR_UPDATE, .txn = (uint8_t)t, .len = bytes,
					       .session = (uint16_t)se->id,
					       .flags = lazy ? 0 : JS_LRF_DURABLE };
			/* the record's body: the log payload at an offset of the page's */
			size_t off = (size_t)(mix64(pgno) % (LOG_PAYLOAD - JS_LREC_MAX));

			if (!js_log_room(db) || !seek(se, &ctx, buf, pgno, &rec, off, &end) ||
			    !js_log_commit(db, end, lazy))
				break;
		}
		engine_transaction(e, se->st);
	}
	io_ctx_release(&ctx);
	free_aligned(buf);
	return NULL;
}

/* With db->mu held: is the head of the dirty queue sl (popped) to be written now?  At once
 * without a hold (js_cache_hold()); with one, as ESE's checkpoint and clean-page pool ask. */
static bool write_due(const struct js_db *db, const struct slot *sl)
{
	return !db->ckpt_depth || db->stalled || db->dq_n + 1 + db->nwriting > db->dirty_max ||
	       db->lsn_end - sl->first_end >= db->ckpt_depth;
}

/*
 * Take up to room dirty pages off the queue (oldest first) for the writer: each becomes
 * WRITING and gets a free I/O unit of w.  Pages under the BDM reader go back to the end of
 * the queue.  Under a hold, the head waits while it is not due (*hold).  A page whose change
 * is not yet durable in the log waits at the head (write-ahead logging: ESE's buffer manager
 * writes no page before the log holds its change, ErrBFIPrepareFlushPage() in bf.cxx), and
 * *wal says so; the log writer is asked for it at once when sessions wait for clean pages or
 * half the cache is dirty.  Returns how many were taken into sub[].  With db->mu held.
 */
static unsigned int writer_take(struct js_db *db, struct js_writer *w, struct io_u **sub,
				unsigned int room, bool *wal, bool *hold)
{
	unsigned int n = 0, tries = db->dq_n;
	uint64_t durable = __atomic_load_n(&db->durable, __ATOMIC_ACQUIRE);

	*wal = *hold = false;
	while (n < room && db->dq_n && tries--) {
		uint32_t s = js_dirtyq_pop(db);
		struct slot *sl = &db->slots[s];
		unsigned int k;

		if (sl->pgno >= db->bdm_lo && sl->pgno < db->bdm_hi) {
			js_dirtyq_push(db, s); /* BDM is reading it: later */
			continue;
		}
		if (!write_due(db, sl)) {
			js_dirtyq_unpop(db, s);
			*hold = true;
			break;
		}
		if (sl->lsn > durable) {
			js_dirtyq_unpop(db, s);
			js_log_need(db, sl->lsn, db->stalled || db->dq_n >= db->nslots / 2);
			*wal = true;
			break;
		}
		sl->flags = (sl->flags & ~SLOT_DIRTY) | SLOT_WRITING;
		db->nwriting++;
		k = w->free[--w->nfree];
		w->slot_of[k] = s;
		w->time_of[k] = sl->dbtime;
		w->ios[k] = (struct io_u){ .file = db->file, .op = IO_WRITE, .cls = CLS_DB_WRITE,
					   .buf = (char *)w->bufs + (size_t)k * DB_PAGE_SIZE,
					   .len = DB_PAGE_SIZE,
					   .off = db->base + sl->pgno * DB_PAGE_SIZE };
		sub[n++] = &w->ios[k];
	}
	return n;
}

/* Wait on cv with mu held for at most ns. */
static void timed_wait(pthread_cond_t *cv, pthread_mutex_t *mu, uint64_t ns)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (long)ns;
	while (ts.tv_nsec >= (long)NSEC_PER_SEC) {
		ts.tv_sec++;
		ts.tv_nsec -= NSEC_PER_SEC;
	}
	pthread_cond_timedwait(cv, mu, &ts);
}

/*
 * With db->mu held and nothing in flight: wait for dirty pages, for the log (wal: the log
 * writer signals cv_dirty without db->mu, so a short timed wait, as ESE's waits for a log
 * write are, cmsecWaitLogWrite = 2 ms), for the head to become due under a hold (more dirty
 * pages or a stalled session signal cv_dirty; the log's growth alone is seen within 10 ms),
 * or, when only pages under the BDM reader are dirty, for the reader to move on.
 */
static void writer_wait(struct js_db *db, bool wal, bool hold)
{
	if (wal || hold)
		timed_wait(&db->cv_dirty, &db->mu, (wal ? 2 : 10) * NSEC_PER_MSEC);
	else
		pthread_cond_wait(db->dq_n ? &db->cv_state : &db->cv_dirty, &db->mu);
	__atomic_store_n(&db->wal_wait, 0, __ATOMIC_RELEASE);
}

/* Account completed page writes (without db->mu: a failure is noted under it). */
static void writer_account(struct js_db *db, struct js_writer *w, struct io_u **done, int k)
{
	for (int i = 0; i < k; i++) {
		engine_account(&db->rc->eng, w->st, CLS_DB_WRITE, DB_PAGE_SIZE, done[i]->start_ns,
			       done[i]->end_ns, done[i]->res != DB_PAGE_SIZE);
		if (done[i]->res != DB_PAGE_SIZE)
			js_note_io_error(db, done[i]);
	}
}

/* n writes of w are over: their pages stop WRITING (a page modified meanwhile is dirty and
 * goes back on the queue), their I/O units are free again, waiting sessions are woken.  With
 * db->mu held. */
static void writer_release(struct js_db *db, struct js_writer *w, struct io_u **ios,
			   unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		unsigned int j = (unsigned int)(ios[i] - w->ios);
		uint32_t s = w->slot_of[j];

		db->slots[s].flags &= ~SLOT_WRITING;
		db->nwriting--;
		if (db->slots[s].flags & SLOT_DIRTY)
			js_dirtyq_push(db, s);
		w->free[w->nfree++] = j;
	}
	if (n)
		pthread_cond_broadcast(&db->cv_state);
}

/* w's I/O units, their page buffers and what they write, every unit free. */
static void writer_alloc(struct js_writer *w)
{
	w->ios = xcalloc(w->depth, sizeof(*w->ios));
	w->slot_of = xcalloc(w->depth, sizeof(*w->slot_of));
	w->time_of = xcalloc(w->depth, sizeof(*w->time_of));
	w->free = xcalloc(w->depth, sizeof(*w->free));
	w->bufs = xmalloc_aligned((size_t)w->depth * DB_PAGE_SIZE);
	for (unsigned int k = 0; k < w->depth; k++)
		w->free[w->nfree++] = w->depth - 1 - k;
}

static void writer_free(struct js_writer *w)
{
	free_aligned(w->bufs);
	free(w->ios);
	free(w->slot_of);
	free(w->time_of);
	free(w->free);
}

/* The n pages taken, each stamped with its page number and page time.  Their buffers hold
 * the payload since writer_main() filled them, and a stamp rewrites only what the previous
 * stamp wrote (header and block tags): no 32 KiB copy per write. */
static void writer_fill(const struct js_db *db, const struct js_writer *w, struct io_u **sub,
			unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		db_stamp_page(sub[i]->buf, db->info.dbid, (sub[i]->off - db->base) / DB_PAGE_SIZE,
			      w->time_of[sub[i] - w->ios]);
}

/* The load is stopping: wait for what is still in flight (the checksum pass reads those pages
 * next, and their buffers are ours); a failure still counts.  Without db->mu. */
static void writer_drain(struct js_db *db, struct js_writer *w, struct io_ctx *ctx,
			 struct io_u **done, unsigned int inflight)
{
	while (inflight) {
		int k = io_reap(ctx, done, 1, inflight);

		if (k <= 0)
			break;
		writer_account(db, w, done, k);
		pthread_mutex_lock(&db->mu);
		writer_release(db, w, done, (unsigned int)k);
		pthread_mutex_unlock(&db->mu);
		inflight -= (unsigned int)k;
	}
}

/*
 * A lazy writer (checkpoint) thread.  The writers of a database keep up to db->wdepth
 * (js_writer_depth()) page writes in flight together, w->depth of them this one: each
 * completion is replaced by the oldest dirty page at once, as ESE's checkpoint
 * keeps up to JET_paramCheckpointIOMax writes outstanding.  It used to write 8 pages and wait
 * for all of them, which capped it at 8 / the slowest write of the batch: sessions stalled
 * on storage that had room for more writes (ext4 here, 12 threads: 1175-1375 stalls/s with 8
 * in flight, none with 16 or more).
 */
void *js_writer_main(void *arg)
{
	struct js_writer *w = arg;
	struct js_db *db = w->db;
	struct io_u **sub, **done;
	void *payload = xmalloc_aligned(DB_PAGE_SIZE);
	unsigned int inflight = 0;
	struct io_ctx ctx;
	struct rng r;
	int ret;

	writer_alloc(w);
	sub = xcalloc(w->depth, sizeof(*sub));
	done = xcalloc(w->depth, sizeof(*done));
	ret = io_ctx_init(&ctx, db->rc->o->engine, w->depth);
	if (ret) {
		js_fail(db, NULL, 0, "%s lazy writer: cannot set up the %s I/O engine: %s", db->name,
			db->rc->o->engine, strerror(-ret));
		goto out;
	}
	rng_seed(&r, mix64(db->rc->o->seed) ^ mix64(0xd1a7ULL + db->idx));
	db_fill_payload(payload, DB_PAGE_SIZE, &r, db->rc->o->compressibility);
	for (unsigned int k = 0; k < w->depth; k++)
		memcpy((char *)w->bufs + (size_t)k * DB_PAGE_SIZE, payload, DB_PAGE_SIZE);
	pthread_mutex_lock(&db->mu);
	for (;;) {
		unsigned int n;
		bool wal, hold;
		int k = 0;

		if (!js_running(db))
			break;
		n = writer_take(db, w, sub, w->depth - inflight, &wal, &hold);
		if (!n && !inflight) {
			writer_wait(db, wal, hold);
			continue;
		}
		pthread_mutex_unlock(&db->mu);

		writer_fill(db, w, sub, n);
		/* submit what was taken and wait for at least one completion */
		ret = io_submit_reap(&ctx, sub, n, done, 1, w->depth);
		if (ret >= 0) {
			inflight += n;
			k = ret;
			ret = 0;
		}
		writer_account(db, w, done, k);
		if (ret)
			js_fail(db, w->st, CLS_DB_WRITE, "%s lazy writer: submitting database writes "
				"to %s failed: %s", db->name, db->path, strerror(-ret));

		pthread_mutex_lock(&db->mu);
		if (ret) { /* none of them was submitted: still dirty (the load stops) */
			for (unsigned int i = 0; i < n; i++)
				db->slots[w->slot_of[sub[i] - w->ios]].flags |= SLOT_DIRTY;
			writer_release(db, w, sub, n);
		}
		writer_release(db, w, done, (unsigned int)k);
		inflight -= (unsigned int)k;
		if (ret)
			break;
	}
	pthread_mutex_unlock(&db->mu);
	writer_drain(db, w, &ctx, done, inflight);
	pthread_mutex_lock(&db->mu);
	pthread_cond_broadcast(&db->cv_state);
	pthread_mutex_unlock(&db->mu);
	io_ctx_release(&ctx);
out:
	writer_free(w);
	free_aligned(payload);
	free(sub);
	free(done);
	return NULL;
}
