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
 *
 * This file: the workload ops (check, prepare, start, stop, finish, cleanup) and the first
 * errors of the load.  The parts are listed in jetstressP.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "fsprep/prep.h"
#include "jetstressP.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/units.h"
#include "verdict.h"

void js_note_bad_page(struct js_db *db, struct thread_stats *st, uint64_t pgno, const char *why)
{
	STORE(&st->checksum_errors, st->checksum_errors + 1);
	pthread_mutex_lock(&db->mu);
	{
		unsigned int i = 0;

		while (i < db->nbad_pg && db->bad_pg[i] != pgno)
			i++;
		if (i == db->nbad_pg && i < JS_BAD_KEEP)
			db->bad_pg[db->nbad_pg++] = pgno;
	}
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
void js_note_io_error(struct js_db *db, const struct io_u *io)
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
					  io->len, io->file == db->log_file ? db->log_dir : db->path, why);
		fslab_err("I/O error: %s", db->first_err);
	}
	pthread_mutex_unlock(&db->mu);
}

void js_fail(struct js_db *db, struct thread_stats *st, int cls, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (st)
		engine_account(&db->rc->eng, st, cls, 0, 0, 0, true);
	/* run_fail() under db->mu: the database's first failure and the run's agree */
	pthread_mutex_lock(&db->mu);
	db->nfatal++;
	if (!db->fatal && msg)
		db->fatal = xstrdup(msg);
	run_fail(db->rc, "%s", msg ? msg : fmt);
	pthread_mutex_unlock(&db->mu);
	free(msg);
}

/* ---- workload ops ---- */

static void db_free(struct js_db *db)
{
	os_close(db->file);
	os_close(db->log_file);
	os_dirh_close(db->logd);
	free(db->path);
	free(db->log_dir);
	free(db->slots);
	free(db->buckets);
	free(db->dirtyq);
	free(db->writers);
	free(db->lring);
	free(db->lpayload);
	free(db->first_bad);
	free(db->first_err);
	free(db->fatal);
	pthread_mutex_destroy(&db->mu);
	pthread_mutex_destroy(&db->lmu);
	pthread_cond_destroy(&db->cv_state);
	pthread_cond_destroy(&db->cv_dirty);
	pthread_cond_destroy(&db->lcv_work);
	pthread_cond_destroy(&db->lcv_done);
}

void js_cleanup(struct run_ctx *rc)
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
	const struct run_config *o = rc->o;
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
				need[j] = sat_add(need[j], need[i]);
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

/*
 * Database i of the run: its locks, name, file and log directory (side by side on raw
 * devices), what is there already (db_inspect()), and the space it needs in need_db[] and
 * need_log[].  0, or -FSLAB_EINPUT for a file that is not ours, unreadable or corrupt.
 */
