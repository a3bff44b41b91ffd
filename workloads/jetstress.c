// SPDX-License-Identifier: MIT
/*
 * jetstress.c: the Jetstress-like Exchange (ESE) database load.
 *
 * Per database instance:
 *  - sessions (the --threads, spread over the databases): closed-loop transactions of the
 *    Jetstress mix; a seek that misses the page-ID cache reads a random 32 KiB page
 *    (db_read, verified); insert/delete/replace dirty the page and append a log record;
 *    30 % of those commits wait for the log flush (70 % are lazy);
 *  - a lazy writer (checkpoint): writes dirty pages back as random 32 KiB write-through
 *    writes (db_write), oldest first, several in flight;
 *  - a log writer: sequential write-through appends of 4-64 KiB (log_write), grouped
 *    commits, rewriting the last partial sector, 1 MiB log files with a pre-created spare
 *    and a rename at every roll (in the measured path);
 *  - a BDM reader: sequential 256 KiB reads throttled to --bdm-rate (bdm_read, verified).
 * The cache holds page numbers only (no data): it decides hits, dirtiness and checkpoint
 * order; page contents are generated and stamped when a page is written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dbfile.h"
#include "io/ioengine.h"
#include "jetstress.h"
#include "verdict.h"
#include "workload.h"

#define NONE UINT32_MAX

enum {
	SLOT_VALID = 1,
	SLOT_DIRTY = 2,
	SLOT_REF = 4,
	SLOT_WRITING = 8,
	SLOT_READING = 16,
};

struct slot {
	uint64_t pgno;
	uint32_t next; /* hash chain */
	uint32_t gen;  /* bumped at every modification */
	uint32_t flags;
};

/* Log record sizes in bytes (ESE log records carry the changed data: inserts the record,
 * deletes little more than a bookmark). */
static const struct {
	uint32_t lo, hi;
} rec_size[JS_TXN_NR] = {
	[JS_INSERT] = { 512, 2560 }, [JS_DELETE] = { 96, 224 }, [JS_REPLACE] = { 384, 1152 },
};
/* A read transaction touches a second page (long value, next leaf) this often, percent:
 * with one page per modifying transaction this puts reads:writes near 1.75:1, inside the
 * 3:2 .. 2:1 range Jetstress shows. */
#define READ_SECOND_PAGE_PCT 40
#define WRITER_DEPTH 8
#define BDM_IO (256 * 1024)
#define LOG_BUFFER (1024 * 1024) /* unflushed log bytes before sessions wait */
#define LOG_LAZY_FLUSH_BYTES (32 * 1024)
#define LOG_LAZY_FLUSH_NS (100 * NSEC_PER_MSEC)

/* Raw-device baseline: each database's log stream is a region of the log device holding
 * this many 1 MiB "files" used round-robin (current, spare, kept generations). */
#define RAW_LOG_SEGS (JS_LOG_KEEP + 2)
#define RAW_LOG_REGION ((uint64_t)RAW_LOG_SEGS * JS_LOG_FILE_SIZE)

struct js_db {
	int idx;
	char name[16];
	char *path, *log_dir; /* raw: the devices */
	bool raw;             /* the database and its log live on raw devices */
	uint64_t base;        /* byte offset of page 0 (raw: the slice of the device) */
	uint64_t log_base;    /* raw: byte offset of this log stream's region */
	int fd;
	int state; /* enum db_state before prepare */
	struct db_info info;
	uint64_t npages;
	struct run_ctx *rc;

	/* page-ID cache, guarded by mu */
	pthread_mutex_t mu;
	pthread_cond_t cv_state; /* a slot stopped READING/WRITING or became clean */
	pthread_cond_t cv_dirty; /* writer: there are dirty pages */
	struct slot *slots;
	uint32_t nslots, nused, hand, *buckets, nbuckets;
	uint32_t *dirtyq, dq_head, dq_n;
	uint64_t bdm_lo, bdm_hi; /* page range BDM is reading: the writer keeps out */

	/* log stream, guarded by lmu */
	pthread_mutex_t lmu;
	pthread_cond_t lcv_work, lcv_done;
	uint64_t appended, flushed, last_flush_ns;
	uint32_t waiters;
	int log_fd;
	uint64_t log_gen;            /* generation of the current E00.log */
	uint64_t prev_off, prev_end; /* previous log write, for the sequentiality check */
	uint64_t rolls, nonseq, roll_ns_sum, roll_ns_max, log_deleted;
	uint64_t log_write_err;

	pthread_t writer, logger, bdm;
	bool writer_started, logger_started, bdm_started;
	struct thread_stats *wst, *lst, *bst;
	char *first_bad; /* first checksum failure seen during the load, under mu */
	char *first_err; /* first I/O error seen during the load, under mu */
};

struct js_session {
	struct js_db *db;
	int id;
	pthread_t tid;
	bool started;
	struct thread_stats *st;
};

struct js {
	struct js_db *dbs;
	unsigned int ndbs;
	struct js_session *sessions;
	unsigned int nsessions;
	uint64_t seed;
};

/* ---- page-ID cache (db->mu held) ---- */

static uint32_t bucket_of(const struct js_db *db, uint64_t pgno)
{
	return (uint32_t)(mix64(pgno) % db->nbuckets);
}

static uint32_t cache_lookup(struct js_db *db, uint64_t pgno)
{
	for (uint32_t i = db->buckets[bucket_of(db, pgno)]; i != NONE; i = db->slots[i].next)
		if (db->slots[i].pgno == pgno)
			return i;
	return NONE;
}

static void cache_unlink(struct js_db *db, uint32_t s)
{
	uint32_t *pp = &db->buckets[bucket_of(db, db->slots[s].pgno)];

	while (*pp != s)
		pp = &db->slots[*pp].next;
	*pp = db->slots[s].next;
}

/* A free or evictable slot (CLOCK, skipping dirty and busy ones), or NONE when every slot
 * is dirty or busy: the caller waits for the writer. */
static uint32_t cache_victim(struct js_db *db)
{
	if (db->nused < db->nslots)
		return db->nused++;
	for (uint32_t n = 0; n < 2 * db->nslots; n++) {
		uint32_t s = db->hand;
		struct slot *sl = &db->slots[s];

		db->hand = (db->hand + 1) % db->nslots;
		if (sl->flags & (SLOT_DIRTY | SLOT_WRITING | SLOT_READING))
			continue;
		if (sl->flags & SLOT_REF) {
			sl->flags &= ~SLOT_REF;
			continue;
		}
		cache_unlink(db, s);
		return s;
	}
	return NONE;
}

