// SPDX-License-Identifier: MIT
/*
 * backup.c: Jetstress's database backup test (JetstressConfig.xml Type DatabaseBackup): once
 * the databases are initialised (created, or reused as the jetstress workload left them),
 * every database is read sequentially end to end in large reads, every page verified, as an
 * ESE streaming backup reads it; the result gives MB/s per database and overall, the figures
 * of Jetstress's backup report.
 *
 * The read: ESE reads a database for a streaming backup in chunks of JET_paramMaxCoalesceReadSize
 * (default cbReadSizeMax = 512 KiB; before it JET_paramBackupChunkSize, 16 pages = 512 KiB at
 * 32 KiB pages) and keeps several in flight (JET_paramBackupOutstandingReads, default 8):
 * microsoft/Extensible-Storage-Engine dev/ese/src/inc/daeconst.hxx (cbReadSizeMax,
 * cpgBackupChunkDefault, cBackupReadDefault), dev/ese/src/ese/io.cxx (ErrIOReadDbPages).
 *
 * One reader per database read at a time (--threads of them, at most one per database: a
 * database is one sequential stream); --iodepth reads in flight each (default 8).  The
 * measurement ends when the last database is read (--duration is only the limit); a database's
 * MB/s is its bytes over its own read time, the overall MB/s all bytes over the whole backup.
 * The databases are the jetstress workload's files (fslab-db<N>.edb, same geometry and seeds),
 * so a backup after a jetstress run on the same volumes reads what that run left.
 */
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "dbfile.h"
#include "io/ioengine.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/units.h"
#include "workload.h"

#define BACKUP_READ (512 * 1024) /* ESE cbReadSizeMax: the streaming backup's read */
#define BACKUP_DEPTH 8           /* ESE cBackupReadDefault: reads outstanding */
#define BACKUP_PAGES (BACKUP_READ / DB_PAGE_SIZE)

struct bk_db {
	unsigned int idx;
	char name[16], file_name[32];
	char *path;
	struct db_place place;
	int state;            /* enum db_state before prepare */
	struct db_info info;
	struct os_file *file;
	uint64_t npages;
	/* filled by the reader that read it, read after the readers joined */
	uint64_t pages, bad_pages, bytes, start_ns, end_ns;
	char *first_bad, *first_err;
	bool complete;
};

struct bk_reader {
	struct run_ctx *rc;
	unsigned int id;
	pthread_t tid;
	bool started;
};

struct backup {
	struct bk_db *dbs;
	unsigned int ndbs;
	struct bk_reader *readers;
	unsigned int nreaders;
	unsigned int next, done; /* next database to read, databases read: atomic */
};

static struct backup *bk_of(struct run_ctx *rc)
{
	return rc->priv;
}

/* ---- the hooks outside the run ---- */

static void bk_config(struct run_config *c, const struct wl_given *given)
{
	c->bs = BACKUP_READ;
	if (!given->iodepth)
		c->iodepth = BACKUP_DEPTH;
	/* a database is one sequential stream: more readers than databases would idle */
	c->threads = MIN(c->threads, c->databases);
	/* everything read once, all of it measured: no warm-up */
	c->warmup_s = 0;
	c->cache_size = 0;
	c->bdm_mbps = 0;
	c->rwmixread = 100;
	/* the backup is the pass that reads and verifies every page */
	c->no_checksum_pass = true;
}

static void bk_describe(const struct run_config *c, FILE *f)
{
	char a[32], b[32];

	fprintf(f, ", %u database(s) x %s, %s reads x %u in flight", c->databases,
		fmt_size(a, sizeof(a), c->db_size), fmt_size(b, sizeof(b), c->bs), c->iodepth);
}

