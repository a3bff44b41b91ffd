/* SPDX-License-Identifier: MIT */
/* workload.h: the interface between `fslab run` and a workload model. */
#ifndef FSLAB_WORKLOAD_H
#define FSLAB_WORKLOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/base.h"
#include "engine/engine.h"
#include "result/result.h"
#include "platform/volume.h"

/* Why a run ends early (*run_ctx.stop): 0 = it does not. */
enum {
	RUN_STOP_SIGNAL = 1, /* SIGINT / SIGTERM */
	RUN_STOP_FAILED = 2, /* a load thread hit an error it cannot go on from */
};

/*
 * A database (or data) file the workload initialised or reuses (workload_init_file() lists
 * them in run_ctx.files): what --precondition writes over.
 */
struct wl_file {
	char *path;           /* owned: for messages */
	struct os_dirh *d;    /* its directory's handle (the volume's, borrowed); NULL: raw */
	char *name;           /* owned: its name in d */
	uint64_t id;          /* the file db_create() made (db_place.id) */
	uint64_t base;        /* a raw device's slice starts here */
	bool raw;
	uint64_t npages;      /* 32 KiB pages, the header page included */
	uint64_t dbid, seed;  /* its db_info's */
	unsigned int compressibility;
};

/* Everything a workload needs while it runs. */
struct run_ctx {
	const struct run_config *o; /* the run's configuration (result.h), the result's own */
	struct engine eng;
	struct fslab_result *res;
	/* volumes of the database and log directories, in option order */
	struct volume *db_vols, *log_vols;
	bool direct;            /* O_DIRECT in use (false when a filesystem refused it) */
	/* RUN_STOP_* when the run must end early: set by the signal handler and by load
	 * threads, read by everyone (C11 atomic: lock-free on every target, signal-safe) */
	atomic_int *stop;
	char *fail_reason;      /* the first failure that stopped the run (run_fail()), owned */
	/* WL_FINITE: when its load ended on its own (run_done()), 0 while it goes on; atomic */
	uint64_t done_ns;
	void *priv;             /* the workload's */
	struct wl_file *files;  /* its database files, in the order initialised (owned) */
	size_t nfiles;
};

/*
 * What a workload is, for everything outside its own files (fio's ioengine_ops.flags): the
 * run, the lab, export and compare ask these, never the workload's name.
 */
enum {
	WL_VERDICT = 1 << 0,      /* judged as Jetstress judges: the verdict options, latency
				     samples per database, exit status 3 when it fails */
	WL_DATABASES = 1 << 1,    /* --databases instances (simple workloads: a data file per
				     --db directory; the config records 0 databases) */
	WL_LOG = 1 << 2,          /* a log stream per database: needs --log */
	WL_THREAD_PER_DB = 1 << 3, /* every database needs a thread of its own */
	WL_DSYNC = 1 << 4,        /* database and log writes are write-through (O_DSYNC) */
	WL_TRANSACTIONS = 1 << 5, /* a transactional load: achieved transactional IOPS, every
				     class of its model shown even when idle */
	WL_PAGES = 1 << 6,        /* I/O in 32 KiB database pages of its own sizes: --bs does not
				     apply (the config records its I/O size) */
	WL_THROUGHPUT = 1 << 7,   /* judged by throughput (MB/s): no transactional IOPS (n/a) */
	WL_FINITE = 1 << 8,       /* ends on its own (everything read once): the measurement
				     ends with it, --duration is its limit */
	WL_EXPORT_SHAPE = 1 << 9, /* its export is an approximation that takes the measured shape
				     of one of its results (fslab export --from) */
	WL_EXPORT_EXACT = 1 << 10, /* its export is the very load (fslab export --help lists them) */
	WL_REPLAY = 1 << 11,      /* a replay of log files timed per file (soft recovery): judged
				     by its time per log file, no transactional IOPS;
				     --recovery-logs */
};

