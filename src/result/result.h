/* SPDX-License-Identifier: MIT */
/* result.h: the result of one `fslab run`: structs, JSON ("fslab-result/1") write and read. */
#ifndef FSLAB_RESULT_H
#define FSLAB_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <jansson.h>

#include "result/classes.h"
#include "result/fidelity.h"
#include "lib/hist.h"

#define RESULT_SCHEMA "fslab-result/1"

/* One database instance (database file + its log stream + its BDM reader). */
struct instance_result {
	char *name;     /* "db1", ... */
	char *db_file;  /* path of the database file */
	char *log_dir;  /* directory of its log stream */
	struct class_result classes[CLS_NR];
	uint64_t log_rolls;            /* log files rolled (renamed) during the measurement */
	uint64_t log_nonsequential;    /* log writes that did not continue the previous one */
	uint64_t db_page_fault_stalls; /* session waits for a free database cache page */
	bool pass;                     /* this instance's verdict */
};

/* /sys/block/DEV/stat difference over the measured period for one device. */
struct device_result {
	char *role;   /* "db", "log", or "db+log" when both directories share a device */
	char *name;   /* kernel name, "loop0", "sda" */
	char *model;  /* /sys/block/DEV/device/model or "loop:<backing file>", may be "" */
	uint64_t read_ios, read_bytes, write_ios, write_bytes, discard_ios;
	uint64_t io_ticks_ms;
	double util_pct;            /* io_ticks / elapsed */
	double write_amplification; /* device bytes written / workload bytes written, 0 if none */
	double read_ratio;          /* device bytes read / workload bytes read, 0 if none */
	bool cache_served_reads;    /* read_ratio < 0.5: a cache served the reads */
};

struct host_result {
	double cpu_pct_avg, cpu_pct_max; /* all CPUs busy = 100 */
	double cpu_user_pct, cpu_sys_pct, cpu_iowait_pct;
	uint64_t mem_total, mem_used_avg, mem_used_max; /* bytes, host-wide (MemTotal - MemAvailable) */
	uint64_t fslab_rss_max;                         /* bytes, this process (VmHWM) */
	int ncpus;
};

struct verdict_check {
	char *scope;  /* "overall" or an instance name */
	char *name;   /* "db_read_avg_latency", "db_read_max_latency", "log_write_avg_latency",
			 "log_write_max_latency", "db_page_fault_stalls", "io_errors",
			 "checksum_errors"; "load_failures" only when a thread stopped the
			 run; opt-in "db_read_io_tail", "log_write_io_tail";
			 overall only "target_iops" */
	double value, limit;
	char *unit;   /* "ms", "count", "/s", "IOPS" */
	char *rule;   /* how value and limit decide: "avg <= limit", "samples above limit <= 6",
			 "stalls/s <= 1", "achieved >= target", ...; NULL in older files */
	bool pass;
	char *note;   /* e.g. "2 of 40 samples (15 s averages) above 100 ms; 6 tolerated", may
			 be NULL */
};

struct verdict {
	bool present, pass;
	size_t nchecks;
	struct verdict_check *checks;
};

struct checksum_result {
	bool ran;
	uint64_t pages, bad_pages, bytes;
	double seconds, mbps;
	char *first_bad; /* "db1 page 1234: crc mismatch", NULL when none */
};

/* Database initialisation: created fresh or reused. */
struct init_result {
	uint64_t bytes_written;
	double seconds, mbps;
	unsigned int reused, created; /* database files */
};

/*
 * Latency samples: the average latency of database reads and of log writes over each full
 * sampling interval (Jetstress's performance-counter samples), per database instance and
 * overall.  An interval without I/O of a class gives no sample of that class.
 */
enum lat_series_class {
	LS_DB_READ,
	LS_LOG_WRITE,
	LS_NR,
};
/* io_class of each series class: CLS_DB_READ, CLS_LOG_WRITE */
extern const int lat_series_cls[LS_NR];
/* JSON keys: "db_read_avg_ms", "log_write_avg_ms" */
extern const char *const lat_series_keys[LS_NR];

struct latency_series {
	char *scope;          /* instance name or "overall" */
	size_t n[LS_NR];
	double *avg_ms[LS_NR]; /* n[k] sample averages in ms, owned */
};

struct latency_samples {
	bool present;
	double interval_s;  /* sampling interval (config.sample_interval_s) */
	uint64_t intervals; /* full intervals measured (1 when partial) */
	bool partial;       /* measurement shorter than one interval: the one sample is partial */
	size_t nscopes;
	struct latency_series *scopes; /* owned */
};

