/* SPDX-License-Identifier: MIT */
/*
 * jetstressP.h: the Jetstress workload's private state (databases, page-ID cache, log
 * stream, threads) shared by its files:
 *   jetstress.c          the workload ops (check, prepare, start, stop, finish), error notes
 *   jetstress_config.c   what it records, says and exports: config defaults, summary, export
 *   jetstress_cache.c    the page-ID cache and dirty queue
 *   jetstress_load.c     session threads and the lazy writer (checkpoint)
 *   jetstress_log.c      the log stream: files, rolls, the log writer thread
 *   jetstress_bdm.c      the background database maintenance reader
 *   jetstress_checksum.c the checksum pass after the load
 */
#ifndef FSLAB_JETSTRESSP_H
#define FSLAB_JETSTRESSP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/base.h"
#include "dbfile.h"
#include "io/ioengine.h"
#include "jetstress.h"
#include "os/os.h"
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
	uint64_t dbtime; /* the page's time: read from its header, set by every change */
	uint64_t lsn;    /* the log stream's end after its last change's record (write-ahead
			    logging: the page is written only once the log is durable there) */
	uint64_t first_end; /* the log stream's end after the record of its first change since
			       it was last clean: where a replay must start redoing it */
	uint32_t next;   /* hash chain */
	uint32_t flags;
};

#define LOG_BUFFER (1024 * 1024) /* unflushed log bytes before sessions wait */
/* The body of a log record is taken from a buffer of this many random bytes at a varying
 * offset (the changed data: incompressible, or --compressibility). */
#define LOG_PAYLOAD (64 * 1024)
#define LOG_LAZY_FLUSH_BYTES (32 * 1024)
#define LOG_LAZY_FLUSH_NS (100 * NSEC_PER_MSEC)

/* Raw-device baseline: each database's log stream is a region of the log device holding
 * this many 1 MiB "files" used round-robin (current, spare, kept generations). */
#define RAW_LOG_SEGS (JS_LOG_KEEP + 2)
#define JS_BAD_KEEP 64
/* BDM reads 256-512 KiB sequentially (shared/design.md); fslab's reader uses 256 KiB */
#define JS_BDM_IO (256 * 1024)
#define RAW_LOG_REGION ((uint64_t)RAW_LOG_SEGS * JS_LOG_FILE_SIZE)

/*
 * One lazy-writer thread of a database: up to depth page writes in flight through its own I/O
 * context (js_writer_threads(): one thread with an asynchronous back end, one per write with
 * psync, whose writes complete inside submit).  Its I/O units: ios[k] writes slot slot_of[k]
 * at page time time_of[k] from bufs + k pages; free[0..nfree) are the units not in flight.
 */
struct js_writer {
	struct js_db *db;
	pthread_t tid;
	bool started;
	struct thread_stats *st;
	unsigned int depth, nfree;
	struct io_u *ios;
	uint32_t *slot_of, *free;
	uint64_t *time_of;
	void *bufs;
};

struct js_db {
	int idx;
	char name[16];
	char *path, *log_dir; /* for messages; raw: the devices */
	char file_name[32], log_name[32]; /* fslab-dbN.edb, fslab-dbN-logs */
	struct db_place place; /* the database file, by the --db directory's handle */
	struct os_dirh *log_parent; /* the --log directory (the volume's handle, borrowed) */
	struct os_dirh *logd; /* the log folder in it, opened once (owned) */
	bool raw;             /* the database and its log live on raw devices */
	uint64_t base;        /* byte offset of page 0 (raw: the slice of the device) */
	uint64_t log_base;    /* raw: byte offset of this log stream's region */
	struct os_file *file; /* the database, shared by its sessions, writer and BDM */
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
	unsigned int sessions, wdepth; /* sessions of this database, lazy writer's depth */
	uint64_t dbtime;           /* the database's clock: the last page time a change gave */
	unsigned int stalled;      /* sessions waiting for a clean page */
	uint64_t bdm_lo, bdm_hi; /* page range BDM is reading: the writer keeps out */
	uint64_t lsn_end;          /* the log stream's end after the last change */
	/* the lazy writer's hold (js_cache_hold()): with ckpt_depth 0 it writes every page as
	 * soon as the log allows (the jetstress load); else a dirty page waits until its first
	 * unwritten change is ckpt_depth log bytes behind lsn_end, more than dirty_max pages are
	 * dirty or being written (nwriting), or sessions wait for clean pages */
	uint64_t ckpt_depth;
	uint32_t dirty_max, nwriting;