/* Jetstress's backup report: throughput per database and overall. */
static void bk_summary(const struct fslab_result *r, FILE *f)
{
	double sum = 0;

	for (size_t i = 0; i < r->ninstances; i++)
		sum += r->instances[i].classes[CLS_DB_READ].mbps;
	fprintf(f, "Database backup: %.1f MB/s in total, %.1f MB/s per database (average of %zu)\n",
		r->classes[CLS_DB_READ].mbps, r->ninstances ? sum / r->ninstances : 0,
		r->ninstances);
	for (size_t i = 0; i < r->ninstances; i++) {
		const struct instance_result *in = &r->instances[i];
		char a[32];

		fprintf(f, "  %-6s %s read, %.1f MB/s\n", in->name,
			fmt_size(a, sizeof(a), in->classes[CLS_DB_READ].bytes),
			in->classes[CLS_DB_READ].mbps);
	}
	fprintf(f, "\n");
}

/* Every database file read sequentially, all at once (the tools cannot take turns). */
static int bk_export(const struct run_config *c, const struct wl_shape *sh, struct wl_export *x)
{
	(void)sh;
	x->once = true;
	x->approx = xasprintf("backup approximated: every database file read once, sequentially, "
			      "in %llu KiB reads, %u in flight, all databases at once (DiskSpd "
			      "repeats the reads until -d ends); no page verification",
			      (unsigned long long)(c->bs / KiB), c->iodepth);
	for (unsigned int k = 0; k < c->databases; k++) {
		struct wl_job *j = wl_export_add(x, WJ_SEQREAD, c->db_dirs[k % c->ndb_dirs], "db%u",
						 k + 1);

		snprintf(j->comment, sizeof(j->comment), "database %u: read end to end", k + 1);
		snprintf(j->file, sizeof(j->file), "-db%u", k + 1);
		j->size = c->db_size;
		j->bs = c->bs;
		j->threads = 1;
		j->iodepth = c->iodepth;
	}
	return 0;
}

/* ---- the run ---- */

static int bk_check(struct run_ctx *rc)
{
	const struct run_config *o = rc->o;
	struct backup *b = xcalloc(1, sizeof(*b));
	uint64_t *need = xcalloc(o->ndb_dirs, sizeof(uint64_t));
	int ret = 0;

	rc->priv = b;
	b->dbs = xcalloc(o->databases, sizeof(*b->dbs));
	for (unsigned int i = 0; i < o->databases; i++) {
		struct bk_db *db = &b->dbs[i];
		size_t dd = i % o->ndb_dirs;
		bool raw = rc->db_vols[dd].raw;

		b->ndbs = i + 1;
		db->idx = i;
		snprintf(db->name, sizeof(db->name), "db%u", i + 1);
		/* the jetstress workload's databases: the same names, places and geometry */
		snprintf(db->file_name, sizeof(db->file_name), "fslab-%s.edb", db->name);
		db->path = raw ? xstrdup(rc->db_vols[dd].dir)
			       : path_join(rc->db_vols[dd].dir, db->file_name);
		db->place = (struct db_place){ .path = db->path, .raw = raw,
					       .d = rc->db_vols[dd].dh, .name = db->file_name,
					       .base = raw ? (i / o->ndb_dirs) * o->db_size : 0 };
		db->npages = o->db_size / DB_PAGE_SIZE;
		db->state = db_inspect(&db->place, db->npages, o->compressibility, &db->info);
		if (db->state < 0) {
			ret = input_error("%s: cannot read it (%s); check permissions or remove it",
					  db->path, strerror(-db->state));
			goto out;
		}
		if (db->state == DB_FOREIGN) {
			ret = input_error("%s exists and is not an fslab database (no header of "
					  "fslab's naming this file; or a link, a device, a folder); "
					  "remove or rename it, or use another --db directory", db->path);
			goto out;
		}
		if (db->state == DB_CORRUPT && !raw) {
			ret = input_error("%s: database header corrupt (page 0 fails verification): "
					  "fslab created this database but its header changed on disk "
					  "since; keep it to investigate, or remove it (rm %s) and fslab "
					  "creates a new one", db->path, db->path);
			goto out;
		}
		if (raw)
			need[dd] = sat_add(need[dd], o->db_size);
		else if (db->state != DB_VALID)
			need[dd] = sat_add(need[dd], o->db_size - MIN(o->db_size,
						db_allocated(&db->place)));
	}
	/* databases on one filesystem add up */
	for (size_t i = 0; i < o->ndb_dirs && !ret; i++) {
		uint64_t sum = 0;

		for (size_t j = 0; j < o->ndb_dirs; j++)
			if (rc->db_vols[j].fs_dev == rc->db_vols[i].fs_dev)
				sum = sat_add(sum, need[j]);
		if (sum)
			ret = check_free_space(&rc->db_vols[i], sum, "the databases");
	}
out:
	free(need);
	return ret;
}