/* Release the arrays of one series and zero it. */
void latency_series_release(struct latency_series *s);
/* The series of scope in ls, or NULL. */
const struct latency_series *latency_samples_find(const struct latency_samples *ls,
						  const char *scope);

/*
 * Steady state by the SNIA PTS rule (src/engine/steady.h): a window of W interval means is steady
 * when their range is within range_limit_pct of their mean and the least-squares line's
 * excursion across the window within excursion_limit_pct.  What the rule found on one series:
 */
enum steady_verdict {
	STEADY_UNKNOWN = 0,   /* not judged (not recorded) */
	STEADY_ATTAINED,      /* a window held: from_s .. to_s */
	STEADY_NOT_ATTAINED,  /* W intervals or more, no window held */
	STEADY_TOO_SHORT,     /* fewer than W full intervals: too short to judge */
	STEADY_NO_DATA,       /* the series has no value (a load without database reads) */
};
/* "attained", "not attained", "too short", "no data"; NULL for STEADY_UNKNOWN */
extern const char *const steady_verdict_names[];

struct steady_metric {
	int state;            /* enum steady_verdict */
	double from_s, to_s;  /* the window that held first (attained), else the last one; seconds
				 from the start of the series; NaN when there is none */
	bool holds_at_end;    /* the series' last window holds too */
	/* the window's figures: its mean, smallest and largest interval mean, their range in %
	 * of the mean, the least-squares slope per interval and its excursion across the
	 * window (|slope| x (W - 1)) in % of the mean; NaN when not computed */
	double mean, min, max, range_pct, slope, excursion_pct;
	size_t n;
	double *means;        /* the window's n interval means, owned */
};
/* Free m's means and zero it (state STEADY_UNKNOWN). */
void steady_metric_release(struct steady_metric *m);
/* The enum steady_verdict of a name of steady_verdict_names[], or -1. */
int steady_verdict_from_name(const char *name);

/* The rule a result was judged by, and what it found on its measured timeline. */
struct steady_state {
	bool present;
	unsigned int window;      /* W intervals */
	double interval_s;        /* seconds per interval */
	double range_limit_pct, excursion_limit_pct;
	struct steady_metric iops;        /* transactional IOPS (database reads + writes /s) */
	struct steady_metric db_read_lat; /* database read average latency, ms */
};

/*
 * The load run until the rule held (or a cap): a steady warm-up (--warmup steady), the
 * second stage of --precondition.  Nothing of it is measured; this is its record.
 */
struct steady_stage {
	bool present, attained;
	double seconds, cap_s;
	uint64_t bytes_read, bytes_written;  /* by the workload during the stage */
	struct steady_metric iops, db_read_lat; /* the window it ended on (seconds of the stage) */
};

/*
 * --precondition N (SNIA PTS): stage 1, workload-independent: every database file written
 * over N times sequentially (files, bytes, seconds and what the devices counted); stage 2,
 * workload-dependent: the run's own load until steady state (load).
 */
struct precondition_result {
	bool present;
	unsigned int passes, files;
	uint64_t bytes_written, device_bytes_written;
	double seconds;
	struct steady_stage load;
};

/*
 * --threads auto (src/engine/tune.h): the tuner's record, every step it tried and the count it
 * chose, which the measurement then ran at.  One step:
 */
struct tune_step {
	unsigned int threads;
	double seconds;          /* the step's whole time: settling and judgement */
	double settle_s;         /* until the slope test held (the whole step when it never did) */
	bool stable, pass;
	/* over the judged window (a step never stable: its last window): transactional IOPS
	 * (database reads + writes per second), the average latencies, stalls per second */
	double iops, db_read_ms, log_write_ms, stalls_per_s;
	unsigned int samples, above; /* verdict samples judged, those above the maximum */
	double excursion_pct;    /* the slope test's figure on the window that held (or the last) */
	char *why;               /* what failed it, or NULL */
};

struct tuning {
	bool present;
	unsigned int threads;    /* the count chosen: the measurement's */
	char *reason;            /* why that one ("the largest count that passed: ...") */
	double seconds;          /* the whole search */
	bool timed_out;          /* the search's time cap ended it */
	size_t nsteps;
	struct tune_step *steps; /* in the order they ran */
};

/* Free a tuning record's steps and reason, and zero it. */
void tuning_release(struct tuning *t);