static int db_setup(struct run_ctx *rc, struct js *js, unsigned int i, uint64_t *need_db,
		    uint64_t *need_log)
{
	const struct run_config *o = rc->o;
	struct js_db *db = &js->dbs[i];
	size_t dd = i % o->ndb_dirs, ld = i % o->nlog_dirs;
	int lstate;

	/* what js_cleanup() releases first: it frees js->ndbs databases */
	db->idx = (int)i;
	db->rc = rc;
	db->file = db->log_file = NULL;
	db->logd = NULL;
	pthread_mutex_init(&db->mu, NULL);
	pthread_mutex_init(&db->lmu, NULL);
	pthread_cond_init(&db->cv_state, NULL);
	pthread_cond_init(&db->cv_dirty, NULL);
	pthread_cond_init(&db->lcv_work, NULL);
	pthread_cond_init(&db->lcv_done, NULL);
	js->ndbs = i + 1;
	db->raw = rc->db_vols[dd].raw;
	snprintf(db->name, sizeof(db->name), "db%u", i + 1);
	snprintf(db->file_name, sizeof(db->file_name), "fslab-%s.edb", db->name);
	snprintf(db->log_name, sizeof(db->log_name), "fslab-%s-logs", db->name);
	if (db->raw) {
		/* databases and log streams side by side on the devices */
		db->path = xstrdup(rc->db_vols[dd].dir);
		db->log_dir = xstrdup(rc->log_vols[ld].dir);
		db->base = (i / o->ndb_dirs) * o->db_size;
		db->log_base = (i / o->nlog_dirs) * RAW_LOG_REGION;
	} else {
		db->path = path_join(rc->db_vols[dd].dir, db->file_name);
		db->log_dir = path_join(rc->log_vols[ld].dir, db->log_name);
		db->log_parent = rc->log_vols[ld].dh;
	}
	db->npages = o->db_size / DB_PAGE_SIZE;
	db->place = (struct db_place){ .path = db->path, .d = rc->db_vols[dd].dh,
				       .name = db->file_name, .base = db->base, .raw = db->raw };
	db->state = db_inspect(&db->place, db->npages, o->compressibility, &db->info);
	if (db->state < 0)
		return input_error("%s: cannot read it (%s); check permissions or remove it",
				   db->path, strerror(-db->state));
	if (db->state == DB_FOREIGN)
		return input_error("%s exists and is not an fslab database (no header of fslab's "
				   "naming this file; or a link, a device, a folder); remove or rename "
				   "it, or use another --db directory", db->path);
	if (db->state == DB_CORRUPT && !db->raw) /* raw: recreated, with a note */
		return input_error("%s: database header corrupt (page 0 fails verification): fslab "
				   "created this database but its header changed on disk since, so "
				   "the storage may corrupt data; keep it to investigate, or remove "
				   "it (rm %s) and fslab creates a new one", db->path, db->path);
	if (db->raw) /* a raw device must hold every slice */
		need_db[dd] = sat_add(need_db[dd], o->db_size);
	else if (db->state != DB_VALID)
		need_db[dd] = sat_add(need_db[dd], o->db_size - MIN(o->db_size,
							db_allocated(&db->place)));
	/* current + spare + kept generations, and slack for one roll */
	need_log[ld] += db->raw ? RAW_LOG_REGION
				: (js_of(rc)->log_files + 3) * (uint64_t)JS_LOG_FILE_SIZE;
	if (db->raw)
		return 0;
	lstate = js_logdir_state(db->log_parent, db->log_name);
	if (lstate < 0)
		return input_error("%s: cannot read it (%s); check permissions or remove it",
				   db->log_dir, strerror(-lstate));
	if (lstate == JS_LOGDIR_FOREIGN)
		return input_error("%s exists and is not a log folder fslab made there (a link, a "
				   "file, or a folder holding other files); remove or rename it, or "
				   "use another --log directory", db->log_dir);
	return 0;
}

/* A copy-on-write filesystem (btrfs) keeps partially overwritten extents, so the databases
 * grow towards twice their size while they are rewritten (ENOSPC otherwise, seen here): said,
 * and noted. */
static void warn_cow(struct run_ctx *rc, const uint64_t *need_db)
{
	const struct run_config *o = rc->o;

	for (size_t d = 0; d < o->ndb_dirs; d++) {
		const struct volume *v = &rc->db_vols[d];
		uint64_t dbs = (o->databases + o->ndb_dirs - 1 - d) / o->ndb_dirs * o->db_size;
		char a[32], b[32];

		if (!fs_flag(v->fsname, FS_F_COW) || v->fs_avail >= sat_add(need_db[d], dbs))
			continue;
		fslab_warn("%s is %s with %s free: copy-on-write may need up to another %s while "
			   "the databases are rewritten; expect ENOSPC errors (a bigger volume, or "
			   "mkfs/mount options such as nodatacow, avoid them)", v->dir, v->fsname,
			   fmt_size(a, sizeof(a), v->fs_avail - MIN(v->fs_avail, need_db[d])),
			   fmt_size(b, sizeof(b), dbs));
		result_add_note(rc->res, "%s volume %s had less free space than the databases' size "
				"after creating them: copy-on-write may run out of space", v->fsname,
				v->dir);
	}
}