/* The measured shape an approximated export follows (fslab export --from, else defaults). */
struct wl_shape {
	double read_pct;      /* database reads in % of database I/Os */
	uint64_t log_bytes;   /* log write size, a multiple of 4 KiB */
	double log_iops;      /* log writes per second per database; 0 = not throttled */
	const char *from;     /* the result the figures came from, or NULL (defaults) */
};

/* How a job of an export moves through its file (src/export/export_<tool>.c write them). */
enum wl_job_kind {
	WJ_PATTERN, /* a simple workload's pattern exactly as fslab drives it: random I/O with a
		       read share, or sequential writes in a region per thread; the file's
		       first offset bytes left alone */
	WJ_PAGES,   /* random reads and writes of bs with a read share, write-through */
	WJ_APPEND,  /* sequential write-through appends (a log stream), maybe throttled */
	WJ_SEQREAD, /* sequential reads, maybe throttled */
};

/* One stream of I/O of the load as another tool runs it (fslab export, docs/INTEROP.md). */
struct wl_job {
	enum wl_job_kind kind;
	char name[32];        /* "randread-1"; a class and a number for the others ("db1",
				 "log1", "bdm1": fio names them fslab-<name>, fslab compare
				 reads the class back from it) */
	char comment[80];     /* fio: a comment line above the job, or "" */
	const char *dir;      /* the directory of its file, as given */
	char file[16];        /* its file, fslab-<tool><file>.dat: "" or "-db1" */
	uint64_t size;        /* the file's size */
	uint64_t offset;      /* bytes at the file's start it leaves alone */
	uint64_t bs;
	unsigned int threads, iodepth;
	double read_pct;      /* WJ_PATTERN, WJ_PAGES: reads in % (100: reads only) */
	uint64_t region;      /* WJ_PATTERN: sequential writes, each thread a region of this
				 many bytes; 0: random */
	double rate;          /* WJ_SEQREAD: bytes per second, 0 unthrottled */
	double rate_iops;     /* WJ_APPEND: writes per second, 0 unthrottled */
};

/* The load as jobs (the workload's export hook fills it; wl_export_release() frees it). */
struct wl_export {
	struct wl_job *jobs;
	size_t njobs;
	bool once;            /* each job ends after one pass over its file (--duration a limit) */
	char *approx;         /* what the approximation keeps and loses, or NULL: exact */
};

/*
 * A workload.  Called in this order by run.c; each returns 0, -FSLAB_EINPUT (bad input, a
 * message printed, nothing written) or -errno.
 * - check:   validate options against the directories, find what exists, check free space.
 *            Must not write anything.
 * - prepare: create or reuse data files (phase PH_INIT, nothing measured); fill res->init.
 * - start:   start the load threads (they run through PH_WARMUP and PH_MEASURE).
 * - stop:    the phase is PH_STOP: wake and join every thread.
 * - finish:  after the load: per-instance results, checksum pass, verdict.
 * - cleanup: close files, free priv (also after a failed step).
 */
/*
 * What the user set among the options a workload's config hook may default: the run's
 * option parser fills it, so that a workload needs nothing of the run's option table.
 */
struct wl_given {
	bool iodepth; /* --iodepth */
};