static int bk_prepare(struct run_ctx *rc)
{
	struct backup *b = bk_of(rc);
	int ret = 0;

	for (unsigned int i = 0; i < b->ndbs && !ret; i++) {
		struct bk_db *db = &b->dbs[i];

		ret = workload_init_file(rc, &db->place, db->state, db->npages, rc->o->seed + i,
					 &db->info, "database");
		if (ret)
			break;
		ret = db_open(&db->place, db_open_flags(rc->direct, false), &db->file);
		if (ret)
			fslab_err("%s: cannot open: %s", db->path, workload_place_error(ret));
	}
	return ret;
}

/* The pages of one completed read, verified (a failed read: all of them bad). */
static void bk_verify(struct run_ctx *rc, struct bk_db *db, const struct io_u *io)
{
	uint64_t first = (io->off - db->place.base) / DB_PAGE_SIZE, n = io->len / DB_PAGE_SIZE;

	db->bytes += io->len;
	if (io->res != (int)io->len) {
		db->bad_pages += n;
		if (!db->first_err)
			db->first_err = xasprintf("%s pages %llu-%llu: read error (%s)", db->name,
						  (unsigned long long)first,
						  (unsigned long long)(first + n - 1),
						  io->res < 0 ? strerror(-io->res) : "short read");
		return;
	}
	if (rc->o->no_verify)
		return;
	for (uint64_t p = 0; p < n; p++) {
		/* the header page carries no database id (dbfile.c stamps it with 0) */
		const char *why = db_verify_page((const char *)io->buf + p * DB_PAGE_SIZE,
						 first + p ? db->info.dbid : 0, first + p);

		db->pages++;
		if (!why)
			continue;
		db->bad_pages++;
		if (!db->first_bad) {
			db->first_bad = xasprintf("%s page %llu: %s", db->name,
						  (unsigned long long)(first + p), why);
			fslab_err("%s: checksum error on page %llu (%s): the database file is corrupt",
				  db->path, (unsigned long long)(first + p), why);
		}
	}
}

/*
 * Read db from page 0 to its end, depth reads in flight, each completion accounted to its
 * instance and verified.  0, or the engine's -errno.  Nothing stays in flight when it returns
 * (what the engine still holds is reaped, or the caller releases the context first).
 */