int js_check_logs(struct run_ctx *rc, uint64_t log_files)
{
	const struct run_config *o = rc->o;
	uint64_t *need_db = xcalloc(o->ndb_dirs, sizeof(uint64_t));
	uint64_t *need_log = xcalloc(o->nlog_dirs, sizeof(uint64_t));
	struct js *js = xcalloc(1, sizeof(*js));
	int ret = 0;

	rc->priv = js;
	js->log_files = log_files;
	if (o->db_size % DB_PAGE_SIZE || o->db_size / DB_PAGE_SIZE < 512) {
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
	js->dbs = xcalloc(o->databases, sizeof(*js->dbs));
	for (unsigned int i = 0; i < o->databases && !ret; i++)
		ret = db_setup(rc, js, i, need_db, need_log);
	if (!ret)
		ret = check_space_all(rc, need_db, need_log);
	if (!ret)
		warn_cow(rc, need_db);
out:
	free(need_db);
	free(need_log);
	return ret;
}

static int js_check(struct run_ctx *rc)
{
	return js_check_logs(rc, JS_LOG_KEEP);
}

/* A database's sessions for rc->o->threads, its lazy writer's depth and its cache (noted when
 * raised for them: note). */
static void size_for_threads(struct run_ctx *rc, struct js_db *db, bool note)
{
	const struct run_config *o = rc->o;

	db->sessions = js_sessions_of(o->threads, o->databases, (unsigned int)db->idx);
	db->wdepth = js_writer_depth(db->sessions);
	js_cache_setup(db, o->cache_size);
	if (note && (uint64_t)db->nslots * DB_PAGE_SIZE > o->cache_size)
		result_add_note(rc->res, "%s: database cache raised from %llu to %u pages of 32 KiB: "
				"its %u sessions and %u writes in flight need at least %u", db->name,
				(unsigned long long)(o->cache_size / DB_PAGE_SIZE), db->nslots,
				db->sessions, db->wdepth, db->nslots);
}

int js_prepare_dbs(struct run_ctx *rc, bool reset_logs)
{
	const struct run_config *o = rc->o;
	struct js *js = js_of(rc);
	int ret = 0;

	for (unsigned int i = 0; i < js->ndbs && !ret; i++) {
		struct js_db *db = &js->dbs[i];

		ret = workload_init_file(rc, &db->place, db->state, db->npages, o->seed + i,
					 &db->info, "database");
		if (ret)
			break;
		ret = db_open(&db->place, db_open_flags(rc->direct, true), &db->file);
		if (ret) {
			fslab_err("%s: cannot open: %s", db->path, workload_place_error(ret));
			break;
		}
		ret = reset_logs ? js_reset_logs(db) : 0;
		if (ret)
			fslab_err("%s: cannot set up the log stream: %s", db->log_dir,
				  workload_place_error(ret));
		size_for_threads(rc, db, !o->threads_auto);
		/* --threads auto: the log ring holds what the most sessions the tuner tries
		 * append (it keeps its records across the tuner's steps) */
		js_log_setup(db, o->threads_auto ? js_sessions_of(MAX(o->tune_max_threads,
			     o->threads), o->databases, i) : db->sessions, o->seed);
		/* page times only grow: the clock starts past any earlier run's (whole seconds
		 * of the wall clock in the high half), and a change always takes a page past
		 * its own time (js_next_dbtime()) */
		db->dbtime = (uint64_t)time(NULL) << 32;
	}
	return ret;
}

/* --threads auto, between the tuner's steps (the load stopped): sessions, writers and cache
 * sized again for rc->o->threads; the cache starts empty (pages still dirty stay as they are
 * on disk, an older generation that verifies; the log keeps its records). */
static int js_set_threads(struct run_ctx *rc, bool final)
{
	struct js *js = js_of(rc);

	free(js->sessions);
	js->sessions = NULL;
	js->nsessions = 0;
	for (unsigned int i = 0; i < js->ndbs; i++) {
		struct js_db *db = &js->dbs[i];

		free(db->writers);
		db->writers = NULL;
		db->nwriters = 0;
		db->logger_started = db->bdm_started = false;
		free(db->slots);
		free(db->buckets);
		free(db->dirtyq);
		db->nused = db->hand = db->dq_head = db->dq_n = 0;
		db->stalled = db->nwriting = 0;
		size_for_threads(rc, db, final);
	}
	return 0;
}

static int js_prepare(struct run_ctx *rc)
{
	return js_prepare_dbs(rc, true);
}

static int start_thread(pthread_t *t, bool *started, void *(*fn)(void *), void *arg)
{
	int ret = pthread_create(t, NULL, fn, arg);

	if (ret)
		return -ret;
	*started = true;
	return 0;
}

int js_start(struct run_ctx *rc)
{
	const struct run_config *o = rc->o;
	struct js *js = js_of(rc);
	int ret = 0;

	js->nsessions = o->threads;
	js->sessions = xcalloc(js->nsessions, sizeof(*js->sessions));
	for (unsigned int i = 0; i < js->ndbs && !ret; i++) {
		struct js_db *db = &js->dbs[i];

		db->nwriters = js_writer_threads(o->engine, db->wdepth);
		db->writers = xcalloc(db->nwriters, sizeof(*db->writers));
		for (unsigned int k = 0; k < db->nwriters && !ret; k++) {
			struct js_writer *w = &db->writers[k];

			w->db = db;
			w->st = engine_stats_new(&rc->eng, (int)i);
			/* the database's depth shared out: the first ones take the remainder */
			w->depth = db->wdepth / db->nwriters + (k < db->wdepth % db->nwriters);
			ret = start_thread(&w->tid, &w->started, js_writer_main, w);
		}
		db->lst = engine_stats_new(&rc->eng, (int)i);
		db->bst = engine_stats_new(&rc->eng, (int)i);
		if (!ret)
			ret = start_thread(&db->logger, &db->logger_started, js_logger_main, db);
		if (!ret && o->bdm_mbps > 0)
			ret = start_thread(&db->bdm, &db->bdm_started, js_bdm_main, db);
	}
	for (unsigned int i = 0; i < js->nsessions && !ret; i++) {
		struct js_session *se = &js->sessions[i];

		se->id = (int)i;
		se->db = &js->dbs[i % js->ndbs];
		se->st = engine_stats_new(&rc->eng, se->db->idx);
		ret = start_thread(&se->tid, &se->started, js_session_main, se);
	}
	if (ret)
		fslab_err("cannot start threads: %s", strerror(-ret));
	return ret;
}

/* A thread joined once: the recovery workload stops its load before the run stops it. */
static void join_thread(pthread_t t, bool *started)
{
	if (*started)
		pthread_join(t, NULL);
	*started = false;
}

void js_stop(struct run_ctx *rc)
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
		join_thread(js->sessions[i].tid, &js->sessions[i].started);
	for (unsigned int i = 0; i < js->ndbs; i++) {
		struct js_db *db = &js->dbs[i];

		for (unsigned int k = 0; k < db->nwriters; k++)
			join_thread(db->writers[k].tid, &db->writers[k].started);
		join_thread(db->logger, &db->logger_started);
		join_thread(db->bdm, &db->bdm_started);
	}
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

/* What the overall verdict adds up from the databases. */
struct js_totals {
	uint64_t io_err, ck_err, stalls, nfatal, pages;
	const char *fatal, *first_err; /* the first database's (in database order) */
};

/* Database i's instance in the result, its verdict scope and notes; its totals added to t.
 * Whether its checks passed. */
static bool finish_instance(struct run_ctx *rc, unsigned int i, const struct js_verdict_opts *vo,
			    struct js_totals *t)
{
	struct js_db *db = &js_of(rc)->dbs[i];
	struct fslab_result *r = rc->res;
	struct instance_result *in = &r->instances[i];
	struct js_scope_data sd;
	struct collect_extra x;
	uint64_t ierr = 0;

	in->name = xstrdup(db->name);
	in->db_file = xstrdup(db->path);
	in->log_dir = xstrdup(db->log_dir);
	engine_collect(&rc->eng, (int)i, r->duration_s, in->classes, &x);
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
		.cache_pages = db->nslots,
		.seconds = r->duration_s,
		.load_failures = db->nfatal,
		.load_failure = db->fatal,
		.first_io_error = db->first_err,
	};
	t->nfatal += db->nfatal;
	if (!t->fatal)
		t->fatal = db->fatal;
	if (!t->first_err)
		t->first_err = db->first_err;
	in->pass = js_verdict_scope(&r->verdict, db->name, vo, &sd);
	t->io_err += ierr;
	t->ck_err += x.checksum_errors;
	t->stalls += x.page_fault_stalls;
	t->pages += db->nslots;
	if (db->rolls && !db->raw)
		result_add_note(r, "%s: %llu log rolls; close, renames and open took %.2f ms on "
				"average, %.2f ms at most (counted in the log write that needed the "
				"new file)", db->name, (unsigned long long)db->rolls,
				db->roll_ns_sum / 1e6 / db->rolls, db->roll_ns_max / 1e6);
	if (db->first_bad)
		result_add_note(r, "checksum error during the load: %s", db->first_bad);
	if (db->first_err)
		result_add_note(r, "first I/O error: %s", db->first_err);
	return in->pass;
}