static void cache_insert(struct js_db *db, uint32_t s, uint64_t pgno, uint32_t flags)
{
	uint32_t b = bucket_of(db, pgno);

	db->slots[s] = (struct slot){ .pgno = pgno, .next = db->buckets[b], .flags = flags };
	db->buckets[b] = s;
}

static void dirtyq_push(struct js_db *db, uint32_t s)
{
	db->dirtyq[(db->dq_head + db->dq_n++) % db->nslots] = s;
}

static uint32_t dirtyq_pop(struct js_db *db)
{
	uint32_t s = db->dirtyq[db->dq_head];

	db->dq_head = (db->dq_head + 1) % db->nslots;
	db->dq_n--;
	return s;
}

static void mark_dirty(struct js_db *db, uint32_t s)
{
	struct slot *sl = &db->slots[s];

	sl->gen++;
	if (!(sl->flags & SLOT_DIRTY)) {
		sl->flags |= SLOT_DIRTY;
		/* a slot being written goes back on the queue when its write completes */
		if (!(sl->flags & SLOT_WRITING))
			dirtyq_push(db, s);
		pthread_cond_signal(&db->cv_dirty);
	}
}

static bool running(const struct js_db *db)
{
	return engine_running(&db->rc->eng);
}

static void note_bad_page(struct js_db *db, struct thread_stats *st, uint64_t pgno,
			  const char *why)
{
	STORE(&st->checksum_errors, st->checksum_errors + 1);
	pthread_mutex_lock(&db->mu);
	if (!db->first_bad) {
		db->first_bad = xasprintf("%s page %llu: %s", db->name, (unsigned long long)pgno, why);
		fslab_err("%s: checksum error on page %llu (%s): the database file is corrupt",
			  db->path, (unsigned long long)pgno, why);
	}
	pthread_mutex_unlock(&db->mu);
}

/*
 * An I/O that failed or came back short: the engine counts it (and the verdict fails); say the
 * first one loudly with its errno and where, so the report can tell why.
 */
static void note_io_error(struct js_db *db, const struct io_u *io)
{
	char why[96];

	if (io->res < 0)
		snprintf(why, sizeof(why), "%s", strerror(-io->res));
	else
		snprintf(why, sizeof(why), "short transfer, %d of %u bytes", io->res, io->len);
	pthread_mutex_lock(&db->mu);
	if (!db->first_err) {
		db->first_err = xasprintf("%s %s at offset %llu (%u bytes) on %s: %s", db->name,
					  io_class_names[io->cls], (unsigned long long)io->off,
					  io->len, io->fd == db->log_fd ? db->log_dir : db->path, why);
		fslab_err("I/O error: %s", db->first_err);
	}
	pthread_mutex_unlock(&db->mu);
}

/* Read and verify one page into buf; account it as db_read. */
static void read_page(struct js_session *se, struct io_ctx *ctx, void *buf, uint64_t pgno)
{
	struct js_db *db = se->db;
	struct io_u io = { .fd = db->fd, .op = IO_READ, .cls = CLS_DB_READ, .buf = buf,
			   .len = DB_PAGE_SIZE, .off = db->base + pgno * DB_PAGE_SIZE };
	int res = io_sync(ctx, &io);
	bool err = res != DB_PAGE_SIZE;

	engine_account(&db->rc->eng, se->st, CLS_DB_READ, DB_PAGE_SIZE, io.start_ns, io.end_ns, err);
	if (err)
		note_io_error(db, &io);
	if (!err && db->rc->o->verify_reads) {
		const char *why = db_verify_page(buf, db->info.dbid, pgno);

		if (why)
			note_bad_page(db, se->st, pgno, why);
	}
}

/*
 * Seek page pgno: a cache hit costs nothing; a miss reads the page (other sessions wanting
 * the same page wait for that read).  With dirty, the page is modified.  Returns false when
 * the load is stopping.
 *
 * A miss that finds no free or clean page (every slot dirty or being read/written: the lazy
 * writer is behind) blocks until the writer cleans one.  That is ESE's database page fault
 * stall (Jetstress's "Database Page Fault Stalls/sec"); it is counted once per such miss.
 */
static bool seek(struct js_session *se, struct io_ctx *ctx, void *buf, uint64_t pgno, bool dirty)
{
	struct js_db *db = se->db;
	bool stalled = false;
	uint32_t s;

	pthread_mutex_lock(&db->mu);
	for (;;) {
		s = cache_lookup(db, pgno);
		if (s != NONE && !(db->slots[s].flags & SLOT_READING))
			break; /* hit */
		if (s == NONE) {
			s = cache_victim(db);
			if (s != NONE) {
				cache_insert(db, s, pgno, SLOT_VALID | SLOT_READING);
				pthread_mutex_unlock(&db->mu);
				read_page(se, ctx, buf, pgno);
				pthread_mutex_lock(&db->mu);
				db->slots[s].flags &= ~SLOT_READING;
				pthread_cond_broadcast(&db->cv_state);
				break;
			}
			/* every slot dirty or busy: the checkpoint is behind, wait for it */
			if (!stalled) {
				engine_page_fault_stall(&db->rc->eng, se->st);
				stalled = true;
			}
			pthread_cond_signal(&db->cv_dirty);
		}
		if (!running(db)) {
			pthread_mutex_unlock(&db->mu);
			return false;
		}
		pthread_cond_wait(&db->cv_state, &db->mu);
	}
	db->slots[s].flags |= SLOT_REF;
	if (dirty)
		mark_dirty(db, s);
	pthread_mutex_unlock(&db->mu);
	return true;
}

/* Append a log record; a non-lazy commit waits until it is on disk. */
static bool log_commit(struct js_db *db, uint32_t bytes, bool lazy)
{
	uint64_t mine;

	pthread_mutex_lock(&db->lmu);
	while (db->appended + bytes - db->flushed > LOG_BUFFER && running(db))
		pthread_cond_wait(&db->lcv_done, &db->lmu);
	db->appended += bytes;
	mine = db->appended;
	if (!lazy) {
		db->waiters++;
		pthread_cond_signal(&db->lcv_work);
		while (db->flushed < mine && running(db))
			pthread_cond_wait(&db->lcv_done, &db->lmu);
		db->waiters--;
	} else if (db->appended - db->flushed >= LOG_LAZY_FLUSH_BYTES) {
		pthread_cond_signal(&db->lcv_work);
	}
	pthread_mutex_unlock(&db->lmu);
	return running(db);
}