static int bk_read(struct run_ctx *rc, struct io_ctx *ctx, struct bk_db *db, void *bufs,
		   unsigned int depth)
{
	struct engine *e = &rc->eng;
	struct thread_stats *st = engine_stats_new(e, (int)db->idx);
	struct io_u *ios = xcalloc(depth, sizeof(*ios));
	struct io_u **fr = xcalloc(depth, sizeof(*fr)), **batch = xcalloc(depth, sizeof(*batch));
	unsigned int nfree = depth;
	uint64_t next = 0;
	int ret = 0, drained;

	for (unsigned int i = 0; i < depth; i++) {
		ios[i] = (struct io_u){ .file = db->file, .op = IO_READ, .cls = CLS_DB_READ,
					.buf = (char *)bufs + (size_t)i * BACKUP_READ };
		fr[i] = &ios[i];
	}
	db->start_ns = now_ns();
	while (next < db->npages || nfree < depth) {
		unsigned int n = 0;
		int k;

		while (nfree && next < db->npages && engine_running(e)) {
			struct io_u *io = fr[--nfree];
			uint64_t pages = MIN((uint64_t)BACKUP_PAGES, db->npages - next);

			io->off = db->place.base + next * DB_PAGE_SIZE;
			io->len = (uint32_t)(pages * DB_PAGE_SIZE);
			next += pages;
			batch[n++] = io;
		}
		if (!n && nfree == depth)
			break; /* stopped: nothing in flight */
		/* submit the batch and wait for a completion in one step (io_uring: one call) */
		k = io_submit_reap(ctx, batch, n, batch, 1, depth);
		if (k < 0) {
			ret = k;
			break;
		}
		for (int i = 0; i < k; i++) {
			struct io_u *io = batch[i];

			engine_account(e, st, CLS_DB_READ, io->len, io->start_ns, io->end_ns,
				       io->res != (int)io->len);
			bk_verify(rc, db, io);
			fr[nfree++] = io;
		}
	}
	drained = io_drain(ctx, batch, depth);
	if (drained && !ret)
		ret = drained;
	db->end_ns = now_ns();
	db->complete = !ret && next >= db->npages && nfree == depth;
	free(ios);
	free(fr);
	free(batch);
	return ret;
}

static void *bk_reader_main(void *arg)
{
	struct bk_reader *t = arg;
	struct run_ctx *rc = t->rc;
	struct backup *b = bk_of(rc);
	struct engine *e = &rc->eng;
	unsigned int depth = rc->o->iodepth;
	void *bufs = xmalloc_aligned((size_t)depth * BACKUP_READ);
	struct io_ctx ctx;
	int ret;

	ret = io_ctx_init(&ctx, rc->o->engine, depth);
	if (ret) {
		run_fail(rc, "backup reader %u: cannot set up %s: %s", t->id, rc->o->engine,
			 strerror(-ret));
		free_aligned(bufs);
		return NULL;
	}
	/* no warm-up: what it reads counts from the first page, so wait for the measurement */
	while (engine_phase(e) < PH_MEASURE)
		sleep_until_ns(now_ns() + NSEC_PER_MSEC);
	while (engine_running(e)) {
		unsigned int i = __atomic_fetch_add(&b->next, 1, __ATOMIC_SEQ_CST);
		struct bk_db *db;

		if (i >= b->ndbs)
			break;
		db = &b->dbs[i];
		ret = bk_read(rc, &ctx, db, bufs, depth);
		if (ret) {
			run_fail(rc, "backup reader %u: reading %s: %s", t->id, db->path,
				 strerror(-ret));
			break;
		}
		if (db->complete &&
		    __atomic_add_fetch(&b->done, 1, __ATOMIC_SEQ_CST) == b->ndbs)
			run_done(rc); /* the last database read: the backup is over */
	}
	io_ctx_release(&ctx); /* before bufs goes: it cancels what a failed engine still has */
	free_aligned(bufs);
	return NULL;
}

static int bk_start(struct run_ctx *rc)
{
	struct backup *b = bk_of(rc);

	b->nreaders = rc->o->threads;
	b->readers = xcalloc(b->nreaders, sizeof(*b->readers));
	for (unsigned int i = 0; i < b->nreaders; i++) {
		struct bk_reader *t = &b->readers[i];
		int ret;

		t->rc = rc;
		t->id = i + 1;
		ret = pthread_create(&t->tid, NULL, bk_reader_main, t);
		if (ret) {
			fslab_err("cannot start backup reader %u: %s", i + 1, strerror(ret));
			return -ret;
		}
		t->started = true;
	}
	return 0;
}

