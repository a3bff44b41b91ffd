/* SPDX-License-Identifier: MIT */
/* compare.h: load result files, group repeats by label, refuse what is not comparable and
 * compute the comparison table model (values, intervals, deltas, significance).  No output. */
#ifndef FSLAB_COMPARE_H
#define FSLAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "result/result.h"
#include "lib/strvec.h"
#include "compare/blocked.h"
#include "compare/sequential.h"
#include "compare/stats.h"

/* Which way is better for a metric. */
enum metric_dir {
	DIR_NEUTRAL = 0, /* neither (log write average bytes) */
	DIR_HIGHER = 1,  /* IOPS, MB/s */
	DIR_LOWER = -1,  /* latencies, write amplification, CPU */
};

enum metric_kind {
	MK_RUNS,        /* text: number of runs (repeats) */
	MK_TOOL,        /* text: the tool that measured ("fio 3.33"), shown when not all fslab */
	MK_THREADS,     /* text: threads, shown when they differ */
	MK_MISMATCH,    /* text: --allow-mismatch differences */
	MK_TRANS_IOPS,  /* achieved transactional IOPS */
	MK_IOPS,        /* class ops/s */
	MK_MBPS,        /* class MB/s */
	MK_TOTAL_MBPS,  /* all classes MB/s */
	MK_LAT_MEAN,    /* class average latency, ms */
	MK_AVG_BYTES,   /* class average transfer size, bytes */
	MK_LAT_P99,     /* class p99 latency, ms */
	MK_LAT_P999,    /* class p99.9 latency, ms */
	MK_LAT_MAX,     /* class maximum latency, ms */
	MK_WA,          /* write amplification of the db or log device */
	MK_CACHE,       /* text: cache-served reads on the db device */
	MK_CPU,         /* host CPU %, all CPUs busy = 100 */
	MK_VERDICT,     /* text: PASS / FAIL with the failing checks */
	MK_MBPS_PER_DB, /* a class's MB/s per database: the mean of the instances' */
	MK_MEM,         /* host memory used (MemTotal - MemAvailable), GiB, average */
	MK_DEV_IOPS,    /* device counters of a role's device(s): reads + writes per second */
	MK_DEV_MBPS,    /* ... bytes read + written per second, MB/s */
	MK_DEV_UTIL,    /* ... busy time (io_ticks) in % of the measured time */
	MK_STEADY,      /* text: steady state by the SNIA PTS rule (or fio's), shown when recorded */
	MK_SHAPE,       /* text: the load's shape against Jetstress's ratios, Jetstress-like loads */
	MK_REPLAY,      /* a replay's seconds per log file: mean (its spread: the per-log times) */
	MK_REPLAY_P95,  /* ... its 95th percentile */
};

/* One row of the comparison table, in Jetstress's terms. */
struct metric_def {
	const char *id;   /* stable key for CSV/JSON: "trans_iops", "db_read_lat_avg", ... */
	const char *name; /* row title: "Database reads average latency (ms)" */
	const char *what; /* noun for generated sentences: "database read latency" */
	enum metric_kind kind;
	int cls;          /* enum io_class, or -1 */
	const char *role; /* MK_WA: device role "db" or "log" */
	enum metric_dir dir;
	int prec;         /* decimals when printed */
	bool hidden;      /* computed for charts, CSV and JSON, not a row of the printed tables */
	/* a row of workloads with these flags (workloads/workload.h), left out unless a result's
	 * workload has them; 0: every workload's */
	unsigned int for_flags;
};

enum cell_kind {
	CELL_NONE,    /* no data ("-") */
	CELL_TEXT,    /* text rows */
	CELL_VALUE,   /* one value, no interval */
	CELL_REPEATS, /* mean of the runs' values, interval from the repeats */
	CELL_BATCH,   /* the run value(s), interval from batch means over the timeline */
};

struct cmp_cell {
	enum cell_kind kind;
	struct sample s; /* n = samples (runs or batches), mean, sd, half width (NAN: none) */
	char *text;      /* CELL_TEXT, owned */
};

enum cmp_sig {
	SIG_NA,     /* not tested: single values, aborted run, cache-served reads, ... */
	SIG_NO,     /* Welch's t-test p (Holm-adjusted for headline rows) >= STATS_ALPHA */
	SIG_YES,    /* p < STATS_ALPHA */
	SIG_WITHIN, /* a label has one run: the difference with its within-run interval, no claim */
};

/*
 * What a tested difference decides, against an equivalence margin of +-m % (decide.c;
 * docs/COMPARE.md "Deciding"): the difference test (two-sided, Holm over the claims) and the
 * equivalence test (two one-sided tests against -m and +m, Holm over the same family).
 */