	/* log stream, guarded by lmu: records are appended at LSN appended into the ring lring
	 * (LSN x at x % lring_size), the log writer writes them out up to flushed */
	pthread_mutex_t lmu;
	pthread_cond_t lcv_work, lcv_done;
	uint64_t appended, flushed, last_flush_ns;
	uint64_t need;               /* the furthest LSN a durable commit waits for */
	unsigned char *lring;
	uint64_t lring_size;
	void *lpayload;              /* LOG_PAYLOAD bytes the records' bodies come from */
	uint64_t durable;            /* flushed, read without lmu (atomic) */
	uint64_t log_req;            /* the lazy writer needs the log durable up to here */
	int wal_wait;                /* atomic: the lazy writer waits for the log */
	uint64_t durable_commits;    /* commits that waited for the log, measured */
	uint64_t log_keep;           /* rolled generations kept (circular logging) */
	int halt;                    /* atomic: stop at once, nothing flushed (unclean stop) */
	struct os_file *log_file;
	uint64_t log_gen;            /* generation of the current E00.log */
	uint64_t prev_off, prev_end; /* previous log write, for the sequentiality check */
	uint64_t rolls, nonseq, roll_ns_sum, roll_ns_max, log_deleted;

	struct js_writer *writers; /* the lazy writer's threads */
	unsigned int nwriters;
	pthread_t logger, bdm;
	bool logger_started, bdm_started;
	struct thread_stats *lst, *bst;
	char *first_bad; /* first checksum failure seen during the load, under mu */
	/* pages the load found bad (distinct, the first JS_BAD_KEEP), under mu: the checksum
	 * pass counts them even when the lazy writer has rewritten them since */
	uint64_t bad_pg[JS_BAD_KEEP];
	unsigned int nbad_pg;
	char *first_err; /* first I/O error seen during the load, under mu */
	char *fatal;     /* first failure that stopped a thread of this database, under mu */
	uint64_t nfatal; /* threads of this database that stopped on a failure, under mu */
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
	uint64_t log_files;  /* rolled log generations kept (circular logging beyond) */
	void *recovery;      /* the recovery workload's state (recovery.c), or NULL */
};

static inline struct js *js_of(struct run_ctx *rc)
{
	return rc->priv;
}

/* The load goes on (the engine's phase is not PH_STOP, the database was not halted). */
static inline bool js_running(const struct js_db *db)
{
	return engine_running(&db->rc->eng) && !__atomic_load_n(&db->halt, __ATOMIC_ACQUIRE);
}

/* ---- jetstress_cache.c: page-ID cache, all with db->mu held ---- */
/* Slot holding pgno, or NONE. */
uint32_t js_cache_lookup(struct js_db *db, uint64_t pgno);
/* A free or evictable (clean, idle) slot, unlinked; NONE when every slot is dirty or busy. */
uint32_t js_cache_victim(struct js_db *db);
/* Put pgno into slot s with flags. */
void js_cache_insert(struct js_db *db, uint32_t s, uint64_t pgno, uint32_t flags);
void js_dirtyq_push(struct js_db *db, uint32_t s);
uint32_t js_dirtyq_pop(struct js_db *db);
/* Put s back at the head of the queue (the page it popped must wait). */
void js_dirtyq_unpop(struct js_db *db, uint32_t s);
/* Slot s was modified: dirty, queued for the writer, which is woken. */
void js_mark_dirty(struct js_db *db, uint32_t s);
/*
 * js_cache_hold - the lazy writer keeps ESE's checkpoint depth instead of writing every page
 * at once (the recovery workload's load: a crash then leaves dirty pages behind the log, as
 * ESE's does): a dirty page is written once its first unwritten change is depth bytes of log
 * behind, or to keep ESE's pool of clean pages (2 % of the cache, JET_paramStopFlushThreshold,
 * at least JS_CACHE_PAGES_PER_SESSION per session), or when sessions wait for clean pages.
 * Before the load starts.
 */
void js_cache_hold(struct js_db *db, uint64_t depth);
/* Allocate the cache for cache_size bytes of pages (js_cache_slots(): at most half the
 * database, at least what db->sessions and db->wdepth hold in flight). */
void js_cache_setup(struct js_db *db, uint64_t cache_size);

/* ---- jetstress.c: the workload's steps, shared with the recovery workload ---- */
/*
 * js_check_logs - the jetstress check (databases, their files, free space) with log_files
 * rolled log files kept per database (JS_LOG_KEEP: circular logging); rc->priv becomes the
 * struct js.  0 or -FSLAB_EINPUT.
 */
