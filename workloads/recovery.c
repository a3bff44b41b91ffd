// SPDX-License-Identifier: MIT
/*
 * recovery.c: Jetstress's soft recovery test.  Per database, the jetstress load until it has
 * left --recovery-logs log files, then an unclean stop (sessions, lazy writer and log writer
 * halted at once: dirty pages and the unwritten log tail are lost, as in a crash); then the
 * measured replay, as ESE's soft recovery does it: each log file in order is read and its
 * records verified (CRC32C), the pages they name are read (a few ahead, ESE's preread) and
 * verified, the changes a page lacks are applied by ESE's redo rule (js_redo_check()) and the
 * changed pages written back, timed per log file.  A checkpoint file (E00.chk, ESE's name)
 * says that a load ran on the logs and was not replayed: a run killed during its load leaves
 * it, and the next recovery run replays what that run left instead of making a load.
 * The replay itself: recovery_replay.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "recoveryP.h"
#include "lib/units.h"

static struct recovery *rv_of(struct run_ctx *rc)
{
	return js_of(rc)->recovery;
}

/*
 * The checkpoint file of db in its log folder (db->logd): a load runs from generation 1 on
 * and was not replayed.  Made by the folder's handle, whole, onto a free name: a file or a
 * link someone put at its name is left as it is and the run stops.  0, or -errno (said).
 */
static int ckpt_write(const struct js_db *db, struct rv_db *r)
{
	char *head = js_ckpt_head(db->logd), *text;
	int ret;

	if (!head)
		return -EIO;
	text = xasprintf("%sdatabase %s %llx\nfirst 1\n", head, db->file_name,
			 (unsigned long long)db->info.dbid);
	ret = dirh_write_new(db->logd, JS_LOG_CHECKPOINT_TMP, JS_LOG_CHECKPOINT, text,
			     strlen(text), &r->ckpt_id);
	if (ret == -EEXIST)
		fslab_err("%s: another file or a link took the name %s or %s meanwhile: nothing was "
			  "written through it; remove it, or use another --log directory",
			  db->log_dir, JS_LOG_CHECKPOINT, JS_LOG_CHECKPOINT_TMP);
	else if (ret)
		fslab_err("%s: cannot write %s: %s", db->log_dir, JS_LOG_CHECKPOINT, strerror(-ret));
	free(text);
	free(head);
	return ret;
}

/* What a checkpoint file's text says to database db in the folder sub. */
enum { CKPT_OURS, CKPT_FOREIGN, CKPT_OTHER_DB };

static int ckpt_parse(const struct js_db *db, struct os_dirh *sub, const char *text,
		      uint64_t *first)
{
	char *head = js_ckpt_head(sub), name[64] = "";
	unsigned long long dbid = 0, gen = 0;
	int ret = CKPT_FOREIGN;

	if (head && !strncmp(text, head, strlen(head)) &&
	    sscanf(text + strlen(head), "database %63s %llx first %llu", name, &dbid, &gen) == 3 &&
	    gen)
		ret = !strcmp(name, db->file_name) && dbid == db->info.dbid ? CKPT_OURS
									    : CKPT_OTHER_DB;
	free(head);
	*first = gen;
	return ret;
}

/*
 * db's checkpoint file in its log folder sub: 1 with r->first and r->ckpt_id when there is
 * one for this database, 0 when there is none, -FSLAB_EINPUT (said) when it is not one of
 * ours or names another database.
 */
