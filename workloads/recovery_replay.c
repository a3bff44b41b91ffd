// SPDX-License-Identifier: MIT
/*
 * recovery_replay.c: the recovery workload's replay of one database's logs, timed per log
 * file; then the result (per log, its spread), fslab's pass rule and the summary.
 *
 * One log file: read whole, its records verified and taken in order (js_log_scan()); the pages
 * they name read with RV_PREREAD reads in flight (ESE's preread) and verified; each record
 * judged by ESE's redo rule against its page's time (js_redo_check()): applied, already there,
 * or a contradiction (a lost write); the changed pages written back (as many in flight as the
 * lazy writer's depth) before the next log file starts, so that a log file's time is its own.
 * At most a cache's worth of pages is held at once: a log file naming more is done in parts.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "recoveryP.h"
#include "verdict.h"

/* One update record of a log file. */
struct rv_rec {
	uint64_t lsn, pgno, before, after;
};

/* The records of the log file being replayed. */
struct rv_recs {
	struct rv_rec *v;
	size_t n, cap;
};

/* A page held by the replay: its number, its time now, read bad, changed. */
struct rv_page {
	uint64_t pgno, time;
	bool bad, dirty;
};

/* The pages of one part of a log file (at most cap), found by number through an open-addressed
 * table of indexes + 1. */
struct rv_part {
	struct rv_page *pg;
	size_t n, cap, nhash;
	uint32_t *hash;
	void *bufs;               /* cap pages */
	struct io_u *ios, **sub, **done;
};

static int collect(const struct js_lrec *r, void *arg)
{
	struct rv_recs *rs = arg;

	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? rs->cap * 2 : 1024;
		rs->v = xrealloc(rs->v, rs->cap * sizeof(*rs->v));
	}
	rs->v[rs->n++] = (struct rv_rec){ .lsn = r->lsn, .pgno = r->pgno, .before = r->before,
					  .after = r->after };
	return 0;
}

static void part_init(struct rv_part *p, size_t cap)
{
	*p = (struct rv_part){ .cap = cap, .nhash = cap * 2 + 1 };
	p->pg = xcalloc(cap, sizeof(*p->pg));
	p->hash = xcalloc(p->nhash, sizeof(*p->hash));
	p->bufs = xmalloc_aligned(cap * DB_PAGE_SIZE);
	p->ios = xcalloc(cap, sizeof(*p->ios));
	p->sub = xcalloc(cap, sizeof(*p->sub));
	p->done = xcalloc(cap, sizeof(*p->done));
}

static void part_free(struct rv_part *p)
{
	free(p->pg);
	free(p->hash);
	free_aligned(p->bufs);
	free(p->ios);
	free(p->sub);
	free(p->done);
}

static void part_reset(struct rv_part *p)
{
	p->n = 0;
	memset(p->hash, 0, p->nhash * sizeof(*p->hash));
}

/* The slot of pgno in the table: where it is, or the empty one it would go to. */
static uint32_t *part_slot(struct rv_part *p, uint64_t pgno)
{
	size_t h = mix64(pgno) % p->nhash;

	while (p->hash[h] && p->pg[p->hash[h] - 1].pgno != pgno)
		h = (h + 1) % p->nhash;
	return &p->hash[h];
}

/* The page pgno of the part, added when new; NULL when it is new and the part is full. */
static struct rv_page *part_page(struct rv_part *p, uint64_t pgno)
{
	uint32_t *slot = part_slot(p, pgno);

	if (!*slot) {
		if (p->n == p->cap)
			return NULL;
		p->pg[p->n] = (struct rv_page){ .pgno = pgno };
		*slot = (uint32_t)++p->n;
	}
	return &p->pg[*slot - 1];
}

static void *page_buf(const struct rv_part *p, const struct rv_page *pg)
{
	return (char *)p->bufs + (size_t)(pg - p->pg) * DB_PAGE_SIZE;
}