static void *session_main(void *arg)
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
		fslab_err("session %d: cannot set up %s: %s", se->id, db->rc->o->engine, strerror(-ret));
		free(buf);
		return NULL;
	}
	rng_seed(&r, mix64(db->rc->o->seed) ^ mix64(0x5e55ULL + se->id));
	while (engine_running(e)) {
		enum js_txn t = js_pick_txn(&r);
		uint64_t pgno = 1 + rng_below(&r, db->npages - 1);

		if (t == JS_READ) {
			if (!seek(se, &ctx, buf, pgno, false))
				break;
			if (rng_below(&r, 100) < READ_SECOND_PAGE_PCT &&
			    !seek(se, &ctx, buf, 1 + rng_below(&r, db->npages - 1), false))
				break;
		} else {
			uint32_t bytes = rec_size[t].lo +
					 (uint32_t)rng_below(&r, rec_size[t].hi - rec_size[t].lo + 1);
			bool lazy = rng_below(&r, 100) < JS_LAZY_COMMIT_PCT;

			if (!seek(se, &ctx, buf, pgno, true) || !log_commit(db, bytes, lazy))
				break;
		}
		engine_transaction(e, se->st);
	}
	io_ctx_release(&ctx);
	free(buf);
	return NULL;
}

/* ---- lazy writer / checkpoint ---- */

static void *writer_main(void *arg)
{
	struct js_db *db = arg;
	struct engine *e = &db->rc->eng;
	struct io_u ios[WRITER_DEPTH], *done[WRITER_DEPTH], *sub[WRITER_DEPTH];
	uint32_t slot_of[WRITER_DEPTH], gen_of[WRITER_DEPTH];
	void *bufs = xmalloc_aligned((size_t)WRITER_DEPTH * DB_PAGE_SIZE);
	void *payload = xmalloc_aligned(DB_PAGE_SIZE);
	struct io_ctx ctx;
	struct rng r;
	int ret;

	ret = io_ctx_init(&ctx, db->rc->o->engine, WRITER_DEPTH);
	if (ret) {
		fslab_err("%s writer: cannot set up %s: %s", db->name, db->rc->o->engine,
			  strerror(-ret));
		goto out;
	}
	rng_seed(&r, mix64(db->rc->o->seed) ^ mix64(0xd1a7ULL + db->idx));
	db_fill_payload(payload, DB_PAGE_SIZE, &r, db->rc->o->compressibility);
	pthread_mutex_lock(&db->mu);
	for (;;) {
		unsigned int n = 0, tries;

		while (!db->dq_n && running(db))
			pthread_cond_wait(&db->cv_dirty, &db->mu);
		if (!running(db))
			break;
		tries = db->dq_n;
		while (n < WRITER_DEPTH && db->dq_n && tries--) {
			uint32_t s = dirtyq_pop(db);
			struct slot *sl = &db->slots[s];

			if (sl->pgno >= db->bdm_lo && sl->pgno < db->bdm_hi) {
				dirtyq_push(db, s); /* BDM is reading it: later */
				continue;
			}
			sl->flags = (sl->flags & ~SLOT_DIRTY) | SLOT_WRITING;
			slot_of[n] = s;
			gen_of[n] = sl->gen;
			ios[n] = (struct io_u){ .fd = db->fd, .op = IO_WRITE, .cls = CLS_DB_WRITE,
						.buf = (char *)bufs + (size_t)n * DB_PAGE_SIZE,
						.len = DB_PAGE_SIZE,
						.off = db->base + sl->pgno * DB_PAGE_SIZE };
			n++;
		}
		if (!n) { /* only pages under the BDM reader: let it finish */
			pthread_cond_wait(&db->cv_state, &db->mu);
			continue;
		}
		pthread_mutex_unlock(&db->mu);

		for (unsigned int i = 0; i < n; i++) {
			memcpy(ios[i].buf, payload, DB_PAGE_SIZE);
			db_stamp_page(ios[i].buf, db->info.dbid, (ios[i].off - db->base) / DB_PAGE_SIZE,
				      ((uint64_t)gen_of[i] << 16) | 1);
			sub[i] = &ios[i];
		}
		ret = io_submit(&ctx, sub, n);
		for (unsigned int got = 0; !ret && got < n;) {
			int k = io_reap(&ctx, done, 1, n - got);

			if (k < 0) {
				ret = k;
				break;
			}
			for (int i = 0; i < k; i++) {
				engine_account(e, db->wst, CLS_DB_WRITE, DB_PAGE_SIZE, done[i]->start_ns,
					       done[i]->end_ns, done[i]->res != DB_PAGE_SIZE);
				if (done[i]->res != DB_PAGE_SIZE)
					note_io_error(db, done[i]);
			}
			got += k;
		}
		if (ret) {
			fslab_err("%s writer: %s; stopping the run", db->name, strerror(-ret));
			*db->rc->stop = RUN_STOP_FAILED;
		}

		pthread_mutex_lock(&db->mu);
		for (unsigned int i = 0; i < n; i++) {
			struct slot *sl = &db->slots[slot_of[i]];

			sl->flags &= ~SLOT_WRITING;
			/* modified again while being written: dirty, back on the queue */
			if (sl->flags & SLOT_DIRTY)
				dirtyq_push(db, slot_of[i]);
		}
		pthread_cond_broadcast(&db->cv_state);
		if (ret)
			break;
	}
	pthread_cond_broadcast(&db->cv_state);
	pthread_mutex_unlock(&db->mu);
	io_ctx_release(&ctx);
out:
	free(bufs);
	free(payload);
	return NULL;
}

/* ---- log stream ---- */

static int log_path(char *buf, size_t len, const struct js_db *db, const char *name)
{
	return snprintf(buf, len, "%s/%s", db->log_dir, name) >= (int)len ? -ENAMETOOLONG : 0;
}

/* Raw: byte offset of the segment holding generation gen. */
static uint64_t raw_seg(const struct js_db *db, uint64_t gen)
{
	return db->log_base + (gen - 1) % RAW_LOG_SEGS * JS_LOG_FILE_SIZE;
}