/* fio's own steady-state detection (--steadystate), one job's "steadystate" object. */
struct fio_steadystate {
	char *job;           /* the job's name */
	char *ss;            /* the criterion as fio states it, "iops_slope:2.000000%" */
	double duration_s;   /* fio's ss_dur */
	bool attained;
	char *criterion;     /* what fio measured, "-1.218846%" */
	double max_deviation, slope, iops_mean, bw_mean;
};

/*
 * Per-second timeline of the measured period: columns named, rows of numbers.  Rows are in
 * data[], or, once timeline_spill() was called (fslab run: memory must not grow with the
 * duration), in a temporary file; timeline_row() reads either.
 */
struct timeline {
	size_t ncols, nrows, cap;
	char **cols;  /* owned */
	double *data; /* nrows * ncols, row-major, owned; NULL when spilled */
	FILE *spill;  /* unlinked temporary file of rows, or NULL */
};

/*
 * The configuration of one run: the options of `fslab run` (src/run/options.c fills it by
 * offset, the workload normalises what does not apply to it, workloads/workload.h), written
 * and read by the config fields of fslab-result/1 (src/result/result_fields.c).  One struct from the
 * command line to the file: nothing is copied field by field.
 */
struct run_config {
	char *workload;         /* "jetstress", "randread", ... */
	char *engine;           /* "io_uring" or "psync" */
	unsigned int threads, databases, iodepth;
	unsigned int rwmixread;       /* reads in randrw, percent */
	uint64_t db_size, bs, cache_size; /* bytes; db_size per database */
	double duration_s, warmup_s;
	uint64_t seed;
	unsigned int compressibility; /* percent */
	double bdm_mbps;              /* per database, 0 = off */
	bool buffered;                /* --buffered: no O_DIRECT asked for */
	bool no_checksum_pass, no_verify, no_drop_caches;
	char **db_dirs, **log_dirs;
	size_t ndb_dirs, nlog_dirs;
	/* how the verdict judged (jetstress; absent/zero in results of other workloads and of
	 * fslab versions before latency samples) */
	double sample_interval_s;        /* --sample-interval; 0 = not recorded */
	char *thresholds;                /* --thresholds: "strict" or "lenient"; NULL = unknown */
	unsigned int max_latency_errors; /* --max-latency-errors: samples tolerated above max */
	bool strict_io_tail;             /* --strict-io-tail: per-I/O tail checks in the verdict */
	double target_iops;              /* transactional IOPS to reach; 0 = no target */
	char *target_iops_origin;        /* "target-iops", "mailboxes" or NULL (no target) */
	unsigned int mailboxes;          /* --mailboxes, 0 when not given */
	double iops_per_mailbox;         /* --iops-per-mailbox, 0 when not given */
	/* steady state (src/engine/steady.h): --warmup steady (warmup_s 0: the warm-up lasts until the
	 * rule holds, at most steady_cap_s), the rule's window, interval and limits, and
	 * --precondition N (0: none) */
	bool warmup_steady;
	double steady_cap_s, steady_interval_s, steady_range_pct, steady_excursion_pct;
	unsigned int steady_window, precondition;
	/* --threads auto (src/engine/tune.h): threads is then the count the tuner chose; the search's
	 * rule.  Not recorded by a run at a fixed count (nor by older files) */
	bool threads_auto;
	unsigned int tune_window, tune_max_threads;
	double tune_interval_s, tune_slope_pct, tune_judge_s, tune_step_cap_s, tune_cap_s;
	/* --recovery-logs: log files the recovery workload's load leaves per database (0: not
	 * given, the workload's default) */
	unsigned int recovery_logs;
	/* the run itself, not written to the file (the label is the result's own field) */
	char *label, *output;
	bool force, quiet;
	unsigned int progress_fd;
	char *selftest;                  /* --selftest FILE: an fslab selftest record to embed */
	char *lab_id, *lab_cell;         /* --lab-*: where it stood in a lab (the result's "lab") */
	char *start_at;                  /* --start-at TIME: the load starts then (utctime.h); the
					    result records it as its own field start_at */
	unsigned int lab_round, lab_position;
	bool lab_fresh_volume;
	/* --fresh: databases and logs deleted and created anew (a lab's cell on volumes the user
	 * prepared), --allow-foreign-files; --stop-on-stdin-eof (the lab's stop channel) */
	bool fresh, allow_foreign_files, stop_on_stdin_eof;
	/* fields the result does not record, one bit per config field (run_config_set_na()) */
	uint64_t na;
};

