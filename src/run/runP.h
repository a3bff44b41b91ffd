/* SPDX-License-Identifier: MIT */
/* runP.h: the state of one `fslab run`, shared by the files of src/run/ (not used elsewhere). */
#ifndef FSLAB_RUNP_H
#define FSLAB_RUNP_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine/engine.h"
#include "platform/sampler.h"
#include "os/os.h"
#include "result/result.h"
#include "run/options.h"
#include "platform/volume.h"
#include "workloads/verdict.h"
#include "workloads/workload.h"

/* Latency samples per instance and overall while the load runs (jetstress). */
struct samplers {
	size_t n;                     /* instances + 1; the last one is "overall" */
	struct lat_sampler *ls;
	struct engine_sample *prev;   /* cumulative counters at the previous second */
};

struct run_state {
	struct run_params p;  /* parsing the options into res.config (run/options.h) */
	bool drop_caches, raw;
	int progress_fd;
	const struct js_thresholds *th; /* I/Os above its maximum are counted per class */
	const struct workload_ops *wl;
	struct run_ctx rc;
	struct fslab_result res; /* res.config: the run's configuration, from the options on */
	struct sampler host;
	size_t ndb_vols, nlog_vols;
	struct devstat *dev_before, *dev_after;
	bool caches_dropped;
	json_t *selftest;     /* --selftest: the record embedded in the environment, or NULL */
	struct samplers smp;
	/* --start-at (startat.c): the requested start (ns since 1970 UTC, 0 = none); the wall
	 * clock when the load began; how late it began when initialisation outlasted TIME */
	int64_t start_at_ns, load_wall_ns, start_late_ns;
	int *lock_fds; /* lock.c: locked --db and --log directories (os_lock_path) */
	struct os_id *lock_ids; /* and what they are */
	size_t nlocks;
};

/* run_volume - the i-th volume probed: the --db volumes, then the --log volumes. */
static inline struct volume *run_volume(struct run_state *s, size_t i)
{
	return i < s->ndb_vols ? &s->rc.db_vols[i] : &s->rc.log_vols[i - s->ndb_vols];
}

/* Set by the signal handler (RUN_STOP_SIGNAL) or a failed load thread (RUN_STOP_FAILED,
 * run_fail()): a lock-free C11 atomic, safe in both. */
extern atomic_int run_stop_flag;
extern volatile sig_atomic_t run_stop_signal;

/* block devices followed at most (db and log volumes) */
#define MAX_DEVS 32

/* cli.c: the options (run/options.h), how they go together, derived defaults.  0, 1 (--help
 * printed) or -FSLAB_EINPUT. */
int run_parse_args(struct run_state *s, int argc, char **argv);
/* cli.c: the second half of run_parse_args(), for options parsed into s->p already (fslab
 * export's, which come with its own): how they go together, derived defaults.  0 or
 * -FSLAB_EINPUT. */
int run_check_args(struct run_state *s);

/* checks.c: the directories, their volumes, O_DIRECT, the back end. */
int run_check_dirs(struct run_state *s);
int run_probe_volumes(struct run_state *s);
void run_probe_odirect(struct run_state *s);
void run_pick_engine(struct run_state *s);

/* lock.c: flock every --db and --log directory (or device), or -FSLAB_EINPUT naming the pid
 * of the run that holds one; unlock closes them (the kernel also drops them at exit). */
int run_lock_dirs(struct run_state *s);
void run_unlock_dirs(struct run_state *s);

/* fresh.c: --fresh (run.h: run_dir_scan).  run_fresh_check() refuses foreign files (nothing
 * changed; also --allow-foreign-files without --fresh, and devices), 0 or -FSLAB_EINPUT;
 * run_fresh_clear() deletes what fslab made, 0 or -errno. */
int run_fresh_check(struct run_state *s);
int run_fresh_clear(struct run_state *s);

/* measure.c: the timed load, progress, latency samples, device counters. */
void run_load(struct run_state *s);
/* One progress line: the tagged JSON line on --progress-fd, the live line on a terminal;
 * row: the timeline row of the second (NULL: nothing measured yet). */
void run_progress(struct run_state *s, const char *phase, double elapsed, double total,
		  const double *row);
void run_progress_end(struct run_state *s);
void run_snapshot_devices(struct run_state *s, struct devstat *out);
void run_device_results(struct run_state *s, const struct collect_extra *x);
void run_samplers_finish(struct run_state *s);
void run_samplers_free(struct samplers *m);

/*
 * steady_run.c: steady state (src/engine/steady.h).  run_precondition_files(): --precondition's first
 * stage, every database file written over (0 or -errno; a stop request ends it early with 0).
 * run_precondition_load(), run_steady_warmup(): after the load started, --precondition's
 * second stage, and (after the tuner) a steady warm-up (total: the progress lines' total
 * seconds).  run_until_steady(): one such stage,
 * the load until the rule holds or --steady-cap, recorded in *out.  run_steady_stages_max_s():
 * the longest the stages of c may take.  run_steady_finish(): the rule on the measured
 * timeline into the result.
 */
int run_precondition_files(struct run_state *s);
void run_precondition_load(struct run_state *s, double total);
void run_steady_warmup(struct run_state *s, double total);
void run_until_steady(struct run_state *s, const char *phase, double total,
		      struct steady_stage *out);
/* A second of a load that is not measured (a steady stage, the tuner's steps): wait until
 * next (ns), tick the host sampler, the warm-up counters now into *cur; false when stopped. */
bool run_warm_second(struct run_state *s, uint64_t next, struct engine_sample *cur);
double run_steady_stages_max_s(const struct run_config *c);
void run_steady_finish(struct run_state *s);
/* The summary's words: the warm-up ("30s", "until steady: 42 s, attained") into buf; the
 * precondition's and the steady state's lines. */
void run_warmup_text(const struct fslab_result *r, char *buf, size_t len);
void run_print_steady(const struct fslab_result *r, FILE *f);

/*
 * tune_run.c: --threads auto (src/engine/tune.h).  run_tune(): after the load started (and a
 * precondition's load), the tuner's steps, recorded in the result's tuning; the load then
 * runs at the count chosen (config.threads).  run_tune_max_s(): the longest it may take.
 */
void run_tune(struct run_state *s, double total);
double run_tune_max_s(const struct run_config *c);

/* startat.c: --start-at checked against the clock (-FSLAB_EINPUT when it has passed or is
 * more than a day ahead); the wait until it after initialisation (returns early on a stop
 * request); the result's start fields (start_at, load_started_at, measure_started_at). */
int run_start_at_check(struct run_state *s);
void run_wait_start(struct run_state *s);
void run_start_fields(struct run_state *s);

/* summary.c: the human summary on stdout. */
void run_print_summary(struct run_state *s, FILE *f);

#endif
