// SPDX-License-Identifier: MIT
/*
 * jetstress_log.c: the Jetstress log stream.  The log writer groups commits into sequential
 * write-through appends of 4-64 KiB, rewriting the last partial sector, into 1 MiB log files
 * with a pre-created spare and a rename at every roll (ESE's E00.log / E00tmp.log /
 * E00<gen>.log, circular logging); raw devices use a region of segments instead of files.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "os/files.h"
#include "jetstressP.h"
#include "os/os.h"
#include "lib/random.h"

/* Raw: byte offset of the segment holding generation gen. */
static uint64_t raw_seg(const struct js_db *db, uint64_t gen)
{
	return db->log_base + (gen - 1) % RAW_LOG_SEGS * JS_LOG_FILE_SIZE;
}

/*
 * Create a filled 1 MiB log file (header sector + zeroed data), fsynced, in the log folder,
 * exclusively (a name planted there makes it fail, never write through it); raw: fill the
 * segment of generation gen instead.  Returns bytes written or -errno.
 */
static int64_t create_log_file(struct js_db *db, const char *name, bool direct, uint64_t gen)
{
	struct os_file *f;
	void *buf;
	ssize_t n;
	int ret;

	if (db->raw)
		ret = os_open(db->log_dir, db_open_flags(direct, false), &f);
	else
		ret = os_dirh_open_file(db->logd, name, db_open_flags(direct, false) | OS_CREATE, &f);
	if (ret)
		return ret;
	buf = xmalloc_aligned(JS_LOG_FILE_SIZE);
	memset(buf, 0, JS_LOG_FILE_SIZE);
	snprintf(buf, JS_LOG_HDR, JS_LOG_MAGIC "%s\n", db->name);
	n = os_pwrite(f, buf, JS_LOG_FILE_SIZE, db->raw ? raw_seg(db, gen) : 0);
	ret = n == JS_LOG_FILE_SIZE ? 0 : n < 0 ? (int)n : -EIO;
	if (!ret)
		ret = os_file_sync(f);
	os_close(f);
	free_aligned(buf);
	if (ret && !db->raw) /* ours, created a moment ago: not left half made */
		(void)os_dirh_unlink(db->logd, name);
	return ret ? ret : JS_LOG_FILE_SIZE;
}

static int open_current_log(struct js_db *db, bool direct)
{
	if (db->raw)
		return os_open(db->log_dir, db_open_flags(direct, true), &db->log_file);
	return os_dirh_open_file(db->logd, JS_LOG_CURRENT, db_open_flags(direct, true),
				 &db->log_file);
}

/*
 * Roll: E00.log becomes E00<gen>.log, the spare becomes E00.log, and generations beyond
 * JS_LOG_KEEP are deleted (circular logging).  The next spare is created by make_spare()
 * once the write waiting for this roll is done, as ESE creates it in the background.
 * Returns 0 or -errno.
 */