/* The first problem of the replay, said once and kept. */
static void problem(struct rv_db *r, const char *fmt, ...) __printf(2, 3);
static void problem(struct rv_db *r, const char *fmt, ...)
{
	va_list ap;

	if (r->problem)
		return;
	va_start(ap, fmt);
	if (vasprintf(&r->problem, fmt, ap) < 0)
		r->problem = NULL;
	va_end(ap);
	if (r->problem)
		fslab_err("recovery: %s", r->problem);
}

/* A completed page I/O of the part: accounted; a read verified and its time taken. */
static void page_done(struct rv_db *r, struct rv_part *p, struct io_u *io)
{
	struct rv_page *pg = &p->pg[io - p->ios];
	bool err = io->res != (int)io->len;
	const char *why;

	engine_account(&r->rc->eng, r->st, io->cls, io->len, io->start_ns, io->end_ns, err);
	if (err)
		js_note_io_error(r->db, io);
	if (io->op != IO_READ)
		return;
	why = err ? "read error" : db_verify_page(io->buf, r->db->info.dbid, pg->pgno);
	if (why) {
		pg->bad = true;
		r->bad_pages++;
		if (!err)
			js_note_bad_page(r->db, r->st, pg->pgno, why);
		problem(r, "%s page %llu: %s when the replay read it", r->db->name,
			(unsigned long long)pg->pgno, why);
		return;
	}
	pg->time = ((const struct page_hdr *)io->buf)->gen;
}

/* n I/Os of the part (p->sub[0..n)), at most depth in flight, each through page_done(). */
static int part_io(struct rv_db *r, struct rv_part *p, struct io_ctx *ctx, size_t n,
		   unsigned int depth)
{
	size_t next = 0, inflight = 0;
	int ret = 0;

	while (next < n || inflight) {
		unsigned int k = (unsigned int)MIN(n - next, depth - inflight);
		int got = io_submit_reap(ctx, p->sub + next, k, p->done, 1, depth);

		if (got < 0) {
			ret = got;
			break;
		}
		next += k;
		inflight = inflight + k - (size_t)got;
		for (int i = 0; i < got; i++)
			page_done(r, p, p->done[i]);
	}
	if (ret)
		(void)io_drain(ctx, p->done, depth);
	return ret;
}

/* Read the part's pages, or write its changed ones (stamped with their new time). */
static int part_pages(struct rv_db *r, struct rv_part *p, struct io_ctx *ctx, bool write,
		      struct recovery_log *out)
{
	struct js_db *db = r->db;
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++) {
		struct rv_page *pg = &p->pg[i];

		if (write && (!pg->dirty || pg->bad))
			continue;
		if (write)
			db_stamp_page(page_buf(p, pg), db->info.dbid, pg->pgno, pg->time);
		p->ios[i] = (struct io_u){ .file = db->file, .op = write ? IO_WRITE : IO_READ,
					   .cls = write ? CLS_DB_WRITE : CLS_DB_READ,
					   .buf = page_buf(p, pg), .len = DB_PAGE_SIZE,
					   .off = db->base + pg->pgno * DB_PAGE_SIZE };
		p->sub[n++] = &p->ios[i];
	}
	if (write)
		out->pages_written += n;
	else
		out->pages_read += n;
	return part_io(r, p, ctx, n, write ? db->wdepth : RV_PREREAD);
}

/* ESE's redo rule for one record on its page (held by the part). */
static void redo(struct rv_db *r, struct rv_page *pg, const struct rv_rec *rec, uint64_t gen,
		 struct recovery_log *out)
{
	enum js_redo what;

	if (pg->bad)
		return; /* counted when it was read */
	what = js_redo_check(pg->time, rec->before, rec->after);
	if (what == JS_REDO_SKIP)
		return;
	if (what == JS_REDO_APPLY) {
		pg->time = rec->after;
		pg->dirty = true;
		out->applied++;
		if (!(r->redone[pg->pgno / 8] & (1u << (pg->pgno % 8)))) {
			r->redone[pg->pgno / 8] |= (uint8_t)(1u << (pg->pgno % 8));
			r->pages_redone++;
		}
		return;
	}
	r->mismatches++;
	problem(r, "%s page %llu: the record at LSN %llu of log generation %llu changes it from "
		"time %llu to %llu, but the page is at time %llu: %s", r->db->name,
		(unsigned long long)rec->pgno, (unsigned long long)rec->lsn,
		(unsigned long long)gen, (unsigned long long)rec->before,
		(unsigned long long)rec->after, (unsigned long long)pg->time,
		what == JS_REDO_TOO_OLD ? "a write of this page was lost"
					: "the page is from another history");
}