enum cmp_outcome {
	OUT_NONE = 0,   /* nothing decided: not tested (n/a, within one run) */
	OUT_DIFFERENT,  /* significant, and not inside the margin */
	OUT_EQUIVALENT, /* not significant, and inside the margin (both one-sided tests reject) */
	OUT_NEGLIGIBLE, /* significant, but inside the margin: real, smaller than it matters */
	OUT_UNDECIDED,  /* neither yet */
};

/* The margin when none is given: a difference below 5 % rarely changes a choice of
 * filesystem (Exchange sizing keeps 20 % headroom on every mailbox's IOPS: sizing.h). */
#define COMPARE_EQUIVALENCE_DEFAULT 5.0
/* Without a margin (--equivalence none) a significant difference this small (%) is still
 * "negligible", never a finding: the practical floor. */
#define COMPARE_FLOOR_PCT 1.0
/* How often a lab with nothing to find raises the A/A alarm by chance (the A/A copy's four
 * headline tests, Holm at 5 %): measured by relabelling real cells of one filesystem on both
 * recorded noise pools, labs that stop when decided and labs of fixed length
 * (tests/unit/test_relabel.c holds the measurement to this range). */
#define COMPARE_AA_CHANCE "1-4 %"
#define COMPARE_AA_CHANCE_LO 1.0
#define COMPARE_AA_CHANCE_HI 4.0
/* How far the estimate of the rounds (runs) still needed looks ahead. */
#define COMPARE_MAX_MORE 1000

/* The headline metrics: the claims of the summary, corrected together (Holm-Bonferroni). */
extern const char *const compare_headline[];
#define COMPARE_NHEADLINE 4
/* Is metric id a headline metric? */
bool compare_is_headline(const char *id);

/* A group's difference from the group it is compared against, for one metric. */
struct cmp_delta {
	bool present;
	int base;           /* group index compared against */
	double abs, pct;    /* group - base, and in % of base (NAN when base is 0) */
	enum cmp_sig sig;
	double p;           /* SIG_YES / SIG_NO: Welch's two-sided p-value, uncorrected */
	double p_holm;      /* headline rows: Holm-adjusted p that decides sig; NAN otherwise */
	bool corrected;     /* sig was decided on p_holm (a headline claim) */
	double half;        /* half width of the 95 % interval of abs (repeats or within-run) */
	double half_pct;    /* the same in % of the base */
	double mde, mde_pct; /* repeats: minimum detectable difference (95 %, 80 % power), NAN */
	const char *na_why; /* SIG_NA: why ("single values", "aborted run", ...) */
	int better;         /* SIG_YES only: +1 better, -1 worse, 0 for a neutral metric */
	/* how the test was made, for the MDE at the level of its family (compare.c correct()) */
	double se, df;      /* standard error (of abs; of the log ratio when blocked), its df */
	bool blocked;       /* tested on the blocked model: pct is the ratio exp(est) - 1 */
	double lo_pct, hi_pct; /* blocked: the ratio's 95 % interval, % of the base */
	/* the decision (decide.c) against the margin c->margin_pct (or the practical floor) */
	double p_eq;        /* TOST p, uncorrected; NAN when not tested */
	double p_eq_holm;   /* claims: Holm-adjusted over the family (as p_holm); NAN otherwise */
	double eq_lo_pct, eq_hi_pct; /* the 90 % interval TOST looks at, % of the base */
	enum cmp_outcome outcome;
	double margin_pct;  /* the margin it was judged against (the floor without one) */
	bool floor_only;    /* no margin given: equivalence is not asked, only the floor */
	double level;       /* the level its difference was decided at (STATS_ALPHA, or the
			       sequential boundary for a claim of a lab that stops when decided) */
	double more;        /* OUT_UNDECIDED: the further rounds (one lab's rounds) or runs per
			       label (Welch) a decision would need if the estimate and the noise
			       stayed as they are; INFINITY beyond COMPARE_MAX_MORE; NAN otherwise */
};

struct cmp_row {
	const struct metric_def *m;
	struct cmp_cell *cells;   /* one per group */
	struct cmp_delta *deltas; /* one per group (not present for the baseline) */
	/* a lab's rounds (compare.blocked): the row's blocked model, or why it has none */
	bool blocked;
	double s2, df;            /* its residual variance (log scale) and degrees of freedom */
	const char *unblocked_why; /* the row kept Welch's test: why ("a value of 0"), or NULL */
};