int js_check_logs(struct run_ctx *rc, uint64_t log_files);
/* js_prepare_dbs - create or reuse the databases, open them, set up their caches and log
 * rings; with reset_logs, remove an earlier run's log files and start new ones.  0 or -errno. */
int js_prepare_dbs(struct run_ctx *rc, bool reset_logs);
/* Start the sessions, lazy writers, log writers and BDM readers; wake and join them. */
int js_start(struct run_ctx *rc);
void js_stop(struct run_ctx *rc);
void js_cleanup(struct run_ctx *rc);

/* ---- jetstress.c: first errors, said once and kept for the result's notes ---- */
/* A page failed verification (counted as a checksum error in st). */
void js_note_bad_page(struct js_db *db, struct thread_stats *st, uint64_t pgno, const char *why);
/* An I/O failed or came back short. */
void js_note_io_error(struct js_db *db, const struct io_u *io);
/*
 * js_fail - a thread of db cannot go on (its I/O set-up failed, a log roll or the spare log
 * file failed, submitting failed): the run stops (run_fail) and the verdict fails with a
 * load_failures check naming the first message.  With st, the failure also counts as an I/O
 * error of class cls.  Call without db->mu or db->lmu held.
 */
void js_fail(struct js_db *db, struct thread_stats *st, int cls, const char *fmt, ...)
	__printf(4, 5);

/* ---- thread bodies (arg: struct js_session * for sessions, struct js_writer * for the lazy
 * writer, struct js_db * otherwise) ---- */
void *js_session_main(void *arg); /* jetstress_load.c */
void *js_writer_main(void *arg);  /* jetstress_load.c */
void *js_logger_main(void *arg);  /* jetstress_log.c */
void *js_bdm_main(void *arg);     /* jetstress_bdm.c */

/* ---- jetstress_config.c: the hooks of struct workload_ops outside the run ---- */
void js_config(struct run_config *c, const struct wl_given *given);
void js_describe(const struct run_config *c, FILE *f);
void js_summary(const struct fslab_result *r, FILE *f);
/* The load's shape line (and why a ratio is out of its band), when there is one. */
void js_summary_shape(const struct fidelity *fd, FILE *f);
int js_export(const struct run_config *c, const struct wl_shape *sh, struct wl_export *x);

/* jetstress_log.c: remove log files of an earlier run, create E00.log and the spare and open
 * E00.log (raw: fill the first two segments).  0 or -errno. */
int js_reset_logs(struct js_db *db);
/* jetstress_log.c: the log ring and the records' payload of db (sessions: its sessions; the
 * payload from the run's seed), the generations it keeps (js->log_files). */
void js_log_setup(struct js_db *db, unsigned int sessions, uint64_t seed);
/*
 * js_log_room - wait (without db->mu) until db's log ring has room for a record, as ESE's
 * sessions wait when the log buffer is full.  false when the load stops.
 */
bool js_log_room(struct js_db *db);
/*
 * js_log_append - with db->mu held (a change and its record get their order together, as ESE
 * logs a change under the page latch): append the update record r (its type, flags, txn,
 * session, pgno and page times set; len its size) with its body from db->lpayload at off;
 * r->lsn gets its LSN.  Returns the LSN past it (what a commit waits for).  The room was
 * made by js_log_room().
 */
uint64_t js_log_append(struct js_db *db, struct js_lrec *r, size_t off);
/*
 * js_log_commit - a commit: durable ones (not lazy) wait until the log is on disk up to end
 * (and count as durable commits while measured).  false when the load stops.
 */
bool js_log_commit(struct js_db *db, uint64_t end, bool lazy);
/*
 * js_log_need - with db->mu held: the lazy writer needs the log durable up to lsn before it
 * may write a page (write-ahead logging); the log writer is asked to write it when the cache
 * is short of clean pages (ESE's buffer manager asks for a log write then:
 * ErrBFIPrepareFlushPage(), bf.cxx), else it follows the commits and the lazy flush.
 */
void js_log_need(struct js_db *db, uint64_t lsn, bool urgent);

/*
 * js_checksum_pass - jetstress_checksum.c: read and verify every page of every database into
 * rc->res->checksum.  Pages the load found bad count as bad pages too (first_bad says so when
 * they read fine now: rewritten since).  Returns how many of the bad pages are such pages,
 * already counted by the load's checksum errors.  A pass that cannot run or finish says why
 * in a note.
 */
uint64_t js_checksum_pass(struct run_ctx *rc);

#endif