/* The records of one log file into the database, a part of at most p->cap pages at a time. */
static int apply(struct rv_db *r, struct rv_part *p, struct io_ctx *ctx, const struct rv_recs *rs,
		 uint64_t gen, struct recovery_log *out)
{
	size_t a = 0;
	int ret = 0;

	while (a < rs->n && !ret) {
		size_t b = a;

		part_reset(p);
		while (b < rs->n && part_page(p, rs->v[b].pgno))
			b++;
		ret = part_pages(r, p, ctx, false, out);
		for (size_t i = a; i < b && !ret; i++)
			redo(r, part_page(p, rs->v[i].pgno), &rs->v[i], gen, out);
		if (!ret)
			ret = part_pages(r, p, ctx, true, out);
		a = b;
	}
	return ret;
}

/* The whole log file of generation gen into logbuf (the last one is E00.log).  0 or -errno. */
static int read_log(struct rv_db *r, struct io_ctx *ctx, uint64_t gen, void *logbuf)
{
	struct js_db *db = r->db;
	char buf[32];
	const char *name = gen == r->last ? JS_LOG_CURRENT : js_log_name(buf, sizeof(buf), gen);
	struct io_u io = { .op = IO_READ, .buf = logbuf, .len = JS_LOG_FILE_SIZE };
	/* by the log folder's handle: a regular file, never through a link */
	int ret = os_dirh_open_file(db->logd, name, OS_RDONLY | (db->rc->direct ? OS_DIRECT : 0),
				    &io.file);

	if (!ret) {
		ret = io_sync(ctx, &io);
		ret = ret == JS_LOG_FILE_SIZE ? 0 : ret < 0 ? ret : -EIO;
		os_close(io.file);
	}
	if (ret)
		problem(r, "%s: cannot read log generation %llu (%s/%s): %s", db->name,
			(unsigned long long)gen, db->log_dir, name, strerror(-ret));
	r->log_bytes += ret ? 0 : JS_LOG_FILE_SIZE;
	return ret;
}

/* How the replay of one log file ended. */
enum { LOG_DONE, LOG_LAST, LOG_UNREAD };

/*
 * Replay log generation gen into out, timed.  LOG_DONE; LOG_LAST when it was replayed but the
 * database's replay cannot go on (a log damaged before its end that is not the last);
 * LOG_UNREAD when it could not be read; or -errno (I/O set-up or submit).
 */
static int replay_log(struct rv_db *r, struct rv_part *p, struct io_ctx *ctx, void *logbuf,
		      struct rv_recs *rs, uint64_t gen, struct recovery_log *out)
{
	uint64_t t0 = now_ns(), end;
	const char *why = NULL;
	int whole, ret;

	*out = (struct recovery_log){ .db = xstrdup(r->db->name), .gen = gen };
	if (read_log(r, ctx, gen, logbuf))
		return LOG_UNREAD;
	rs->n = 0;
	whole = js_log_scan((char *)logbuf + JS_LOG_HDR, JS_LOG_DATA, (gen - 1) * JS_LOG_DATA,
			    r->db->info.dbid, collect, rs, &end, &why);
	out->records = rs->n;
	out->whole = whole == 1;
	ret = apply(r, p, ctx, rs, gen, out);
	out->seconds = (now_ns() - t0) / 1e9;
	if (ret)
		return ret;
	if (!out->whole && gen != r->last) {
		problem(r, "%s: log generation %llu ends at LSN %llu before the end of its file "
			"(%s): the logs after it cannot be replayed", r->db->name,
			(unsigned long long)gen, (unsigned long long)end, why ? why : "?");
		return LOG_LAST;
	}
	return LOG_DONE;
}