/* Seconds of a config duration as nanoseconds (durations are whole nanoseconds when given). */
static inline uint64_t run_config_ns(double s)
{
	return !(s > 0) ? 0 : s < 1.8e10 ? (uint64_t)(s * 1e9 + 0.5) : UINT64_MAX;
}

/*
 * What a result does not record: a field of struct run_config (by its offset) that another
 * tool does not report (the importers), that an older fslab did not write, or that does not
 * apply to the workload.  Such a field is left out of the file (an absent key reads back as
 * not recorded) and never compared.  run_config_set_na() marks one (off must be a config
 * field of the file; others are ignored), run_config_clear_na() unmarks it (an importer that
 * starts from "nothing recorded"); run_config_has() is false for a marked one.
 */
void run_config_set_na(struct run_config *c, size_t off);
void run_config_clear_na(struct run_config *c, size_t off);
bool run_config_has(const struct run_config *c, size_t off);
/* run_config_set_untuned - a run at a fixed thread count: none of the tuner's settings
 * recorded (threads_auto and the tune_* fields).  run_config_tuned - the run chose its thread
 * count with --threads auto (src/engine/tune.h). */
void run_config_set_untuned(struct run_config *c);
bool run_config_tuned(const struct run_config *c);
/* The key of the config field at off in fslab-result/1 ("cache_size"), or NULL. */
const char *run_config_key(size_t off);
/* Free the config's strings and zero it. */
void run_config_release(struct run_config *c);

/*
 * Where a result came from (src/compare/import.c): fslab's own file or another tool's output
 * read by an importer.  In memory only (not part of fslab-result/1); compare shows it and
 * refuses to mix tools without --allow-mismatch.
 */
struct provenance {
	char *tool;    /* "fslab", "fio", "diskspd", "jetstress"; NULL = fslab (not set) */
	char *version; /* the tool's version as it reports it ("3.33", "2.2"), may be NULL */
	char *format;  /* "fio JSON+", "DiskSpd XML", ...; may be NULL */
	char *file;    /* the file read */
	char *host;    /* host the tool measured on (fio client: host:port), may be NULL */
};

/*
 * Where a run stood in a lab (fslab lab passes it to each cell's run with --lab-*; docs/
 * DESIGN.md "Result file").  id NULL: a hand run (fslab run by itself).  compare analyses the
 * results of one lab's rounds as blocks, and the Method says what happened per label.
 */
struct lab_provenance {
	char *id;                      /* the lab's id (lab-state.json), NULL for a hand run */
	char *cell;                    /* the cell, "xfs-8t-r3" */
	unsigned int round, position;  /* its round and its place in the run order, from 1 */
	bool volume_formatted;         /* the lab formatted the volumes for this run */
	bool database_created;         /* this run created its database(s), none reused */
};

/*
 * A cluster result (fslab merge, src/merge/merge.h): one member host's result in brief, in
 * the cluster result's "hosts" array.  Times are the host's own clock; clock_offset_s is that
 * clock minus the controller's (the lab measures it over ssh).  NaN: not known.
 */
struct host_member {
	char *name;          /* the lab's [host NAME], or what fslab merge was told */
	char *status;        /* "ok", "aborted" (its run was), "failed" (no readable result),
				"missing" (no result: the host was lost) */
	char *reason;        /* why not "ok", or NULL */
	char *file;          /* the result file merged, NULL when missing */
	char *sha256;        /* of that file's bytes, NULL when missing */
	char *hostname;      /* its environment.hostname */
	double clock_offset_s, clock_rtt_s;
	char *start_at, *load_started_at, *measure_started_at;
	double start_delay_s;  /* load_started_at - start_at, on its clock */
	double start_offset_s; /* load start on the controller's clock after the earliest host's */
	double duration_s;
	double transactional_iops;
	struct class_result classes[CLS_NR]; /* its classes, without histograms */
	char *verdict;       /* "PASS", "FAIL", or NULL without one */
	size_t ndevices;
	struct device_result *devices; /* its device counters */
};

/* What makes a result a cluster result (present), the merge's view of its members. */
struct cluster_info {
	bool present;
	unsigned int hosts;    /* members */
	unsigned int complete; /* members whose result is in the sums */
	bool partial;          /* complete < hosts: never a full cluster */
	double start_spread_s; /* latest - earliest load start, controller's clock (NaN) */
	double clock_spread_s; /* largest - smallest clock offset measured (NaN) */
	double clock_limit_s;  /* clock disagreement above which it warns */
	char *timeline;        /* how timelines were aligned: "wall-clock" or "second index" */
};