/*
 * Create a filled 1 MiB log file (header sector + zeroed data), fsynced; raw: fill the
 * segment of generation gen instead.  Returns bytes written or -errno.
 */
static int64_t create_log_file(struct js_db *db, const char *name, bool direct, uint64_t gen)
{
	char path[4096];
	void *buf;
	int fd, ret = 0;

	if (db->raw)
		snprintf(path, sizeof(path), "%s", db->log_dir);
	else if (log_path(path, sizeof(path), db, name))
		return -ENAMETOOLONG;
	fd = open(path, db_open_flags(direct, false) | (db->raw ? 0 : O_CREAT | O_TRUNC), 0644);
	if (fd < 0)
		return -errno;
	buf = xmalloc_aligned(JS_LOG_FILE_SIZE);
	memset(buf, 0, JS_LOG_FILE_SIZE);
	snprintf(buf, JS_LOG_HDR, "fslab log file for %s\n", db->name);
	if (pwrite(fd, buf, JS_LOG_FILE_SIZE, db->raw ? (off_t)raw_seg(db, gen) : 0) !=
	    JS_LOG_FILE_SIZE)
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(fd))
		ret = -errno;
	close(fd);
	free(buf);
	return ret ? ret : JS_LOG_FILE_SIZE;
}

static int open_current_log(struct js_db *db, bool direct)
{
	char path[4096];

	if (db->raw) {
		db->log_fd = open(db->log_dir, db_open_flags(direct, true));
		return db->log_fd < 0 ? -errno : 0;
	}
	if (log_path(path, sizeof(path), db, JS_LOG_CURRENT))
		return -ENAMETOOLONG;
	db->log_fd = open(path, db_open_flags(direct, true));
	return db->log_fd < 0 ? -errno : 0;
}

/*
 * Roll: E00.log becomes E00<gen>.log, the spare becomes E00.log, and generations beyond
 * JS_LOG_KEEP are deleted (circular logging).  The next spare is created by make_spare()
 * once the write waiting for this roll is done, as ESE creates it in the background.
 * Returns 0 or -errno.
 */
static int roll_log(struct js_db *db)
{
	char cur[4096], old[4096], spare[4096], name[32];

	if (db->raw) { /* no files: the next segment of the region */
		db->log_gen++;
		db->rolls++;
		return 0;
	}
	close(db->log_fd);
	db->log_fd = -1;
	if (log_path(cur, sizeof(cur), db, JS_LOG_CURRENT) ||
	    log_path(old, sizeof(old), db, js_log_name(name, sizeof(name), db->log_gen)) ||
	    log_path(spare, sizeof(spare), db, JS_LOG_SPARE))
		return -ENAMETOOLONG;
	if (rename(cur, old) || rename(spare, cur))
		return -errno;
	db->log_gen++;
	if (open_current_log(db, db->rc->direct))
		return -errno;
	if (db->log_gen > JS_LOG_KEEP + 1) {
		uint64_t g = db->log_gen - JS_LOG_KEEP - 1;

		if (log_path(old, sizeof(old), db, js_log_name(name, sizeof(name), g)) == 0 &&
		    unlink(old) == 0)
			db->log_deleted++;
	}
	db->rolls++;
	return 0;
}

static int make_spare(struct js_db *db)
{
	int64_t n = create_log_file(db, JS_LOG_SPARE, db->rc->direct, db->log_gen + 1);

	if (n < 0)
		return (int)n;
	/* what the log device wrote besides log records, for write amplification: only what
	 * falls in the measured window, like the device counters */
	if (engine_phase(&db->rc->eng) == PH_MEASURE)
		STORE(&db->lst->other_write_bytes[1], db->lst->other_write_bytes[1] + (uint64_t)n);
	return 0;
}

static void *logger_main(void *arg)
{
	struct js_db *db = arg;
	struct engine *e = &db->rc->eng;
	void *buf = xmalloc_aligned(JS_LOG_MAX_WRITE);
	struct io_ctx ctx;
	struct rng r;
	int ret;

	ret = io_ctx_init(&ctx, db->rc->o->engine, 1);
	if (ret) {
		fslab_err("%s log writer: cannot set up %s: %s", db->name, db->rc->o->engine,
			  strerror(-ret));
		free(buf);
		return NULL;
	}
	rng_seed(&r, mix64(db->rc->o->seed) ^ mix64(0x106ULL + db->idx));
	db_fill_payload(buf, JS_LOG_MAX_WRITE, &r, db->rc->o->compressibility);
	pthread_mutex_lock(&db->lmu);
	db->last_flush_ns = now_ns();
	for (;;) {
		uint64_t start, end, file_base, t_roll = 0, len;
		struct io_u io;
		int res;

		while (running(db) && !(db->appended > db->flushed &&
					(db->waiters || db->appended - db->flushed >= LOG_LAZY_FLUSH_BYTES ||
					 now_ns() - db->last_flush_ns >= LOG_LAZY_FLUSH_NS))) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 20 * NSEC_PER_MSEC;
			if (ts.tv_nsec >= (long)NSEC_PER_SEC) {
				ts.tv_sec++;
				ts.tv_nsec -= NSEC_PER_SEC;
			}
			pthread_cond_timedwait(&db->lcv_work, &db->lmu, &ts);
		}
		if (!running(db))
			break;
		/* the current file holds LSNs [file_base, file_base + JS_LOG_DATA) */
		file_base = (db->log_gen - 1) * JS_LOG_DATA;
		if (db->flushed == file_base + JS_LOG_DATA) {
			pthread_mutex_unlock(&db->lmu);
			t_roll = now_ns();
			ret = roll_log(db);
			pthread_mutex_lock(&db->lmu);
			if (ret) {
				fslab_err("%s: log roll failed in %s: %s; stopping the run", db->name,
					  db->log_dir, strerror(-ret));
				db->log_write_err++;
				*db->rc->stop = RUN_STOP_FAILED;
				break;
			}
			file_base += JS_LOG_DATA;
			db->prev_off = db->prev_end = 0;
		}
		/* rewrite the last partial sector, write up to 64 KiB, never past the file */
		start = (db->flushed - file_base) / JS_LOG_SECTOR * JS_LOG_SECTOR;
		end = MIN(db->appended - file_base, (uint64_t)JS_LOG_DATA);
		end = MIN(end, start + JS_LOG_MAX_WRITE);
		len = (end - start + JS_LOG_SECTOR - 1) / JS_LOG_SECTOR * JS_LOG_SECTOR;
		pthread_mutex_unlock(&db->lmu);

		io = (struct io_u){ .fd = db->log_fd, .op = IO_WRITE, .cls = CLS_LOG_WRITE,
				    .buf = buf, .len = (uint32_t)len,
				    .off = (db->raw ? raw_seg(db, db->log_gen) : 0) + JS_LOG_HDR + start };
		((uint64_t *)buf)[0] = file_base + start; /* record header: its LSN */
		res = io_sync(&ctx, &io);
		/* a roll is part of the write that needed it (keep it in the measured path) */
		engine_account(e, db->lst, CLS_LOG_WRITE, len, t_roll ? t_roll : io.start_ns, io.end_ns,
			       res != (int)len);

		pthread_mutex_lock(&db->lmu);
		if (t_roll) {
			uint64_t d = io.start_ns - t_roll;

			db->roll_ns_sum += d;
			if (d > db->roll_ns_max)
				db->roll_ns_max = d;
		}
		/* sequential within the file: it starts at or after the previous write's start and
		 * no later than its end (the last partial sector is written again) */
		{
			uint64_t rel = io.off - (db->raw ? raw_seg(db, db->log_gen) : 0);

			if (db->prev_end && !(rel >= db->prev_off && rel <= db->prev_end))
				db->nonseq++;
			else if (!db->prev_end && rel != JS_LOG_HDR)
				db->nonseq++;
			db->prev_off = rel;
			db->prev_end = rel + len;
		}
		if (res != (int)len) {
			db->log_write_err++;
			pthread_mutex_unlock(&db->lmu);
			note_io_error(db, &io);
			pthread_mutex_lock(&db->lmu);
		}
		db->flushed = file_base + end;
		db->last_flush_ns = now_ns();
		pthread_cond_broadcast(&db->lcv_done);
		if (t_roll) {
			pthread_mutex_unlock(&db->lmu);
			ret = make_spare(db);
			pthread_mutex_lock(&db->lmu);
			if (ret) {
				fslab_err("%s: cannot create the spare log file in %s: %s; stopping the run",
					  db->name, db->log_dir, strerror(-ret));
				db->log_write_err++;
				*db->rc->stop = RUN_STOP_FAILED;
				break;
			}
		}
	}
	pthread_cond_broadcast(&db->lcv_done);
	pthread_mutex_unlock(&db->lmu);
	io_ctx_release(&ctx);
	free(buf);
	return NULL;
}