/* A cell whose blocked residual is extreme (|standardised residual| > 3): named, kept. */
struct cmp_outlier {
	size_t ri;          /* the result */
	const char *metric; /* the row's name */
	double z;           /* its standardised residual */
};

/* Results with the same label (and the same aborted state) are repeats of one configuration. */
struct cmp_group {
	char *label;       /* the results' label, "+ [ABORTED]" for aborted runs */
	const char *fs;    /* filesystem of its db volume (borrowed from the first run) */
	unsigned int threads;
	bool aborted;
	size_t nruns;
	size_t *runs;      /* indexes into compare.results */
	int base;          /* group index its deltas are against; -1 for the baseline */
	char *mismatch;    /* --allow-mismatch: how its runs differ from the reference, or NULL */
	bool cache_served; /* a run's db device read far less than the workload: a cache answered */
	double read_ratio; /* device bytes read / workload bytes read of that run */
	struct batch_plan plan; /* batch layout of its first run (k = 0: none) */
	bool tuned;        /* every run chose its thread count (--threads auto): threads is 0,
			      each run's count its own (its config's) */
	int aa_of;         /* A/A check: index of the group this label repeats ("ext4-aa" of
			      "ext4"), else -1.  Its deltas are against that group; it makes no
			      claim, is not a baseline, a base or a sweep point. */
};

/* One filesystem run at several thread counts. */
struct cmp_sweep {
	const char *fs;
	size_t n;
	size_t *groups; /* sorted by threads */
	double *eff;    /* scaling efficiency against linear from the first point, % */
};

enum cmp_method {
	CMP_REPEATS, /* every label has >= 2 runs: each run is one sample */
	CMP_BATCH,   /* some label has one run: batch means over the per-second timeline,
			shown as within-one-run intervals; no difference is tested or claimed */
};

struct compare_opts {
	const char *baseline; /* label, NULL: the first */
	bool allow_mismatch;  /* warn instead of refusing results that differ */
	bool allow_aborted;   /* show aborted runs, marked, instead of refusing them */
	bool no_guard;        /* sizing: no comparability guard */
	double equivalence_pct; /* the margin, +-%; 0: COMPARE_EQUIVALENCE_DEFAULT; < 0: none */
	const struct seq_plan *seq; /* a lab that stops when decided: its looks (the rounds
				       come from the results); NULL: a fixed design */
	bool claims_only;     /* only the rows of the claims (headline metrics, Runs): what the
				 adaptive lab's stop rule reads, and fast; not for the reports
				 (no verdict row, no sweeps, no noise) */
	/* --label FILE=NAME: the label of the results read from label_files[i] */
	size_t nlabels;
	const char *const *label_files, *const *label_names;
};

struct compare {
	size_t nresults;
	struct fslab_result *results;
	char **files;
	size_t ngroups;
	struct cmp_group *groups;
	struct json_t *group_index; /* compare_group_of(): aborted flag + label -> group index */
	int baseline;
	enum cmp_method method;
	bool plans_differ;    /* batch layouts differ between groups */
	bool threads_differ;
	bool tuned;           /* every label's runs are tuned: the capacity row in trans_iops' */
	bool foreign;         /* a result was measured by another tool (fio, DiskSpd, Jetstress) */
	size_t nrows;
	struct cmp_row *rows;
	struct strvec warnings; /* --allow-mismatch: one line per differing file */
	size_t nsweeps;
	struct cmp_sweep *sweeps;
	size_t nclaims;       /* tests in the Holm family of the claims (labels x headline) */
	double margin_pct;    /* the equivalence margin, +-%; 0: none (COMPARE_FLOOR_PCT then
				 tells a negligible difference) */
	bool margin_default;  /* the margin is COMPARE_EQUIVALENCE_DEFAULT, not the user's */
	bool claims_only;     /* built with compare_opts.claims_only (a lab's look): the rounds
				 an undecided delta still needs are left NAN (compare_decided()
				 works out the ones it names) */
	bool sequential;      /* the claims are decided at the boundary of seq's last look */
	struct seq_plan seq;
	double level_diff, level_eq; /* the levels the claims are decided at (two-sided and
				 each one-sided test): STATS_ALPHA, or the boundary's nominal */
	int aa_alarm;         /* an A/A group with a significant headline difference, or -1 */
	/* the lab's rounds as blocks (precision.c): every result from one lab (method repeats) */
	bool blocked;
	const char *design;   /* "one lab's rounds", "hand runs", "2 labs", ...: why (not) blocked */
	const char *lab_id;   /* the lab (borrowed from a result), or NULL */
	unsigned int nrounds; /* rounds with a result */
	bool have_noise;      /* noise: the decomposition of transactional IOPS (blocked only) */
	struct noise noise;
	size_t noutliers;
	struct cmp_outlier *outliers;
	double *spread;       /* per group: its cells' residual spread (transactional IOPS, CV
				 %, scaled so that the pooled one is their mean), NAN: none */
	/* a lab's qualification runs ([lab] qualify): results kept out of the comparison (no
	 * group, no guard), each one's verdict reported on its own */
	size_t nquals;
	size_t *quals;        /* indexes into results */
};