static void bk_stop(struct run_ctx *rc)
{
	struct backup *b = bk_of(rc);

	for (unsigned int i = 0; b && i < b->nreaders; i++)
		if (b->readers[i].started)
			pthread_join(b->readers[i].tid, NULL);
}

/* Per database: its MB/s over its own read time; the pages verified, the first bad one. */
static int bk_finish(struct run_ctx *rc)
{
	struct backup *b = bk_of(rc);
	struct fslab_result *r = rc->res;
	struct checksum_result *cs = &r->checksum;
	uint64_t t0 = rc->eng.t_measure, first = UINT64_MAX, last = 0, bytes = 0, total = 0;
	unsigned int read = 0;

	r->ninstances = b->ndbs;
	r->instances = xcalloc(b->ndbs, sizeof(*r->instances));
	for (unsigned int i = 0; i < b->ndbs; i++) {
		struct bk_db *db = &b->dbs[i];
		struct instance_result *in = &r->instances[i];
		uint64_t start = MAX(db->start_ns, t0);
		double secs = db->end_ns > start ? (db->end_ns - start) / 1e9 : 0;
		struct collect_extra x;
		uint64_t err = 0;

		in->name = xstrdup(db->name);
		in->db_file = xstrdup(db->path);
		engine_collect(&rc->eng, (int)i, secs, in->classes, &x);
		for (int c = 0; c < CLS_NR; c++)
			err += in->classes[c].errors;
		/* no verdict: an instance passes when it was read whole, without an error */
		in->pass = db->complete && !err && !db->bad_pages;
		read += db->complete;
		total += db->npages * DB_PAGE_SIZE;
		bytes += db->bytes;
		if (db->start_ns) {
			first = MIN(first, start);
			last = MAX(last, db->end_ns);
		}
		cs->pages += db->pages;
		cs->bad_pages += db->bad_pages;
		if (!cs->first_bad && (db->first_err || db->first_bad))
			cs->first_bad = xstrdup(db->first_err ? db->first_err : db->first_bad);
		if (db->first_bad)
			result_add_note(r, "checksum error during the backup: %s", db->first_bad);
		if (db->first_err)
			result_add_note(r, "read error during the backup: %s", db->first_err);
	}
	cs->ran = !rc->o->no_verify;
	cs->bytes = bytes;
	cs->seconds = last > first ? (last - first) / 1e9 : 0;
	cs->mbps = cs->seconds > 0 ? bytes / cs->seconds / 1e6 : 0;
	if (read < b->ndbs) {
		char a[32], c[32];

		result_add_note(r, "the backup did not finish: %u of %u database(s) read whole, %s of "
				"%s (%s)", read, b->ndbs, fmt_size(a, sizeof(a), bytes),
				fmt_size(c, sizeof(c), total),
				*rc->stop ? "the run was stopped" : "--duration ended it first");
	}
	r->verdict.present = false;
	return 0;
}

static void bk_cleanup(struct run_ctx *rc)
{
	struct backup *b = bk_of(rc);

	if (!b)
		return;
	for (unsigned int i = 0; i < b->ndbs; i++) {
		os_close(b->dbs[i].file);
		free(b->dbs[i].path);
		free(b->dbs[i].first_bad);
		free(b->dbs[i].first_err);
	}
	free(b->dbs);
	free(b->readers);
	free(b);
	rc->priv = NULL;
}

const struct workload_ops workload_backup = {
	.name = "backup",
	.help = "Jetstress's database backup test: every database read once, sequentially",
	.flags = WL_DATABASES | WL_PAGES | WL_THROUGHPUT | WL_FINITE,
	.config = bk_config,
	.describe = bk_describe,
	.summary = bk_summary,
	.export = bk_export,
	.check = bk_check,
	.prepare = bk_prepare,
	.start = bk_start,
	.stop = bk_stop,
	.finish = bk_finish,
	.cleanup = bk_cleanup,
};