/* The replay of one database's generations r->first .. r->last, its thread. */
static void replay_db(struct rv_db *r, struct io_ctx *ctx)
{
	struct engine *e = &r->rc->eng;
	void *logbuf = xmalloc_aligned(JS_LOG_FILE_SIZE);
	struct rv_recs rs = { 0 };
	uint64_t gen, replayed = 0;
	struct rv_part p;

	part_init(&p, MAX(r->db->nslots, 64u));
	r->log = xcalloc(r->last - r->first + 1, sizeof(*r->log));
	r->redone = xcalloc(r->db->npages / 8 + 1, 1);
	for (gen = r->first; gen <= r->last && engine_running(e); gen++) {
		int ret = replay_log(r, &p, ctx, logbuf, &rs, gen, &r->log[r->nlog]);

		if (ret == LOG_UNREAD) {
			free(r->log[r->nlog].db);
			break;
		}
		r->nlog++;
		replayed += ret >= 0;
		if (ret < 0) {
			r->err = ret;
			run_fail(r->rc, "%s replay: submitting database I/O to %s failed: %s",
				 r->db->name, r->db->path, strerror(-ret));
		}
		if (ret)
			break;
	}
	r->unreplayed = r->last - r->first + 1 - replayed;
	free(r->redone);
	r->redone = NULL;
	part_free(&p);
	free(rs.v);
	free_aligned(logbuf);
}

void *rv_replay_main(void *arg)
{
	struct rv_db *r = arg;
	struct engine *e = &r->rc->eng;
	struct io_ctx ctx;
	int ret = io_ctx_init(&ctx, r->rc->o->engine, MAX((unsigned int)RV_PREREAD, r->db->wdepth));

	if (ret) {
		r->err = ret;
		run_fail(r->rc, "%s replay: cannot set up the %s I/O engine: %s", r->db->name,
			 r->rc->o->engine, strerror(-ret));
		return NULL;
	}
	/* measured from its first read: wait for the measurement */
	while (engine_phase(e) < PH_MEASURE)
		sleep_until_ns(now_ns() + NSEC_PER_MSEC);
	replay_db(r, &ctx);
	io_ctx_release(&ctx);
	if (__atomic_add_fetch(&r->rv->done, 1, __ATOMIC_SEQ_CST) == r->rv->ndb)
		run_done(r->rc); /* the last database replayed: the measurement is over */
	return NULL;
}

/* ---- the result ---- */

/* The per-log seconds of the whole log files (all of them when none is whole): their spread. */
static void spread(struct recovery_result *rec)
{
	double *v = xcalloc(rec->nlog + 1, sizeof(double));
	size_t n = 0;
	struct js_spread s;

	for (size_t i = 0; i < rec->nlog; i++)
		if (rec->log[i].whole)
			v[n++] = rec->log[i].seconds;
	for (size_t i = 0; !n && i < rec->nlog; i++)
		v[n++] = rec->log[i].seconds;
	js_spread(v, n, &s);
	rec->per_log_mean = s.mean;
	rec->per_log_sd = s.sd;
	rec->per_log_min = s.min;
	rec->per_log_p50 = s.p50;
	rec->per_log_p95 = s.p95;
	rec->per_log_max = s.max;
	free(v);
}

/* Database i's instance in the result: its files and classes. */
static void instance(struct run_ctx *rc, unsigned int i)
{
	struct js_db *db = &js_of(rc)->dbs[i];
	struct instance_result *in = &rc->res->instances[i];
	struct collect_extra x;

	in->name = xstrdup(db->name);
	in->db_file = xstrdup(db->path);
	in->log_dir = xstrdup(db->log_dir);
	engine_collect(&rc->eng, (int)i, rc->res->duration_s, in->classes, &x);
}