/*
 * The load's shape against Jetstress's ratios, with what explains a ratio out of its band: the
 * busiest log stream's busy share (its log writes' latency over the measured time) and its
 * durable commits per log write.
 */
static void js_fidelity(struct run_ctx *rc)
{
	struct js *js = js_of(rc);
	struct fslab_result *r = rc->res;
	double busiest = -1;

	fidelity_compute(&r->fidelity, r->classes);
	if (!r->fidelity.present || !(r->duration_s > 0))
		return;
	for (unsigned int i = 0; i < js->ndbs && i < r->ninstances; i++) {
		const struct class_result *lw = &r->instances[i].classes[CLS_LOG_WRITE];
		double busy = lw->ops * lw->lat_us.mean / 1e6 / r->duration_s * 100;

		if (lw->ops && busy > busiest) {
			busiest = busy;
			r->fidelity.log_busy_pct = MIN(busy, 100.0);
			r->fidelity.commits_per_write = (double)js->dbs[i].durable_commits / lw->ops;
		}
	}
	fidelity_explain(&r->fidelity);
}

static int js_finish(struct run_ctx *rc)
{
	struct js *js = js_of(rc);
	struct fslab_result *r = rc->res;
	const struct run_config *cf = &r->config;
	struct js_totals t = { 0 };
	struct js_verdict_opts vo;
	struct js_scope_data sd;
	bool pass = true;

	verdict_opts(r, &vo);
	r->ninstances = js->ndbs;
	r->instances = xcalloc(js->ndbs, sizeof(*r->instances));
	for (unsigned int i = 0; i < js->ndbs; i++)
		pass = finish_instance(rc, i, &vo, &t) && pass;
	r->db_page_fault_stalls = t.stalls;
	if (!rc->o->no_checksum_pass && !*rc->stop)
		t.ck_err -= js_checksum_pass(rc);
	else if (!rc->o->no_checksum_pass)
		result_add_note(r, "checksum pass skipped: the run was stopped early");
	t.ck_err += r->checksum.bad_pages;
	sd = (struct js_scope_data){
		.cls = r->classes,
		.samples = latency_samples_find(&r->latency_samples, "overall"),
		.io_errors = t.io_err,
		.checksum_errors = t.ck_err,
		.page_fault_stalls = t.stalls,
		.cache_pages = t.pages,
		.seconds = r->duration_s,
		.load_failures = t.nfatal,
		.load_failure = t.fatal,
		.first_io_error = t.first_err,
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
	js_fidelity(rc);
	return 0;
}

const struct workload_ops workload_jetstress = {
	.name = "jetstress",
	.help = "Exchange ESE-like database load (default)",
	.flags = WL_VERDICT | WL_DATABASES | WL_LOG | WL_THREAD_PER_DB | WL_DSYNC |
		 WL_TRANSACTIONS | WL_PAGES | WL_EXPORT_SHAPE,
	.config = js_config,
	.describe = js_describe,
	.summary = js_summary,
	.export = js_export,
	.check = js_check,
	.prepare = js_prepare,
	.start = js_start,
	.stop = js_stop,
	.finish = js_finish,
	.cleanup = js_cleanup,
	.set_threads = js_set_threads,
};