static int roll_log(struct js_db *db)
{
	char name[32];
	int ret;

	if (db->raw) { /* no files: the next segment of the region */
		db->log_gen++;
		db->rolls++;
		return 0;
	}
	os_close(db->log_file);
	db->log_file = NULL;
	ret = os_dirh_rename(db->logd, JS_LOG_CURRENT, js_log_name(name, sizeof(name), db->log_gen));
	if (!ret)
		ret = os_dirh_rename(db->logd, JS_LOG_SPARE, JS_LOG_CURRENT);
	if (ret)
		return ret;
	db->log_gen++;
	ret = open_current_log(db, db->rc->direct);
	if (ret)
		return ret;
	if (db->log_gen > db->log_keep + 1) {
		uint64_t g = db->log_gen - db->log_keep - 1;

		if (os_dirh_unlink(db->logd, js_log_name(name, sizeof(name), g)) == 0)
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

/* n bytes of the log ring from LSN lsn into out. */
static void ring_get(const struct js_db *db, uint64_t lsn, void *out, uint64_t n)
{
	uint64_t pos = lsn % db->lring_size, first = MIN(n, db->lring_size - pos);

	memcpy(out, db->lring + pos, first);
	memcpy((char *)out + first, db->lring, n - first);
}

/* n bytes from src into the log ring at LSN lsn. */
static void ring_put(struct js_db *db, uint64_t lsn, const void *src, uint64_t n)
{
	uint64_t pos = lsn % db->lring_size, first = MIN(n, db->lring_size - pos);

	memcpy(db->lring + pos, src, first);
	memcpy(db->lring, (const char *)src + first, n - first);
}

/*
 * The ring holds LOG_BUFFER bytes from the start of the sector the log writer writes next,
 * plus, for each session, room for a record and a fill: a session waits for room before it
 * changes a page (js_log_room()) and appends under db->mu, so at most one record and one fill
 * per session arrive after it saw room.
 */
void js_log_setup(struct js_db *db, unsigned int sessions, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, mix64(seed) ^ mix64(0x106ULL + db->idx));
	db->lring_size = LOG_BUFFER + JS_LOG_SECTOR + (uint64_t)(sessions + 1) * 2 * JS_LREC_MAX;
	db->lring = xcalloc(1, db->lring_size);
	db->lpayload = xmalloc(LOG_PAYLOAD);
	db_fill_payload(db->lpayload, LOG_PAYLOAD, &r, db->rc->o->compressibility);
	db->log_keep = js_of(db->rc)->log_files;
}

/* The log writer's next write starts at the sector of flushed (the partial sector again). */
static uint64_t ring_floor(const struct js_db *db)
{
	return db->flushed / JS_LOG_SECTOR * JS_LOG_SECTOR;
}

bool js_log_room(struct js_db *db)
{
	pthread_mutex_lock(&db->lmu);
	while (db->appended + 2 * JS_LREC_MAX - ring_floor(db) > LOG_BUFFER && js_running(db))
		pthread_cond_wait(&db->lcv_done, &db->lmu);
	pthread_mutex_unlock(&db->lmu);
	return js_running(db);
}

/* With db->lmu held: the rest of the current log file (appended .. file_end) as a fill record,
 * or as zeros when shorter than a record's header. */
static void log_fill(struct js_db *db, uint64_t file_end)
{
	unsigned char rec[JS_LREC_MAX];
	uint64_t n = file_end - db->appended;

	memset(rec, 0, n);
	if (n >= JS_LREC_HDR)
		js_lrec_seal(rec, &(struct js_lrec){ .type = JS_LR_FILL, .len = (uint32_t)n,
						     .lsn = db->appended }, db->info.dbid);
	ring_put(db, db->appended, rec, n);
	db->appended = file_end;
}

uint64_t js_log_append(struct js_db *db, struct js_lrec *r, size_t off)
{
	unsigned char rec[JS_LREC_MAX];
	uint64_t file_end, end;

	memcpy(rec + JS_LREC_HDR, (const char *)db->lpayload + off, r->len - JS_LREC_HDR);
	pthread_mutex_lock(&db->lmu);
	/* a record never crosses into the next log file (ESE's neither) */
	file_end = (db->appended / JS_LOG_DATA + 1) * JS_LOG_DATA;
	if (db->appended + r->len > file_end)
		log_fill(db, file_end);
	r->lsn = db->appended;
	js_lrec_seal(rec, r, db->info.dbid);
	ring_put(db, r->lsn, rec, r->len);
	db->appended += r->len;
	end = db->appended;
	if (db->appended - db->flushed >= LOG_LAZY_FLUSH_BYTES)
		pthread_cond_signal(&db->lcv_work);
	pthread_mutex_unlock(&db->lmu);
	return end;
}

bool js_log_commit(struct js_db *db, uint64_t end, bool lazy)
{
	if (lazy)
		return js_running(db);
	pthread_mutex_lock(&db->lmu);
	/* a commit whose record went out with an earlier write waits for nothing (ESE's
	 * cLGWriteSkipped); else the log writer writes up to it at least */
	if (db->need < end) {
		db->need = end;
		pthread_cond_signal(&db->lcv_work);
	}
	while (db->flushed < end && js_running(db))
		pthread_cond_wait(&db->lcv_done, &db->lmu);
	if (engine_phase(&db->rc->eng) == PH_MEASURE)
		db->durable_commits++;
	pthread_mutex_unlock(&db->lmu);
	return js_running(db);
}

void js_log_need(struct js_db *db, uint64_t lsn, bool urgent)
{
	__atomic_store_n(&db->wal_wait, 1, __ATOMIC_RELEASE);
	if (!urgent)
		return;
	pthread_mutex_lock(&db->lmu);
	if (db->log_req < lsn) {
		db->log_req = lsn;
		pthread_cond_signal(&db->lcv_work);
	}
	pthread_mutex_unlock(&db->lmu);
}

/* One log write: the LSNs [file_base + start, file_base + end) of the current file, written
 * as len bytes (whole sectors); t_roll when the roll this write needed began, else 0. */
struct log_write {
	uint64_t file_base, start, end, len, t_roll;
};

/* With db->lmu held: wait until records are due (a committer waits for a record not yet
 * written, the lazy writer needs a page's records on disk, or the lazy flush's size or time
 * is reached).  false when the run stops.  A committer woken by the write that carried its
 * record asks for nothing more (ESE's FWakeWaitingQueue() wakes exactly those, and a write
 * starts only for a waiter whose record is still unwritten). */
static bool records_due(struct js_db *db)
{
	while (js_running(db) && !(db->appended > db->flushed &&
				   (db->need > db->flushed || db->log_req > db->flushed ||
				    db->appended - db->flushed >= LOG_LAZY_FLUSH_BYTES ||
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
	return js_running(db);
}

/* With db->lmu held: the next write's range in w, after rolling to a new file when the current
 * one is full (the roll runs without the lock: committers keep appending).  0 or -errno. */
static int next_write(struct js_db *db, struct log_write *w)
{
	*w = (struct log_write){ .file_base = (db->log_gen - 1) * JS_LOG_DATA };
	/* the current file holds LSNs [file_base, file_base + JS_LOG_DATA) */
	if (db->flushed == w->file_base + JS_LOG_DATA) {
		int ret;

		pthread_mutex_unlock(&db->lmu);
		w->t_roll = now_ns();
		ret = roll_log(db);
		if (ret) /* js_fail() takes the locks itself */
			js_fail(db, db->lst, CLS_LOG_WRITE, "%s log writer: the log roll in %s failed: %s",
				db->name, db->log_dir, strerror(-ret));
		pthread_mutex_lock(&db->lmu);
		if (ret)
			return ret;
		w->file_base += JS_LOG_DATA;
		db->prev_off = db->prev_end = 0;
	}
	/* rewrite the last partial sector, write up to 64 KiB, never past the file */
	w->start = (db->flushed - w->file_base) / JS_LOG_SECTOR * JS_LOG_SECTOR;
	w->end = MIN(db->appended - w->file_base, (uint64_t)JS_LOG_DATA);
	w->end = MIN(w->end, w->start + JS_LOG_MAX_WRITE);
	w->len = (w->end - w->start + JS_LOG_SECTOR - 1) / JS_LOG_SECTOR * JS_LOG_SECTOR;
	return 0;
}

/*
 * Without db->lmu: write w and account it (a roll is part of the write that needed it: kept in
 * the measured path), with the roll time and the sequentiality check (the log writer's own
 * counters, read after it is joined).
 */
static void write_records(struct js_db *db, struct io_ctx *ctx, void *buf,
			  const struct log_write *w)
{
	uint64_t seg = db->raw ? raw_seg(db, db->log_gen) : 0, rel;
	struct io_u io = { .file = db->log_file, .op = IO_WRITE, .cls = CLS_LOG_WRITE,
			   .buf = buf, .len = (uint32_t)w->len, .off = seg + JS_LOG_HDR + w->start };
	int res;

	/* the records from the ring, the rest of the last sector zeros (it is written again
	 * with the records that follow) */
	ring_get(db, w->file_base + w->start, buf, w->end - w->start);
	memset((char *)buf + (w->end - w->start), 0, w->len - (w->end - w->start));
	res = io_sync(ctx, &io);
	engine_account(&db->rc->eng, db->lst, CLS_LOG_WRITE, w->len,
		       w->t_roll ? w->t_roll : io.start_ns, io.end_ns, res != (int)w->len);
	if (w->t_roll) {
		uint64_t d = io.start_ns - w->t_roll;

		db->roll_ns_sum += d;
		if (d > db->roll_ns_max)
			db->roll_ns_max = d;
	}
	/* sequential within the file: it starts at or after the previous write's start and no
	 * later than its end (the last partial sector is written again) */
	rel = io.off - seg;
	if (db->prev_end && !(rel >= db->prev_off && rel <= db->prev_end))
		db->nonseq++;
	else if (!db->prev_end && rel != JS_LOG_HDR)
		db->nonseq++;
	db->prev_off = rel;
	db->prev_end = rel + w->len;
	if (res != (int)w->len)
		js_note_io_error(db, &io);
}

/* With db->lmu held: the spare for the next roll, made without the lock after the write that
 * needed this roll (ESE prepares it in the background).  0 or -errno. */
static int spare_after_roll(struct js_db *db)
{
	int ret;

	pthread_mutex_unlock(&db->lmu);
	ret = make_spare(db);
	if (ret && db->raw)
		js_fail(db, db->lst, CLS_LOG_WRITE, "%s log writer: cannot fill the next log segment "
			"on %s: %s", db->name, db->log_dir, strerror(-ret));
	else if (ret)
		js_fail(db, db->lst, CLS_LOG_WRITE, "%s log writer: cannot create the spare log file "
			"%s/%s: %s", db->name, db->log_dir, JS_LOG_SPARE, strerror(-ret));
	pthread_mutex_lock(&db->lmu);
	return ret;
}

void *js_logger_main(void *arg)
{
	struct js_db *db = arg;
	void *buf = xmalloc_aligned(JS_LOG_MAX_WRITE);
	struct log_write w;
	struct io_ctx ctx;
	int ret;

	ret = io_ctx_init(&ctx, db->rc->o->engine, 1);
	if (ret) {
		js_fail(db, NULL, 0, "%s log writer: cannot set up the %s I/O engine: %s", db->name,
			db->rc->o->engine, strerror(-ret));
		free_aligned(buf);
		return NULL;
	}
	pthread_mutex_lock(&db->lmu);
	db->last_flush_ns = now_ns();
	while (records_due(db) && !next_write(db, &w)) {
		pthread_mutex_unlock(&db->lmu);
		write_records(db, &ctx, buf, &w);
		pthread_mutex_lock(&db->lmu);
		db->flushed = w.file_base + w.end;
		__atomic_store_n(&db->durable, db->flushed, __ATOMIC_RELEASE);
		db->last_flush_ns = now_ns();
		pthread_cond_broadcast(&db->lcv_done);
		/* the lazy writer waits for the log (write-ahead logging): it may go on */
		if (__atomic_load_n(&db->wal_wait, __ATOMIC_ACQUIRE))
			pthread_cond_signal(&db->cv_dirty);
		if (w.t_roll && spare_after_roll(db))
			break;
	}
	pthread_cond_broadcast(&db->lcv_done);
	pthread_mutex_unlock(&db->lmu);
	io_ctx_release(&ctx);
	free_aligned(buf);
	return NULL;
}

/* ---- the log folder: fslab's when what fslab wrote there says so (jetstress.h) ---- */

/* The marker's text for the folder sub. */
static char *marker_text(struct os_dirh *sub)
{
	struct os_id id;

	if (os_dirh_id(sub, &id))
		return NULL;
	return xasprintf("fslab log folder/1\nfolder %llu\n", (unsigned long long)id.ino);
}

/* Does name in sub (a regular file, never followed) hold text (with prefix: begin with it)? */
static bool file_says(struct os_dirh *sub, const char *name, const char *text, bool prefix)
{
	size_t len = strlen(text);
	char *buf = xmalloc_aligned(4096);
	struct os_file *f;
	uint64_t size = 0;
	bool ok = false;

	if (len < 4096 && !os_dirh_open_file(sub, name, OS_RDONLY, &f)) {
		ok = !os_file_size(f, &size) && (prefix || size == len) &&
		     os_pread(f, buf, len, 0) == (ssize_t)len && !memcmp(buf, text, len);
		os_close(f);
	}
	free_aligned(buf);
	return ok;
}

static bool is_log_name(const char *name)
{
	return js_log_gen(name) || !strcmp(name, JS_LOG_CURRENT) || !strcmp(name, JS_LOG_SPARE);
}

char *js_ckpt_head(struct os_dirh *sub)
{
	struct os_id id;

	if (os_dirh_id(sub, &id))
		return NULL;
	return xasprintf(JS_CKPT_SIGNATURE "\nfolder %llu\n", (unsigned long long)id.ino);
}

/*
 * A file of fslab's in its log folder sub: a log file (a log name and fslab's header) or a
 * checkpoint file (its name, and fslab's text naming this folder); in a folder fslab marked
 * also an empty log file or temporary checkpoint file (a creation killed before its first
 * write: nothing to lose).  Never a link: file_says() opens regular files only.
 */
static bool file_ours(struct os_dirh *sub, const char *name, bool marked)
{
	bool ckpt = !strcmp(name, JS_LOG_CHECKPOINT), tmp = !strcmp(name, JS_LOG_CHECKPOINT_TMP);
	struct os_entry e;
	char *head;
	bool ok;

	if (!is_log_name(name) && !ckpt && !tmp)
		return false;
	if (marked && !ckpt && !os_dirh_stat(sub, name, &e) && e.kind == OS_KIND_FILE && !e.size)
		return true;
	if (!ckpt && !tmp)
		return file_says(sub, name, JS_LOG_MAGIC, true);
	head = js_ckpt_head(sub);
	ok = head && file_says(sub, name, head, true);
	free(head);
	return ok;
}

bool js_logdir_is_ours(struct os_dirh *sub)
{
	char *marker = marker_text(sub);
	unsigned int logs = 0;
	bool marked = false, ok = false;
	struct os_entry e;
	struct os_dir *d;
	const char *name;

	if (marker)
		marked = file_says(sub, JS_LOG_MARKER, marker, false);
	if (marker && !os_dirh_list(sub, &d)) {
		ok = true;
		while (ok && (name = os_readdir(d))) {
			if (strcmp(name, JS_LOG_MARKER)) {
				ok = file_ours(sub, name, marked);
				logs++;
			} else {
				ok = marked;
			}
		}
		os_closedir(d);
	}
	free(marker);
	/* unmarked: an older version's folder of logs, or an empty folder of this user's */
	if (ok && !marked && !logs)
		ok = !os_dirh_stat(sub, ".", &e) && e.mine;
	return ok;
}

int js_logdir_state(struct os_dirh *d, const char *name)
{
	struct os_dirh *sub;
	int ret = os_dirh_sub(d, name, false, NULL, &sub);

	if (ret == -ENOENT)
		return JS_LOGDIR_MISSING;
	if (ret == -ELOOP || ret == -ENOTDIR)
		return JS_LOGDIR_FOREIGN;
	if (ret)
		return ret;
	ret = js_logdir_is_ours(sub) ? JS_LOGDIR_OURS : JS_LOGDIR_FOREIGN;
	os_dirh_close(sub);
	return ret;
}

int js_logdir_clear(struct os_dirh *sub, bool all)
{
	char *marker = marker_text(sub);
	bool marked = marker && file_says(sub, JS_LOG_MARKER, marker, false);
	struct os_dir *d;
	const char *name;
	int ret = os_dirh_list(sub, &d);

	free(marker);
	if (ret)
		return ret;
	while (!ret && (name = os_readdir(d)))
		if (file_ours(sub, name, marked) || (all && !strcmp(name, JS_LOG_MARKER)))
			ret = os_dirh_unlink(sub, name);
	os_closedir(d);
	return ret;
}

/* The log folder opened (created with its marker when missing), emptied of fslab's logs. */
static int open_log_folder(struct js_db *db)
{
	bool created = false;
	struct os_entry e;
	struct os_file *f;
	char *marker;
	int ret = os_dirh_sub(db->log_parent, db->log_name, true, &created, &db->logd);
	ssize_t n;

	if (ret)
		return ret;
	if (!created) {
		/* checked by js_check(); refused again if it was exchanged since */
		if (!js_logdir_is_ours(db->logd))
			return -EEXIST;
		ret = js_logdir_clear(db->logd, false);
		if (ret)
			return ret;
		if (!os_dirh_stat(db->logd, JS_LOG_MARKER, &e))
			return 0; /* marked already (js_logdir_is_ours() read what it says) */
	}
	marker = marker_text(db->logd);
	ret = marker ? os_dirh_open_file(db->logd, JS_LOG_MARKER, OS_RDWR | OS_CREATE, &f)
		     : -EIO;
	if (!ret) {
		n = os_pwrite(f, marker, strlen(marker), 0);
		ret = n == (ssize_t)strlen(marker) ? os_file_sync(f) : n < 0 ? (int)n : -EIO;
		os_close(f);
	}
	free(marker);
	return ret;
}

/* Remove our log files from an earlier run; create E00.log and the spare. */
int js_reset_logs(struct js_db *db)
{
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
	ret = open_log_folder(db);
	if (ret)
		return ret;
	n = create_log_file(db, JS_LOG_CURRENT, db->rc->direct, 1);
	if (n >= 0)
		n = create_log_file(db, JS_LOG_SPARE, db->rc->direct, 2);
	if (n < 0)
		return (int)n;
	db->log_gen = 1;
	return open_current_log(db, db->rc->direct);
}