static int ckpt_read(const struct js_db *db, struct os_dirh *sub, struct rv_db *r)
{
	char *text = NULL;
	size_t len;
	int ret = dirh_read_small(sub, JS_LOG_CHECKPOINT, 4096, &text, &len, &r->ckpt_id);

	if (ret == -ENOENT)
		return 0;
	if (ret == -ELOOP || ret == -EINVAL || ret == -EFBIG)
		return input_error("%s/%s is not a checkpoint file fslab wrote (a link, a special "
				   "file or a large one): nothing is read through it; remove it, or "
				   "use another --log directory", db->log_dir, JS_LOG_CHECKPOINT);
	if (ret)
		return input_error("%s/%s: cannot read it (%s); check permissions", db->log_dir,
				   JS_LOG_CHECKPOINT, strerror(-ret));
	ret = ckpt_parse(db, sub, text, &r->first);
	free(text);
	if (ret == CKPT_FOREIGN)
		return input_error("%s/%s is not a checkpoint file fslab wrote in this folder; remove "
				   "it, or use another --log directory", db->log_dir,
				   JS_LOG_CHECKPOINT);
	if (ret == CKPT_OTHER_DB)
		return input_error("%s/%s belongs to another database than %s (it was recreated "
				   "since its logs were written): its logs cannot be replayed into "
				   "it; remove %s to start afresh", db->log_dir, JS_LOG_CHECKPOINT,
				   db->path, JS_LOG_CHECKPOINT);
	return 1;
}

/*
 * The generations in db's log folder from first on: the rolled files E00<gen>.log must follow
 * one another without a gap, E00.log is the last.  *last gets it.  0, or -FSLAB_EINPUT (said).
 */
static int find_logs(const struct js_db *db, uint64_t first, uint64_t *last)
{
	uint64_t lo = UINT64_MAX, hi = 0, n = 0;
	bool current = false;
	struct os_dir *d;
	const char *name;
	int ret = os_dirh_list(db->logd, &d);

	if (ret)
		return input_error("%s: cannot list it (%s); check permissions", db->log_dir,
				   strerror(-ret));
	while ((name = os_readdir(d))) {
		uint64_t g = js_log_gen(name);

		current |= !strcmp(name, JS_LOG_CURRENT);
		if (g < first)
			continue;
		lo = MIN(lo, g);
		hi = MAX(hi, g);
		n++;
	}
	os_closedir(d);
	if (n && (lo != first || hi - lo + 1 != n))
		return input_error("%s: the logs to replay from generation %llu on are incomplete "
				   "(%llu files between %llu and %llu): they cannot be replayed; "
				   "remove %s to start afresh", db->log_dir, (unsigned long long)first,
				   (unsigned long long)n, (unsigned long long)lo, (unsigned long long)hi,
				   JS_LOG_CHECKPOINT);
	*last = n ? hi + current : first;
	if (!n && !current)
		return input_error("%s: no log files to replay (its checkpoint names generation "
				   "%llu); remove %s to start afresh", db->log_dir,
				   (unsigned long long)first, JS_LOG_CHECKPOINT);
	return 0;
}

static void rv_config(struct run_config *c, const struct wl_given *given)
{
	js_config(c, given);
	/* the replay is measured from its first read: no warm-up */
	c->warmup_s = 0;
	if (!c->recovery_logs)
		c->recovery_logs = JS_RECOVERY_LOGS;
}

/* What the checks found for database i: its checkpoint (interrupted) or none (a new load). */
static int check_db(struct run_ctx *rc, struct recovery *rv, unsigned int i)
{
	struct js_db *db = &js_of(rc)->dbs[i];
	struct rv_db *r = &rv->db[i];
	struct os_dirh *sub = NULL;
	int ret;

	r->db = db;
	if (db->raw)
		return input_error("%s: the recovery workload needs log files on a filesystem, not a "
				   "raw device; give a --log directory", db->log_dir);
	if (db->state != DB_VALID)
		return 0;
	/* the folder js_check_logs() judged, opened once more and judged again (it may have
	 * been exchanged in between): kept open for the replay when it holds a checkpoint */
	ret = os_dirh_sub(db->log_parent, db->log_name, false, NULL, &sub);
	if (ret == -ENOENT)
		return 0;
	if (!ret && !js_logdir_is_ours(sub))
		ret = -EEXIST;
	if (ret) {
		os_dirh_close(sub);
		return input_error("%s: %s; remove or rename it, or use another --log directory",
				   db->log_dir, ret == -EEXIST || ret == -ELOOP || ret == -ENOTDIR
				   ? "another folder, a file or a link took its name meanwhile"
				   : strerror(-ret));
	}
	ret = ckpt_read(db, sub, r);
	if (ret <= 0) {
		os_dirh_close(sub);
		return ret;
	}
	db->logd = sub; /* js_cleanup() closes it */
	r->interrupted = true;
	return find_logs(db, r->first, &r->last);
}