struct workload_ops {
	const char *name;
	const char *help;
	unsigned int flags;  /* WL_* */
	/*
	 * config: fill what the options leave to the workload (its defaults) and normalise what
	 * does not apply to it (recorded as the value it uses, or not recorded:
	 * run_config_set_na()).  given: which of the options a workload may default were given
	 * (struct wl_given).  Called by `fslab run` and `fslab export` before any check.
	 */
	void (*config)(struct run_config *c, const struct wl_given *given);
	/* describe: its part of the summary's first line (", 1 database(s) x 4 GiB"). */
	void (*describe)(const struct run_config *c, FILE *f);
	/* summary: its lines before the summary's class table (may be NULL). */
	void (*summary)(const struct fslab_result *r, FILE *f);
	/* export: the load of c as jobs another tool runs (sh: the shape an approximation
	 * follows); NULL: it cannot be exported.  0 or -FSLAB_EINPUT (message printed). */
	int (*export)(const struct run_config *c, const struct wl_shape *sh,
		      struct wl_export *out);
	int (*check)(struct run_ctx *rc);
	int (*prepare)(struct run_ctx *rc);
	int (*start)(struct run_ctx *rc);
	void (*stop)(struct run_ctx *rc);
	int (*finish)(struct run_ctx *rc);
	void (*cleanup)(struct run_ctx *rc);
	/*
	 * set_threads: --threads auto (src/run/tune_run.c): between two steps of the tuner the
	 * load was stopped (stop() returned) and its thread count changed to rc->o->threads:
	 * size what follows from it, so that start() runs that many.  final: the count the
	 * measurement runs at (what the result's notes should say).  NULL: it cannot be tuned.
	 */
	int (*set_threads)(struct run_ctx *rc, bool final);
};

extern const struct workload_ops workload_jetstress, workload_recovery;
extern const struct workload_ops workload_randread, workload_randwrite, workload_randrw, workload_seqwrite;

/* Workload by name, or NULL. */
const struct workload_ops *workload_find(const char *name);
/* The flags of the workload called name; 0 for a name no workload has (an import's). */
unsigned int workload_flags(const char *name);
/* Comma-separated list of workload names, for messages. */
const char *workload_names(void);
/* The same of the workloads with every flag of flags ("jetstress"). */
const char *workload_names_with(unsigned int flags);

/* A new job at the end of x (zeroed but for kind, name and dir). */
struct wl_job *wl_export_add(struct wl_export *x, enum wl_job_kind kind, const char *dir,
			     const char *fmt, ...) __printf(4, 5);
void wl_export_release(struct wl_export *x);
/* Threads of unit i when threads are spread round-robin over n units (databases, dirs). */
unsigned int wl_threads_of(unsigned int threads, size_t n, size_t i);

/*
 * run_done - a WL_FINITE workload's load is complete: the measurement ends now (the first
 * call counts).  Thread-safe.
 */
void run_done(struct run_ctx *rc);

/*
 * run_fail - a load thread hit an error it cannot go on from: say so loudly (fslab: error:
 * <message>), keep the first such message in rc->fail_reason (the result's abort_reason) and
 * stop the run (RUN_STOP_FAILED, unless a signal stopped it first).  Thread-safe.
 */
void run_fail(struct run_ctx *rc, const char *fmt, ...) __printf(2, 3);

/* Free rc's list of files. */
void wl_files_release(struct run_ctx *rc);

/* What an error creating or opening a workload's file in a --db or --log directory means:
 * for a name someone else took meanwhile (-ESTALE, -EEXIST, -ELOOP, -ENOTDIR: dbfile.h, os.h
 * "directories someone else may write") a sentence saying so; else strerror. */
const char *workload_place_error(int err);

struct db_place;
struct db_info;
/*
 * workload_init_file - reuse the database (or data file) at pl when state says DB_VALID,
 * otherwise create it with real data (db_create), counting into rc->res->init and saying
 * which it did, and list it in rc->files.  what names it in messages ("database", "data
 * file").  0 or -errno (-EINTR when stopped).
 */
int workload_init_file(struct run_ctx *rc, struct db_place *pl, int state,
		       uint64_t npages, uint64_t seed, struct db_info *info, const char *what)
	__attribute__((warn_unused_result));

/* The IO_HINT_* (io/ioengine.h) for I/O on vol: IO_HINT_NO_NOWAIT when its filesystem refuses
 * non-blocking I/O (vol->nowait == 0). */
unsigned int workload_io_hints(const struct volume *vol);

/* Filesystem free-space check shared by workloads: need bytes on the filesystem of vol
 * (volumes on the same filesystem are summed by the caller).  -FSLAB_EINPUT when short. */
int check_free_space(const struct volume *vol, uint64_t need, const char *what)
	__attribute__((warn_unused_result));

#endif