/* Is r a lab's qualification run (its cell id ends in "-qualify")? */
bool compare_is_qualification(const struct fslab_result *r);

/*
 * comparable.c: comparability from the option table of fslab run (run/options.h marks).
 * compare_load_diff - how r differs from ref in the options that shape the load, as
 * "cache 8 MiB vs 64 MiB, seed 7 vs 42" (heap), or NULL; options either does not record are
 * left out.  compare_sweep_diff - the same for the sweep axes (threads): what repeats of one
 * label must share.  compare_load_options - "workload, databases, ...": every option that
 * shapes the load; the tuner's (ROF_TUNE) only when a result of c was tuned (c NULL: every
 * one; heap).
 */
char *compare_load_diff(const struct fslab_result *r, const struct fslab_result *ref);
char *compare_sweep_diff(const struct fslab_result *r, const struct fslab_result *first);
char *compare_load_options(const struct compare *c);
/*
 * For the Method: one line per load-shaping option the results do not agree in ("cache:
 * ext4 64 MiB, xfs 8 MiB"); one line per label that does not record an option another
 * result records ("fio (fio): cache, bdm-rate"): it could not be compared.  Appended to out.
 */
void compare_method_differences(const struct compare *c, struct strvec *out);
void compare_method_unrecorded(const struct compare *c, struct strvec *out);

/*
 * decide.c: every tested delta's equivalence test and outcome (compare_decide, called after
 * the Holm correction of the differences); the outcome as a word ("different", "equivalent",
 * "negligible", "undecided", "" for none).
 */
void compare_decide(struct compare *c);
const char *compare_outcome_name(enum cmp_outcome o);
/* The claims' decisions: how many claims are tested and decided, and the first undecided one
 * (the one needing the most further rounds). */
struct decided_check {
	size_t claims, decided;
	size_t different, equivalent, negligible;
	int group;          /* the undecided claim needing the most, -1 when none */
	const char *metric; /* its metric's words */
	double more;        /* its further rounds (runs), INFINITY, or NAN */
};
/* compare_decided - the stop rule of a lab that stops when decided.  more_of_each: work out
 * the rounds each undecided claim needs where the comparison left them out (claims_only),
 * to name the furthest (a lab's look says it; a simulation of many labs need not).  0, or
 * -ENOENT when no claim is tested. */
int compare_decided(const struct compare *c, struct decided_check *dc, bool more_of_each);
/* Is the delta a finding worth a mark (bold, a triangle): significant and not negligible. */
bool compare_delta_marked(const struct cmp_delta *d);

/* The rows, in table order. */
extern const struct metric_def compare_metrics[];
extern const size_t compare_nmetrics;

void compare_init(struct compare *c);
/*
 * compare_build - read files[0..n) with result_read(), group them by label, apply the
 * comparability guard and the aborted-run rule, pick the baseline and compute every row.
 * Returns 0, or -FSLAB_EINPUT after printing one line per problem (naming the file).
 * compare_release() c in every case.
 */
int compare_build(struct compare *c, char *const *files, size_t n, const struct compare_opts *o)
	__attribute__((warn_unused_result));
void compare_release(struct compare *c);
/*
 * compare_build_results - the same from results already in memory (moved into c: each r[i] is
 * result_init()ed), named "(result N)"; what a simulation of many labs uses (tests).  No
 * checks of the files' plausibility: the caller made them.
 */
int compare_build_results(struct compare *c, struct fslab_result *r, size_t n,
			  const struct compare_opts *o) __attribute__((warn_unused_result));

/* The row with metric id, or NULL. */
const struct cmp_row *compare_row(const struct compare *c, const char *id);
/* The cell mean of metric id for group g (NAN when the row or the value is missing). */
double compare_mean(const struct compare *c, const char *id, size_t g);
/* Value of a numeric metric for one run (NAN when it has none). */
double compare_run_value(const struct fslab_result *r, const struct metric_def *m);
/*
 * compare_timeline_series - per-row numerator and denominator of a metric over a timeline (num
 * and den have t->nrows room; den is 1 for rates, ops for per-op averages, 0 for a second
 * without ops): ops or bytes per second, ops-weighted mean latency in ms, bytes per op, CPU %.
 * Returns 0, or -ENOENT when the metric has no timeline form or a column is missing.
 */