static int rv_check(struct run_ctx *rc)
{
	const struct run_config *o = rc->o;
	struct recovery *rv;
	unsigned int interrupted = 0;
	int ret = js_check_logs(rc, o->recovery_logs + 1);

	if (ret)
		return ret;
	rv = xcalloc(1, sizeof(*rv));
	js_of(rc)->recovery = rv;
	rv->ndb = js_of(rc)->ndbs;
	rv->db = xcalloc(rv->ndb, sizeof(*rv->db));
	for (unsigned int i = 0; i < rv->ndb && !ret; i++) {
		ret = check_db(rc, rv, i);
		interrupted += rv->db[i].interrupted;
	}
	if (!ret && interrupted && interrupted < rv->ndb)
		return input_error("the logs of %u of the %u databases wait for recovery (they have "
				   "a %s) and the others' do not: they are not one run's; give the "
				   "databases of that run, or remove the %s files to start afresh",
				   interrupted, rv->ndb, JS_LOG_CHECKPOINT, JS_LOG_CHECKPOINT);
	rv->interrupted = interrupted > 0;
	if (!ret && rv->interrupted)
		fslab_info("the logs of an earlier recovery run that did not finish (%s) are replayed: "
			   "this run makes no load of its own", JS_LOG_CHECKPOINT);
	return ret;
}

/* Every database has left its log files (its current one is past them), or none can. */
static bool logs_left(struct recovery *rv, uint64_t logs)
{
	for (unsigned int i = 0; i < rv->ndb; i++)
		if (__atomic_load_n(&rv->db[i].db->log_gen, __ATOMIC_RELAXED) <= logs)
			return false;
	return true;
}

/* With db's threads joined: its pages the unclean stop left behind the log (dirty, their first
 * unwritten change durable: the replay must redo each of them). */
static uint64_t pages_behind(const struct js_db *db)
{
	uint64_t n = 0;

	for (uint32_t s = 0; s < db->nused; s++)
		n += (db->slots[s].flags & SLOT_DIRTY) && db->slots[s].first_end <= db->flushed;
	return n;
}

/*
 * The load until every database has left o->recovery_logs log files (at most --duration),
 * then the unclean stop: every thread halted where it is, nothing more flushed, the current
 * log closed.  0, or -EINTR when the run was stopped (the checkpoint stays: the next run
 * replays what is there).
 */
static int rv_load(struct run_ctx *rc, struct recovery *rv)
{
	const struct run_config *o = rc->o;
	uint64_t t0 = now_ns(), limit = run_config_ns(o->duration_s);
	int ret;

	fslab_info("recovery: the load runs until each database has left %u log files, then "
		   "stops uncleanly", o->recovery_logs);
	ret = js_start(rc);
	while (!ret && !*rc->stop && !logs_left(rv, o->recovery_logs) && now_ns() - t0 < limit)
		sleep_until_ns(now_ns() + 20 * NSEC_PER_MSEC);
	for (unsigned int i = 0; i < rv->ndb; i++)
		__atomic_store_n(&rv->db[i].db->halt, 1, __ATOMIC_RELEASE);
	js_stop(rc);
	rv->load_seconds = (now_ns() - t0) / 1e9;
	for (unsigned int i = 0; i < rv->ndb; i++) {
		struct js_db *db = rv->db[i].db;

		os_close(db->log_file);
		db->log_file = NULL;
		rv->db[i].first = 1;
		rv->db[i].last = db->log_gen;
		rv->db[i].pages_behind = pages_behind(db);
	}
	if (ret || *rc->stop)
		return ret ? ret : -EINTR;
	if (!logs_left(rv, o->recovery_logs))
		result_add_note(rc->res, "the load reached --duration before every database had left "
				"%u log files: what it left is replayed", o->recovery_logs);
	fslab_info("recovery: unclean stop after %.1f s; replaying", rv->load_seconds);
	return 0;
}