void rv_results(struct run_ctx *rc, struct recovery *rv)
{
	struct fslab_result *r = rc->res;
	struct recovery_result *rec = &r->recovery;

	*rec = (struct recovery_result){ .present = true, .interrupted = rv->interrupted,
					 .logs_asked = rc->o->recovery_logs,
					 .load_seconds = rv->load_seconds, .seconds = r->duration_s };
	r->ninstances = rv->ndb;
	r->instances = xcalloc(rv->ndb, sizeof(*r->instances));
	for (unsigned int i = 0; i < rv->ndb; i++) {
		struct rv_db *d = &rv->db[i];

		instance(rc, i);
		rec->log = xrealloc(rec->log, (rec->nlog + d->nlog + 1) * sizeof(*rec->log));
		for (size_t k = 0; k < d->nlog; k++) {
			const struct recovery_log *l = &d->log[k];

			rec->records += l->records;
			rec->applied += l->applied;
			rec->pages_read += l->pages_read;
			rec->pages_written += l->pages_written;
			rec->log[rec->nlog++] = *l;
		}
		d->nlog = 0; /* the strings went with them */
		rec->logs += d->last - d->first + 1 - d->unreplayed;
		rec->pages_behind_log += d->pages_behind;
		rec->pages_redone += d->pages_redone;
		rec->log_bytes += d->log_bytes;
		rec->mismatches += d->mismatches;
		rec->bad_pages += d->bad_pages;
		if (!rec->first_problem && d->problem)
			rec->first_problem = xstrdup(d->problem);
	}
	spread(rec);
	if (!rc->o->no_checksum_pass && !*rc->stop)
		js_checksum_pass(rc);
	else if (!rc->o->no_checksum_pass)
		result_add_note(r, "checksum pass skipped: the run was stopped early");
}

/* One check of the recovery verdict (scope overall): count must be 0. */
static bool check(struct fslab_result *r, const char *name, uint64_t count, const char *note)
{
	bool pass = count == 0;

	verdict_add_rule(&r->verdict, "overall", name, (double)count, 0, "count", "count == 0",
			 pass, pass ? NULL : note);
	return pass;
}

/* fslab's pass rule for soft recovery: every log replayed, no page time contradicting a
 * record, every page read sound (during the replay and in the checksum pass after it), no I/O
 * error.  Jetstress publishes no rule of its own; the time per log file is reported and
 * compared, not judged. */
bool rv_verdict(struct run_ctx *rc, struct recovery *rv)
{
	struct fslab_result *r = rc->res;
	const struct recovery_result *rec = &r->recovery;
	uint64_t unreplayed = 0, io = 0, bad;
	bool pass = true;

	for (unsigned int i = 0; i < rv->ndb; i++)
		unreplayed += rv->db[i].unreplayed;
	for (int c = 0; c < CLS_NR; c++)
		io += r->classes[c].errors;
	bad = r->checksum.ran ? r->checksum.bad_pages : rec->bad_pages;
	pass &= check(r, "logs_not_replayed", unreplayed, rec->first_problem);
	pass &= check(r, "replay_mismatches", rec->mismatches, rec->first_problem);
	pass &= check(r, "checksum_errors", bad, r->checksum.first_bad ? r->checksum.first_bad
								    : rec->first_problem);
	pass &= check(r, "io_errors", io, NULL);
	r->verdict.pass = pass;
	r->verdict.present = true;
	return pass;
}

void rv_summary(const struct fslab_result *r, FILE *f)
{
	const struct recovery_result *rec = &r->recovery;

	if (!rec->present)
		return;
	fprintf(f, "Soft recovery: %llu log files replayed in %.2f s%s: %.3f s per log file "
		"(sd %.3f, median %.3f, p95 %.3f, max %.3f)\n", (unsigned long long)rec->logs,
		rec->seconds, rec->interrupted ? " (left by a killed run)" : "",
		rec->per_log_mean, rec->per_log_sd, rec->per_log_p50, rec->per_log_p95,
		rec->per_log_max);
	fprintf(f, "  %llu records, %llu applied (the rest were in the database) to %llu pages",
		(unsigned long long)rec->records, (unsigned long long)rec->applied,
		(unsigned long long)rec->pages_redone);
	if (!rec->interrupted)
		fprintf(f, " (the unclean stop left %llu behind the log)",
			(unsigned long long)rec->pages_behind_log);
	fprintf(f, "; %llu pages read, %llu written; %llu page times contradicting a record, "
		"%llu bad pages\n\n", (unsigned long long)rec->pages_read,
		(unsigned long long)rec->pages_written, (unsigned long long)rec->mismatches,
		(unsigned long long)rec->bad_pages);
}