/* ---- background database maintenance ---- */

static void *bdm_main(void *arg)
{
	struct js_db *db = arg;
	struct engine *e = &db->rc->eng;
	double rate = db->rc->o->bdm_mbps * 1e6; /* bytes per second */
	const uint64_t pages_per_io = BDM_IO / DB_PAGE_SIZE;
	void *buf = xmalloc_aligned(BDM_IO);
	uint64_t pos = 1, done_bytes = 0, t0 = now_ns();
	struct io_ctx ctx;
	int ret;

	ret = io_ctx_init(&ctx, db->rc->o->engine, 1);
	if (ret) {
		free(buf);
		return NULL;
	}
	while (engine_running(e)) {
		uint64_t n = MIN(pages_per_io, db->npages - pos), due;
		struct io_u io = { .fd = db->fd, .op = IO_READ, .cls = CLS_BDM_READ, .buf = buf,
				   .len = (uint32_t)(n * DB_PAGE_SIZE),
				   .off = db->base + pos * DB_PAGE_SIZE };
		bool busy;
		int res;

		/* throttle: the next read is due when the bytes so far match the rate */
		due = t0 + (uint64_t)(done_bytes / rate * 1e9);
		while (engine_running(e) && now_ns() < due)
			sleep_until_ns(MIN(due, now_ns() + 100 * NSEC_PER_MSEC));
		if (!engine_running(e))
			break;
		/* keep the checkpoint off these pages while they are read */
		pthread_mutex_lock(&db->mu);
		do {
			busy = false;
			for (uint64_t p = pos; p < pos + n && !busy; p++) {
				uint32_t s = cache_lookup(db, p);

				busy = s != NONE && (db->slots[s].flags & SLOT_WRITING);
			}
			if (busy)
				pthread_cond_wait(&db->cv_state, &db->mu);
		} while (busy && running(db));
		db->bdm_lo = pos;
		db->bdm_hi = pos + n;
		pthread_mutex_unlock(&db->mu);

		res = io_sync(&ctx, &io);
		engine_account(e, db->bst, CLS_BDM_READ, io.len, io.start_ns, io.end_ns,
			       res != (int)io.len);
		if (res != (int)io.len)
			note_io_error(db, &io);
		if (res == (int)io.len && db->rc->o->verify_reads)
			for (uint64_t p = 0; p < n; p++) {
				const char *why = db_verify_page((char *)buf + p * DB_PAGE_SIZE,
								 db->info.dbid, pos + p);

				if (why)
					note_bad_page(db, db->bst, pos + p, why);
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
	free(buf);
	return NULL;
}

/* ---- workload ops ---- */

static struct js *js_of(struct run_ctx *rc)
{
	return rc->priv;
}

static void db_free(struct js_db *db)
{
	if (db->fd >= 0)
		close(db->fd);
	if (db->log_fd >= 0)
		close(db->log_fd);
	free(db->path);
	free(db->log_dir);
	free(db->slots);
	free(db->buckets);
	free(db->dirtyq);
	free(db->first_bad);
	free(db->first_err);
	pthread_mutex_destroy(&db->mu);
	pthread_mutex_destroy(&db->lmu);
	pthread_cond_destroy(&db->cv_state);
	pthread_cond_destroy(&db->cv_dirty);
	pthread_cond_destroy(&db->lcv_work);
	pthread_cond_destroy(&db->lcv_done);
}

static void js_cleanup(struct run_ctx *rc)
{
	struct js *js = js_of(rc);

	if (!js)
		return;
	for (unsigned int i = 0; i < js->ndbs; i++)
		db_free(&js->dbs[i]);
	free(js->dbs);
	free(js->sessions);
	free(js);
	rc->priv = NULL;
}

/* Bytes needed on the filesystem of vols[i] by entries whose volume shares that filesystem. */
static int check_space_all(struct run_ctx *rc, const uint64_t *need_db, const uint64_t *need_log)
{
	const struct run_opts *o = rc->o;
	size_t nv = o->ndb_dirs + o->nlog_dirs;
	const struct volume **vols = xcalloc(nv, sizeof(*vols));
	uint64_t *need = xcalloc(nv, sizeof(*need));
	int ret = 0;

	for (size_t i = 0; i < o->ndb_dirs; i++) {
		vols[i] = &rc->db_vols[i];
		need[i] = need_db[i];
	}
	for (size_t i = 0; i < o->nlog_dirs; i++) {
		vols[o->ndb_dirs + i] = &rc->log_vols[i];
		need[o->ndb_dirs + i] = need_log[i];
	}
	/* sum per filesystem onto its first volume */
	for (size_t i = 0; i < nv; i++)
		for (size_t j = 0; j < i; j++)
			if (vols[j]->fs_dev == vols[i]->fs_dev) {
				need[j] += need[i];
				need[i] = 0;
				break;
			}
	for (size_t i = 0; i < nv && !ret; i++)
		if (need[i])
			ret = check_free_space(vols[i], need[i], "the databases and logs");
	free(vols);
	free(need);
	return ret;
}

static int js_check(struct run_ctx *rc)
{
	const struct run_opts *o = rc->o;
	uint64_t npages = o->db_size / DB_PAGE_SIZE;
	uint64_t *need_db = xcalloc(o->ndb_dirs, sizeof(uint64_t));
	uint64_t *need_log = xcalloc(o->nlog_dirs, sizeof(uint64_t));
	struct js *js = xcalloc(1, sizeof(*js));
	int ret = 0;

	rc->priv = js;
	if (o->db_size % DB_PAGE_SIZE || npages < 512) {
		ret = input_error("--db-size %llu: must be a multiple of 32 KiB and at least 16M "
				  "(ESE pages are 32 KiB); e.g. --db-size 1G",
				  (unsigned long long)o->db_size);
		goto out;
	}
	if (o->threads < o->databases) {
		ret = input_error("--threads %u is less than --databases %u: every database needs "
				  "at least one session thread; raise --threads", o->threads,
				  o->databases);
		goto out;
	}
	js->ndbs = o->databases;
	js->dbs = xcalloc(js->ndbs, sizeof(*js->dbs));
	for (unsigned int i = 0; i < js->ndbs; i++) {
		struct js_db *db = &js->dbs[i];
		size_t dd = i % o->ndb_dirs, ld = i % o->nlog_dirs;

		db->idx = (int)i;
		db->rc = rc;
		db->fd = db->log_fd = -1;
		db->raw = rc->db_vols[dd].raw;
		snprintf(db->name, sizeof(db->name), "db%u", i + 1);
		if (db->raw) {
			/* databases and log streams side by side on the devices */
			db->path = xstrdup(rc->db_vols[dd].dir);
			db->log_dir = xstrdup(rc->log_vols[ld].dir);
			db->base = (i / o->ndb_dirs) * o->db_size;
			db->log_base = (i / o->nlog_dirs) * RAW_LOG_REGION;
		} else {
			db->path = xasprintf("%s/fslab-%s.edb", rc->db_vols[dd].dir, db->name);
			db->log_dir = xasprintf("%s/fslab-%s-logs", rc->log_vols[ld].dir, db->name);
		}
		db->npages = npages;
		pthread_mutex_init(&db->mu, NULL);
		pthread_mutex_init(&db->lmu, NULL);
		pthread_cond_init(&db->cv_state, NULL);
		pthread_cond_init(&db->cv_dirty, NULL);
		pthread_cond_init(&db->lcv_work, NULL);
		pthread_cond_init(&db->lcv_done, NULL);
		{
			struct db_place pl = { .path = db->path, .base = db->base, .raw = db->raw };

			db->state = db_inspect(&pl, npages, o->compressibility, &db->info);
		}
		if (db->state < 0) {
			ret = input_error("%s: cannot read it (%s); check permissions or remove it",
					  db->path, strerror(-db->state));
			goto out;
		}
		if (db->state == DB_FOREIGN) {
			ret = input_error("%s exists and is not an fslab database; remove or rename "
					  "it, or use another --db directory", db->path);
			goto out;
		}
		if (db->state != DB_VALID || db->raw) /* a raw device must hold every slice */
			need_db[dd] += o->db_size;
		/* current + spare + kept generations, and slack for one roll */
		need_log[ld] += db->raw ? RAW_LOG_REGION : (uint64_t)(JS_LOG_KEEP + 3) * JS_LOG_FILE_SIZE;
		if (!db->raw) {
			struct stat st;

			if (stat(db->log_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
				ret = input_error("%s exists and is not a directory; remove it or use "
						  "another --log directory", db->log_dir);
				goto out;
			}
		}
	}
	ret = check_space_all(rc, need_db, need_log);
	/* btrfs: copy-on-write keeps partially overwritten extents, so the databases grow
	 * towards twice their size while they are rewritten (ENOSPC otherwise, seen here) */
	for (size_t d = 0; d < o->ndb_dirs && !ret; d++) {
		const struct volume *v = &rc->db_vols[d];
		uint64_t dbs = (o->databases + o->ndb_dirs - 1 - d) / o->ndb_dirs * o->db_size;
		char a[32], b[32];

		if (strcmp(v->fsname, "btrfs") || v->fs_avail >= need_db[d] + dbs)
			continue;
		fslab_warn("%s is btrfs with %s free: copy-on-write may need up to another %s while "
			   "the databases are rewritten; expect ENOSPC errors (a bigger volume, or "
			   "mkfs/mount options such as nodatacow, avoid them)", v->dir,
			   fmt_size(a, sizeof(a), v->fs_avail - MIN(v->fs_avail, need_db[d])),
			   fmt_size(b, sizeof(b), dbs));
		result_add_note(rc->res, "btrfs volume %s had less free space than the databases' size "
				"after creating them: copy-on-write may run out of space", v->dir);
	}
out:
	free(need_db);
	free(need_log);
	return ret;
}

/* Remove our log files from an earlier run; create E00.log and the spare. */
static int reset_logs(struct js_db *db)
{
	DIR *d;
	struct dirent *de;
	int64_t n;
	int ret;

	if (db->raw) {
		n = create_log_file(db, NULL, db->rc->direct, 1);
		if (n >= 0)
			n = create_log_file(db, NULL, db->rc->direct, 2);
		if (n < 0)
			return (int)n;
		db->log_gen = 1;
		return open_current_log(db, db->rc->direct);
	}
	ret = mkdir_p(db->log_dir, 0755);
	if (ret)
		return ret;
	d = opendir(db->log_dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (js_log_gen(de->d_name) || !strcmp(de->d_name, JS_LOG_CURRENT) ||
		    !strcmp(de->d_name, JS_LOG_SPARE))
			unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
	n = create_log_file(db, JS_LOG_CURRENT, db->rc->direct, 1);
	if (n >= 0)
		n = create_log_file(db, JS_LOG_SPARE, db->rc->direct, 2);
	if (n < 0)
		return (int)n;
	db->log_gen = 1;
	return open_current_log(db, db->rc->direct);
}

static void cache_setup(struct js_db *db, uint64_t cache_size)
{
	db->nslots = (uint32_t)MAX(64ULL, MIN(cache_size / DB_PAGE_SIZE, db->npages / 2));
	db->nbuckets = db->nslots * 2 + 1;
	db->slots = xcalloc(db->nslots, sizeof(*db->slots));
	db->buckets = xmalloc(db->nbuckets * sizeof(*db->buckets));
	for (uint32_t i = 0; i < db->nbuckets; i++)
		db->buckets[i] = NONE;
	db->dirtyq = xcalloc(db->nslots, sizeof(*db->dirtyq));
}

static int js_prepare(struct run_ctx *rc)
{
	const struct run_opts *o = rc->o;
	struct js *js = js_of(rc);
	int ret = 0;

	for (unsigned int i = 0; i < js->ndbs && !ret; i++) {
		struct js_db *db = &js->dbs[i];
		struct db_place pl = { .path = db->path, .base = db->base, .raw = db->raw };

		ret = workload_init_file(rc, &pl, db->state, db->npages, o->seed + i, &db->info,
					 "database");
		if (ret)
			break;
		db->fd = open(db->path, db_open_flags(rc->direct, true));
		if (db->fd < 0) {
			ret = -errno;
			fslab_err("%s: cannot open: %s", db->path, strerror(errno));
			break;
		}
		ret = reset_logs(db);
		if (ret)
			fslab_err("%s: cannot set up the log stream: %s", db->log_dir, strerror(-ret));
		cache_setup(db, o->cache_size);
	}
	return ret;
}

static int start_thread(pthread_t *t, bool *started, void *(*fn)(void *), void *arg)
{
	int ret = pthread_create(t, NULL, fn, arg);

	if (ret)
		return -ret;
	*started = true;
	return 0;
}

static int js_start(struct run_ctx *rc)
{
	const struct run_opts *o = rc->o;
	struct js *js = js_of(rc);
	int ret = 0;

	js->nsessions = o->threads;
	js->sessions = xcalloc(js->nsessions, sizeof(*js->sessions));
	for (unsigned int i = 0; i < js->ndbs && !ret; i++) {
		struct js_db *db = &js->dbs[i];

		db->wst = engine_stats_new(&rc->eng, (int)i);
		db->lst = engine_stats_new(&rc->eng, (int)i);
		db->bst = engine_stats_new(&rc->eng, (int)i);
		ret = start_thread(&db->writer, &db->writer_started, writer_main, db);
		if (!ret)
			ret = start_thread(&db->logger, &db->logger_started, logger_main, db);
		if (!ret && o->bdm_mbps > 0)
			ret = start_thread(&db->bdm, &db->bdm_started, bdm_main, db);
	}
	for (unsigned int i = 0; i < js->nsessions && !ret; i++) {
		struct js_session *se = &js->sessions[i];

		se->id = (int)i;
		se->db = &js->dbs[i % js->ndbs];
		se->st = engine_stats_new(&rc->eng, se->db->idx);
		ret = start_thread(&se->tid, &se->started, session_main, se);
	}
	if (ret)
		fslab_err("cannot start threads: %s", strerror(-ret));
	return ret;
}

static void js_stop(struct run_ctx *rc)
{
	struct js *js = js_of(rc);

	/* wake every waiter: they see PH_STOP and leave */
	for (unsigned int i = 0; i < js->ndbs; i++) {
		struct js_db *db = &js->dbs[i];

		pthread_mutex_lock(&db->mu);
		pthread_cond_broadcast(&db->cv_state);
		pthread_cond_broadcast(&db->cv_dirty);
		pthread_mutex_unlock(&db->mu);
		pthread_mutex_lock(&db->lmu);
		pthread_cond_broadcast(&db->lcv_work);
		pthread_cond_broadcast(&db->lcv_done);
		pthread_mutex_unlock(&db->lmu);
	}
	for (unsigned int i = 0; i < js->nsessions; i++)
		if (js->sessions[i].started)
			pthread_join(js->sessions[i].tid, NULL);
	for (unsigned int i = 0; i < js->ndbs; i++) {
		struct js_db *db = &js->dbs[i];

		if (db->writer_started)
			pthread_join(db->writer, NULL);
		if (db->logger_started)
			pthread_join(db->logger, NULL);
		if (db->bdm_started)
			pthread_join(db->bdm, NULL);
	}
}

/* Read every page of every database sequentially and verify it (Jetstress's checksum step). */
static void checksum_pass(struct run_ctx *rc)
{
	struct js *js = js_of(rc);
	struct checksum_result *cs = &rc->res->checksum;
	const unsigned int depth = 4, chunk_pages = 32;
	const size_t chunk = (size_t)chunk_pages * DB_PAGE_SIZE;
	void *bufs = xmalloc_aligned(chunk * depth);
	uint64_t t0 = now_ns();
	struct io_ctx ctx;

	if (io_ctx_init(&ctx, rc->o->engine, depth)) {
		free(bufs);
		return;
	}
	fslab_info("checksum pass: reading every page of %u database(s)", js->ndbs);
	cs->ran = true;
	for (unsigned int d = 0; d < js->ndbs && cs->ran; d++) {
		struct js_db *db = &js->dbs[d];
		struct io_u ios[4], *fr[4], *done[4];
		unsigned int nfree = depth;
		uint64_t next = 1;

		for (unsigned int i = 0; i < depth; i++) {
			ios[i] = (struct io_u){ .fd = db->fd, .op = IO_READ,
						.buf = (char *)bufs + i * chunk };
			fr[i] = &ios[i];
		}
		while (next < db->npages || nfree < depth) {
			int k;

			if (*rc->stop) {
				cs->ran = false;
			}
			while (cs->ran && nfree && next < db->npages) {
				struct io_u *io = fr[--nfree];
				uint64_t n = MIN((uint64_t)chunk_pages, db->npages - next);

				io->off = db->base + next * DB_PAGE_SIZE;
				io->len = (uint32_t)(n * DB_PAGE_SIZE);
				next += n;
				if (io_submit(&ctx, &io, 1)) {
					fr[nfree++] = io;
					cs->ran = false;
				}
			}
			if (nfree == depth)
				break;
			k = io_reap(&ctx, done, 1, depth);
			if (k < 0)
				break;
			for (int i = 0; i < k; i++) {
				struct io_u *io = done[i];
				uint64_t first = (io->off - db->base) / DB_PAGE_SIZE;
				uint64_t n = io->len / DB_PAGE_SIZE;

				if (io->res != (int)io->len) {
					cs->bad_pages += n;
					if (!cs->first_bad)
						cs->first_bad = xasprintf("%s pages %llu-%llu: read error",
							db->name, (unsigned long long)first,
							(unsigned long long)(first + n - 1));
				} else {
					for (uint64_t p = 0; p < n; p++) {
						const char *why = db_verify_page((char *)io->buf +
							p * DB_PAGE_SIZE, db->info.dbid, first + p);

						if (!why)
							continue;
						cs->bad_pages++;
						if (!cs->first_bad)
							cs->first_bad = xasprintf("%s page %llu: %s", db->name,
								(unsigned long long)(first + p), why);
					}
				}
				cs->pages += n;
				cs->bytes += io->len;
				fr[nfree++] = io;
			}
		}
	}
	cs->seconds = (now_ns() - t0) / 1e9;
	cs->mbps = cs->seconds > 0 ? cs->bytes / cs->seconds / 1e6 : 0;
	io_ctx_release(&ctx);
	free(bufs);
}

/* How the verdict judges: what run.c recorded in the result's config. */
static void verdict_opts(const struct fslab_result *r, struct js_verdict_opts *vo)
{
	const struct run_config *cf = &r->config;

	vo->th = js_thresholds_find(cf->thresholds);
	if (!vo->th)
		vo->th = js_thresholds_find("strict");
	vo->max_latency_errors = cf->thresholds ? cf->max_latency_errors : JS_MAX_LATENCY_ERRORS;
	vo->interval_s = cf->sample_interval_s > 0 ? cf->sample_interval_s : JS_SAMPLE_INTERVAL_S;
	vo->partial = r->latency_samples.partial;
	vo->strict_io_tail = cf->strict_io_tail;
}

static int js_finish(struct run_ctx *rc)
{
	struct js *js = js_of(rc);
	struct fslab_result *r = rc->res;
	const struct run_config *cf = &r->config;
	double secs = r->duration_s;
	uint64_t io_err = 0, ck_err = 0, stalls = 0;
	struct js_verdict_opts vo;
	struct js_scope_data sd;
	bool pass = true;

	verdict_opts(r, &vo);
	r->ninstances = js->ndbs;
	r->instances = xcalloc(js->ndbs, sizeof(*r->instances));
	for (unsigned int i = 0; i < js->ndbs; i++) {
		struct js_db *db = &js->dbs[i];
		struct instance_result *in = &r->instances[i];
		struct collect_extra x;
		uint64_t ierr = 0;

		in->name = xstrdup(db->name);
		in->db_file = xstrdup(db->path);
		in->log_dir = xstrdup(db->log_dir);
		engine_collect(&rc->eng, (int)i, secs, in->classes, &x);
		for (int c = 0; c < CLS_NR; c++)
			ierr += in->classes[c].errors;
		in->log_rolls = db->rolls;
		in->log_nonsequential = db->nonseq;
		in->db_page_fault_stalls = x.page_fault_stalls;
		sd = (struct js_scope_data){
			.cls = in->classes,
			.samples = latency_samples_find(&r->latency_samples, db->name),
			.io_errors = ierr,
			.checksum_errors = x.checksum_errors,
			.page_fault_stalls = x.page_fault_stalls,
			.seconds = secs,
		};
		in->pass = js_verdict_scope(&r->verdict, db->name, &vo, &sd);
		pass = pass && in->pass;
		io_err += ierr;
		ck_err += x.checksum_errors;
		stalls += x.page_fault_stalls;
		if (db->rolls && !db->raw)
			result_add_note(r, "%s: %llu log rolls; close, renames and open took %.2f ms on "
					"average, %.2f ms at most (counted in the log write that needed "
					"the new file)",
					db->name, (unsigned long long)db->rolls,
					db->roll_ns_sum / 1e6 / db->rolls, db->roll_ns_max / 1e6);
		if (db->first_bad)
			result_add_note(r, "checksum error during the load: %s", db->first_bad);
		if (db->first_err)
			result_add_note(r, "first I/O error: %s", db->first_err);
	}
	r->db_page_fault_stalls = stalls;
	if (rc->o->checksum_pass && !*rc->stop)
		checksum_pass(rc);
	ck_err += r->checksum.bad_pages;
	sd = (struct js_scope_data){
		.cls = r->classes,
		.samples = latency_samples_find(&r->latency_samples, "overall"),
		.io_errors = io_err,
		.checksum_errors = ck_err,
		.page_fault_stalls = stalls,
		.seconds = secs,
	};
	pass = js_verdict_scope(&r->verdict, "overall", &vo, &sd) && pass;
	if (cf->target_iops > 0) {
		char *origin = cf->mailboxes
			? xasprintf("%u mailboxes x %g IOPS per mailbox", cf->mailboxes,
				    cf->iops_per_mailbox)
			: xstrdup("--target-iops");

		pass = js_verdict_target(&r->verdict, r->transactional_iops, cf->target_iops,
					 origin) && pass;
		free(origin);
	}
	r->verdict.pass = pass;
	r->verdict.present = true;
	return 0;
}

const struct workload_ops wl_jetstress = {
	.name = "jetstress",
	.help = "Exchange ESE-like database load (default)",
	.needs_log = true,
	.check = js_check,
	.prepare = js_prepare,
	.start = js_start,
	.stop = js_stop,
	.finish = js_finish,
	.cleanup = js_cleanup,
};