static int rv_prepare(struct run_ctx *rc)
{
	struct recovery *rv = rv_of(rc);
	int ret = js_prepare_dbs(rc, !rv->interrupted);

	if (ret || rv->interrupted)
		return ret;
	for (unsigned int i = 0; i < rv->ndb && !ret; i++) {
		js_cache_hold(rv->db[i].db, JS_CHECKPOINT_DEPTH);
		ret = ckpt_write(rv->db[i].db, &rv->db[i]);
	}
	return ret ? ret : rv_load(rc, rv);
}

static int rv_start(struct run_ctx *rc)
{
	struct recovery *rv = rv_of(rc);

	for (unsigned int i = 0; i < rv->ndb; i++) {
		struct rv_db *r = &rv->db[i];
		int ret;

		r->rc = rc;
		r->rv = rv;
		r->st = engine_stats_new(&rc->eng, (int)i);
		ret = pthread_create(&r->tid, NULL, rv_replay_main, r);
		if (ret) {
			fslab_err("cannot start the replay threads: %s", strerror(ret));
			return -ret;
		}
		r->started = true;
	}
	return 0;
}

static void rv_stop(struct run_ctx *rc)
{
	struct recovery *rv = rv_of(rc);

	for (unsigned int i = 0; rv && i < rv->ndb; i++)
		if (rv->db[i].started)
			pthread_join(rv->db[i].tid, NULL);
}

static void rv_cleanup(struct run_ctx *rc)
{
	struct js *js = js_of(rc);
	struct recovery *rv = js ? js->recovery : NULL;

	for (unsigned int i = 0; rv && i < rv->ndb; i++) {
		for (size_t k = 0; k < rv->db[i].nlog; k++)
			free(rv->db[i].log[k].db);
		free(rv->db[i].log);
		free(rv->db[i].problem);
	}
	if (rv)
		free(rv->db);
	free(rv);
	if (js)
		js->recovery = NULL;
	js_cleanup(rc);
}

/* The checkpoints go once every database replayed cleanly: the logs are in the databases. */
static void remove_checkpoints(struct run_ctx *rc, const struct recovery *rv)
{
	for (unsigned int i = 0; i < rv->ndb; i++) {
		const struct rv_db *r = &rv->db[i];
		/* the file read or written, by the folder's handle: another one at its name
		 * (-ESTALE) is left as it is */
		int ret = os_dirh_remove_file(r->db->logd, JS_LOG_CHECKPOINT, r->ckpt_id.ino);

		if (!ret)
			ret = os_dirh_sync(r->db->logd);
		if (ret && !rc->res->aborted)
			fslab_warn("cannot remove %s/%s (%s): the next recovery run replays these logs "
				   "again", r->db->log_dir, JS_LOG_CHECKPOINT, ret == -ESTALE ?
				   "another file or a link took its name" : strerror(-ret));
	}
}

static int rv_finish(struct run_ctx *rc)
{
	struct recovery *rv = rv_of(rc);
	struct fslab_result *r = rc->res;
	bool clean;

	rv_results(rc, rv);
	clean = rv_verdict(rc, rv);
	if (clean && !r->aborted)
		remove_checkpoints(rc, rv);
	else if (!r->aborted)
		result_add_note(r, "the replay found problems: the %s files stay, so another "
				"recovery run replays the logs again", JS_LOG_CHECKPOINT);
	return 0;
}

static void rv_describe(const struct run_config *c, FILE *f)
{
	js_describe(c, f);
	fprintf(f, ", a load leaving %u log files per database, replayed", c->recovery_logs);
}

const struct workload_ops workload_recovery = {
	.name = "recovery",
	.help = "Jetstress's soft recovery test: the jetstress load until it leaves "
		"--recovery-logs log files, an unclean stop, then their replay timed per log file",
	.flags = WL_DATABASES | WL_LOG | WL_THREAD_PER_DB | WL_DSYNC | WL_PAGES | WL_FINITE |
		 WL_REPLAY,
	.config = rv_config,
	.describe = rv_describe,
	.summary = rv_summary,
	.check = rv_check,
	.prepare = rv_prepare,
	.start = rv_start,
	.stop = rv_stop,
	.finish = rv_finish,
	.cleanup = rv_cleanup,
};