int compare_timeline_series(const struct timeline *t, const struct metric_def *m, double *num,
			    double *den);
/*
 * compare_timeline_fold - the same per-row values streamed (a long, spilled timeline is read in
 * chunks, no array of its rows): rows skip .. skip + per * nb - 1 folded into nb buckets of per
 * rows, bucket b = (row - skip) / per.  ratio false: num and den added to sum_num[b] and
 * sum_den[b] (batch means: sum_num / sum_den); ratio true: num / den of each row with den > 0
 * added to sum_num[b] and 1 to sum_den[b] (a downsampled series: the mean per-second value).
 * The sums are added to, not reset.  0, -ENOENT as above, or -errno (unreadable spill).
 */
int compare_timeline_fold(const struct timeline *t, const struct metric_def *m, size_t skip,
			  size_t per, size_t nb, bool ratio, double *sum_num, double *sum_den);
/* Limit of a Jetstress verdict check ("db_read_avg_latency", ...) from the first result that
 * has it, else dflt. */
double compare_limit(const struct compare *c, const char *check, double dflt);

/*
 * steady.c: steady state in the results (src/engine/steady.h).  compare_any_steady(): a result says
 * something of it (its own rule's, or fio's).  compare_steady_text(): the "Steady state" cell
 * of group g ("attained from 60 s", "NOT attained", "too short to judge", "attained in 2 of 3
 * runs", "fio: attained (...)"; "-" when no run says), heap.  compare_steady_windows(): the
 * windows that held, [from, to) seconds of measurement of each run's transactional IOPS (or,
 * latency, database read latency) with its group, at most max; how many.
 */
bool compare_any_steady(const struct compare *c);
char *compare_steady_text(const struct compare *c, const struct cmp_group *g);
/*
 * shape.c: the load's shape against Jetstress's ratios (src/result/fidelity.h).  compare_result_shape:
 * r's record, or its ratios computed from its classes for a Jetstress-like load (why left
 * NULL: read r->fidelity.why); false when r has no shape.  compare_any_shape(): a result has
 * one.  compare_shape_text(): the "Load shape" cell of group g ("in band", "db:log 13.3:1",
 * "db:log 13.3-14.1:1 (1 of 2 runs)", "-"), heap.
 */
bool compare_result_shape(const struct fslab_result *r, struct fidelity *f);
bool compare_any_shape(const struct compare *c);
char *compare_shape_text(const struct compare *c, const struct cmp_group *g);
size_t compare_steady_windows(const struct compare *c, bool latency, double *from, double *to,
			      size_t *group, size_t max);
/*
 * capacity.c: tuned loads (--threads auto).  compare_any_tuned(): a label's runs were tuned.
 * compare_sizing_iops(): the transactional IOPS group g is sized with: a tuned label's
 * capacity at the lower end of its 95 % interval (*lower_end set), else its mean (NAN: none).
 * compare_tuning_curve(): group g's tuning steps per thread count, sorted (means over its
 * runs: IOPS, database read and log write average ms, the share of steps that passed), at
 * most max counts; how many.
 */
bool compare_any_tuned(const struct compare *c);
double compare_sizing_iops(const struct compare *c, size_t g, bool *lower_end);
size_t compare_tuning_curve(const struct compare *c, size_t g, unsigned int *threads,
			    double *iops, double *read_ms, double *log_ms, double *passed,
			    size_t max);
/* The filesystem of a result: environment.volumes[role=db].fstype, else environment.prep.fs,
 * else the label.  Borrowed. */
const char *compare_result_fs(const struct fslab_result *r);
/* The device of role "db" or "log" (or the shared "db+log" one), or NULL. */
const struct device_result *compare_device(const struct fslab_result *r, const char *role);
/* The tool that measured a result: "fslab", "fio", "diskspd" or "jetstress" (borrowed). */
const char *compare_tool(const struct fslab_result *r);
/* The same with its version, for people: "fio 3.33", "DiskSpd 2.2", "fslab 0.1.0" (heap). */
char *compare_tool_text(const struct fslab_result *r);
/* Group index of the A/A check of group g, or -1. */
int compare_aa_of(const struct compare *c, size_t g);
/* The i-th metric of compare_metrics[], with the title of a per-class row filled in (built into
 * tmp, which the result may point to). */
const struct metric_def *compare_metric_at(size_t i, struct metric_def *tmp);
/* Is a metric a text row? */
bool compare_metric_is_text(const struct metric_def *m);

#endif
