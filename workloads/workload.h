/* SPDX-License-Identifier: MIT */
/* workload.h: the interface between `fslab run` and a workload model. */
#ifndef FSLAB_WORKLOAD_H
#define FSLAB_WORKLOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "result.h"
#include "util.h"
#include "volume.h"

/* Options of `fslab run` after parsing and defaulting. */
struct run_opts {
	const char *workload, *engine, *label, *output;
	char **db_dirs, **log_dirs;
	size_t ndb_dirs, nlog_dirs;
	unsigned int threads, databases, iodepth, compressibility, rwmixread;
	uint64_t db_size, bs, cache_size, seed;
	uint64_t duration_ns, warmup_ns;
	double bdm_mbps;
	bool direct, checksum_pass, verify_reads;
	bool fresh; /* --fresh: what check() found was deleted since; create everything anew */
};

/* Why a run ends early (*run_ctx.stop): 0 = it does not. */
enum {
	RUN_STOP_SIGNAL = 1, /* SIGINT / SIGTERM */
	RUN_STOP_FAILED = 2, /* a load thread hit an error it cannot go on from */
};

/* Everything a workload needs while it runs. */
struct run_ctx {
	const struct run_opts *o;
	struct engine eng;
	struct fslab_result *res;
	/* volumes of the database and log directories, in option order */
	struct volume *db_vols, *log_vols;
	bool direct;            /* O_DIRECT in use (false when a filesystem refused it) */
	/* RUN_STOP_* when the run must end early: set by the signal handler and by load
	 * threads, read by everyone (C11 atomic: lock-free on every target, signal-safe) */
	atomic_int *stop;
	char *fail_reason;      /* the first failure that stopped the run (run_fail()), owned */
	void *priv;             /* the workload's */
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
struct workload_ops {
	const char *name;
	const char *help;
	bool needs_log;  /* requires --log */
	int (*check)(struct run_ctx *rc);
	int (*prepare)(struct run_ctx *rc);
	int (*start)(struct run_ctx *rc);
	void (*stop)(struct run_ctx *rc);
	int (*finish)(struct run_ctx *rc);
	void (*cleanup)(struct run_ctx *rc);
};

extern const struct workload_ops wl_jetstress;
extern const struct workload_ops wl_randread, wl_randwrite, wl_randrw, wl_seqwrite;

/* Workload by name, or NULL. */
const struct workload_ops *workload_find(const char *name);
/* Comma-separated list of workload names, for messages. */
const char *workload_names(void);

/*
 * run_fail - a load thread hit an error it cannot go on from: say so loudly (fslab: error:
 * <message>), keep the first such message in rc->fail_reason (the result's abort_reason) and
 * stop the run (RUN_STOP_FAILED, unless a signal stopped it first).  Thread-safe.
 */
void run_fail(struct run_ctx *rc, const char *fmt, ...) __printf(2, 3);

/* Bytes allocated to the file at path (0 when there is none): what recreating it frees. */
uint64_t workload_file_blocks(const char *path);

struct db_place;
struct db_info;
/*
 * workload_init_file - reuse the database (or data file) at pl when state says DB_VALID,
 * otherwise create it with real data (db_create), counting into rc->res->init and saying
 * which it did.  what names it in messages ("database", "data file").  0 or -errno (-EINTR
 * when stopped).
 */
int workload_init_file(struct run_ctx *rc, const struct db_place *pl, int state,
		       uint64_t npages, uint64_t seed, struct db_info *info, const char *what)
	__attribute__((warn_unused_result));

/* Filesystem free-space check shared by workloads: need bytes on the filesystem of vol
 * (volumes on the same filesystem are summed by the caller).  -FSLAB_EINPUT when short. */
int check_free_space(const struct volume *vol, uint64_t need, const char *what)
	__attribute__((warn_unused_result));

#endif