/*
 * The recovery workload (soft recovery, workloads/recovery.c): a load that leaves log files, an
 * unclean stop, then a replay of those logs into the database in order, timed per log file.
 */
struct recovery_log {
	char *db;            /* the database instance, "db1" */
	uint64_t gen;        /* the log generation replayed */
	double seconds;      /* read the log, read the pages it names, write the changed ones */
	uint64_t records;    /* update records in it */
	bool whole;          /* its records reach its end (the last one a run wrote need not) */
	uint64_t applied;    /* records the database did not have yet (redone) */
	uint64_t pages_read, pages_written;
};

struct recovery_result {
	bool present;
	bool interrupted;         /* the logs were left by a run that was killed (this run made
				     no load of its own) */
	unsigned int logs_asked;  /* --recovery-logs: log files the load leaves per database */
	double load_seconds;      /* the load that made them (0 when interrupted) */
	double seconds;           /* the whole replay */
	uint64_t logs, records, applied, pages_read, pages_written, log_bytes;
	/* pages the unclean stop left behind the log (dirty, their first unwritten change
	 * durable: each must be redone; 0 when interrupted, which a killed run cannot tell), and
	 * the pages the replay applied records to */
	uint64_t pages_behind_log, pages_redone;
	/* records a page's time contradicts (ESE's JET_errDbTimeTooOld / TooNew: a lost write),
	 * pages that failed verification when read, and the first of them in words */
	uint64_t mismatches, bad_pages;
	char *first_problem;
	/* seconds per log file: mean, standard deviation, smallest, median, 95th percentile,
	 * largest */
	double per_log_mean, per_log_sd, per_log_min, per_log_p50, per_log_p95, per_log_max;
	size_t nlog;
	struct recovery_log *log; /* in replay order */
};

struct fslab_result {
	char *schema;
	char *label;
	char *fslab_version;
	char *started_at, *ended_at;
	/* fslab run --start-at: the start asked for, and when the load (warm-up) and the
	 * measurement began, UTC to the microsecond (utctime.h); NULL in older files */
	char *start_at, *load_started_at, *measure_started_at;
	double duration_s; /* measured seconds, after warm-up */
	bool aborted;
	char *abort_reason; /* NULL unless aborted */
	struct run_config config;
	json_t *environment; /* owned object: kernel, cpu, volumes[] (with prep.json) ... */
	struct class_result classes[CLS_NR];
	double transactional_iops; /* db_read iops + db_write iops */
	double transactions_per_s;
	uint64_t transactions;
	uint64_t db_page_fault_stalls; /* all instances: session waits for a free cache page */
	size_t ninstances;
	struct instance_result *instances;
	size_t ndevices;
	struct device_result *devices;
	struct host_result host;
	struct init_result init;
	struct timeline timeline;
	struct latency_samples latency_samples;
	struct verdict verdict;
	struct checksum_result checksum;
	json_t *notes; /* owned array of strings: loud warnings (O_DIRECT refused, ...) */
	struct lab_provenance lab; /* "lab": absent for a hand run */
	struct cluster_info cluster; /* a cluster result's (fslab merge); absent otherwise */
	size_t nhosts;
	struct host_member *hosts;   /* a cluster result's members, in the merge's order */
	struct provenance src; /* owned strings; all NULL for a result fslab run made */
	/* steady state (src/engine/steady.h): on the measured timeline; a steady warm-up's record; a
	 * precondition's; fio's own of an imported fio result */
	struct steady_state steady;
	struct steady_stage warmup;
	struct precondition_result precondition;
	struct tuning tuning; /* --threads auto: the tuner's steps and choice; absent otherwise */
	size_t nfio_ss;
	struct fio_steadystate *fio_ss;
	/* the load's shape against Jetstress's ratios (src/result/fidelity.h); a recovery workload's
	 * replay */
	struct fidelity fidelity;
	struct recovery_result recovery;
};

void result_init(struct fslab_result *r);
void result_release(struct fslab_result *r);
/* Free what r owns and zero it. */
void recovery_result_release(struct recovery_result *r);
/* Free what a member owns and zero it. */
void host_member_release(struct host_member *h);


/* timeline_init: columns copied.  timeline_add_row: ncols values copied. */
void timeline_init(struct timeline *t, const char *const *cols, size_t ncols);
void timeline_add_row(struct timeline *t, const double *row);
/* Column index by name, or -1. */
int timeline_col(const struct timeline *t, const char *name);
/* Keep further rows in an unlinked temporary file (rows already added move there).  0 or
 * -errno (then rows stay in memory). */
int timeline_spill(struct timeline *t);
/* Row i into row[ncols].  0, or -errno when a spilled row cannot be read. */
int timeline_row(const struct timeline *t, size_t i, double *row);
/* Rows [first, first + n) into rows[n * ncols] (one read of a spilled file, for a pass over
 * a long timeline).  0, -ERANGE beyond nrows, or -errno. */
int timeline_rows(const struct timeline *t, size_t first, size_t n, double *rows);

/*
 * What a result file's timeline may hold (result_read(), the importers): at most
 * TIMELINE_MAX_ROWS rows (48 days at fslab's one row per second; fslab run measures 30 days
 * at most) of TIMELINE_MAX_COLS columns (fslab writes 19); more is refused, naming the count.
 * Beyond TIMELINE_MEM_ROWS rows (18 h) the rows are kept in a temporary file
 * (timeline_spill()), so a long timeline costs disk, not memory.
 */
#define TIMELINE_MAX_ROWS (1u << 22)
#define TIMELINE_MAX_COLS 64
#define TIMELINE_MEM_ROWS (1u << 16)
void timeline_release(struct timeline *t);

/* Append a note (copied) to r->notes. */
void result_add_note(struct fslab_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Append a verdict check (strings copied, rule NULL). */
void verdict_add(struct verdict *v, const char *scope, const char *name, double value,
		 double limit, const char *unit, bool pass, const char *note);
/* The same with the rule that decided it ("avg <= limit"; copied, may be NULL). */
void verdict_add_rule(struct verdict *v, const char *scope, const char *name, double value,
		      double limit, const char *unit, const char *rule, bool pass,
		      const char *note);

/* result_to_json - new reference to the whole result as JSON. */
json_t *result_to_json(const struct fslab_result *r);
/* result_write - JSON to path atomically (temporary file + rename).  0 or -errno. */
int result_write(const struct fslab_result *r, const char *path)
	__attribute__((warn_unused_result));
/*
 * result_read - parse path into r (result_init()ed by it; result_release() it even on error).
 * Returns 0, or -FSLAB_EINPUT after printing one line that names the file and the problem
 * (missing, truncated/invalid JSON, not an fslab result, unknown schema version).
 */
int result_read(const char *path, struct fslab_result *r)
	__attribute__((warn_unused_result));
/* result_from_buffer - the same from the file's text buf (len bytes) already read; what names
 * the source.  A long timeline's rows are read one at a time (no jansson tree of them). */
int result_from_buffer(const char *buf, size_t len, const char *what, struct fslab_result *r)
	__attribute__((warn_unused_result));
/* result_from_json - the same from an already parsed object; what names the source. */
int result_from_json(json_t *root, const char *what, struct fslab_result *r)
	__attribute__((warn_unused_result));

/*
 * What a result may hold (result_check.c).  The reader refuses a file that fails either
 * check, naming it, so every command that reads results (compare, merge, a resumed lab)
 * refuses the same things; compare applies result_implausible() to imported results too.
 * result_implausible - NULL, or what no run can produce: a negative or absurd rate, duration,
 * CPU share or latency, no threads.  NaN (not reported by an importer) is never out of range.
 * result_inconsistent - NULL, or (in buf) how the file contradicts itself: a latency
 * histogram that does not count the class's I/Os (wrong percentiles), a timeline longer than
 * the run (one row per measured second).
 */
const char *result_implausible(const struct fslab_result *r);
const char *result_inconsistent(const struct fslab_result *r, char *buf, size_t len);

/*
 * result_identity - what makes r one run, as RESULT_ID_LEN hex digits and a NUL in hex: its
 * host, start times, label and place in a lab, and what it measured (duration, counts,
 * rates, latency summaries and histogram buckets).  Two results with the same identity are
 * one run given twice (the same file twice, or a copy): compare and merge refuse them.  A
 * copy under another label is another identity (the A/A trick of a run relabelled): it can
 * make two labels look alike, never one label's repeats agree.
 */
#define RESULT_ID_LEN 64
void result_identity(const struct fslab_result *r, char hex[RESULT_ID_LEN + 1]);

#endif
