/* SPDX-License-Identifier: MIT */
/*
 * options.h: the options of `fslab run` as one table (fio's fio_options[] shape): name, type,
 * default, limits, help and lab config key of each.  The getopt long options and --help of
 * `fslab run`, the [workload] keys of a lab config (src/lab/labcfg.c) and the argv the lab
 * gives its `fslab run` children (src/lab/args.c) all come from it.
 */
#ifndef FSLAB_RUN_OPTIONS_H
#define FSLAB_RUN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/opt.h"
#include "result/result.h"

/* Every option, in --help order. */
enum run_opt_id {
	RO_DB, RO_LOG, RO_FORCE, RO_WORKLOAD, RO_THREADS, RO_DATABASES, RO_DB_SIZE,
	RO_DURATION, RO_WARMUP, RO_SEED, RO_LABEL, RO_OUTPUT, RO_BS, RO_IODEPTH, RO_RWMIXREAD,
	RO_ENGINE, RO_CACHE, RO_BDM_RATE, RO_COMPRESSIBILITY, RO_BUFFERED, RO_NO_CHECKSUM_PASS,
	RO_NO_VERIFY, RO_NO_DROP_CACHES, RO_QUIET, RO_PROGRESS_FD, RO_SELFTEST, RO_START_AT,
	/* where the run stands in a lab (set by fslab lab; they describe the run, not its load) */
	RO_LAB_ID, RO_LAB_CELL, RO_LAB_ROUND, RO_LAB_POSITION, RO_LAB_FRESH_VOLUME,
	/* a lab's cell on volumes the user prepared; a step stopped through its stdin */
	RO_FRESH, RO_ALLOW_FOREIGN_FILES, RO_STOP_ON_STDIN_EOF,
	/* steady state (src/engine/steady.h): the rule, its cap, preconditioning */
	RO_STEADY_WINDOW, RO_STEADY_INTERVAL, RO_STEADY_RANGE, RO_STEADY_EXCURSION, RO_STEADY_CAP,
	RO_PRECONDITION,
	/* the recovery workload (soft recovery) */
	RO_RECOVERY_LOGS,
	/* --threads auto (src/engine/tune.h): the tuner's rule and caps */
	RO_TUNE_WINDOW, RO_TUNE_INTERVAL, RO_TUNE_SLOPE, RO_TUNE_JUDGE, RO_TUNE_STEP_CAP,
	RO_TUNE_CAP, RO_TUNE_MAX_THREADS,
	/* the verdict (jetstress) */
	RO_SAMPLE_INTERVAL, RO_THRESHOLDS, RO_MAX_LATENCY_ERRORS, RO_STRICT_IO_TAIL,
	RO_TARGET_IOPS, RO_MAILBOXES, RO_IOPS_PER_MAILBOX,
	RO_NR,
};

enum run_opt_type {
	ROT_DIRS,   /* a directory or device, repeatable (char **, count) */
	ROT_STR,    /* text (char *), checked by valid() when set */
	ROT_CHOICE, /* one name of a table (char *): valid() decides, choices() lists them */
	ROT_UINT,   /* whole number in [min, max] (unsigned int or uint64_t: size) */
	ROT_SIZE,   /* size with units (512M, 4G) in [min, max], a multiple of align (uint64_t) */
	ROT_TIME,   /* duration with units (90s, 2h) in [min, max] nanoseconds, kept as seconds
		       (double) */
	ROT_REAL,   /* real number in [min, max] (double); (min, max] with ROF_EXCL_MIN */
	ROT_FLAG,   /* no value on the command line (bool, true when given); yes/no in a config */
};

enum {
	ROF_VERDICT = 1 << 0,  /* the jetstress verdict's: only with --workload jetstress */
	ROF_LAB = 1 << 1,      /* set by the lab for each cell, not a [workload] key */
	ROF_SWEEP = 1 << 2,    /* a [workload] key that takes a list: one value per cell */
	ROF_EXCL_MIN = 1 << 3, /* ROT_REAL: min itself is refused (a positive number) */
	ROF_WHOLE_S = 1 << 4,  /* ROT_TIME: whole seconds */
	ROF_STEADY = 1 << 5,   /* ROT_TIME: or the word "steady", which sets the bool at off_n
				  (and the time to 0); a time clears it */
	ROF_AUTO = 1 << 6,     /* ROT_UINT: or the word "auto", which sets the bool at off_n
				  (and the number to 0); a number clears it */
	ROF_TUNE = 1 << 7,     /* the tuner's (--threads auto): recorded only by a tuned run */
};

/*
 * Comparability: what a difference in the option means for `fslab compare` (the guard and
 * the Method text of src/compare/comparable.c come from it).  Every option has one.
 */
enum run_opt_cmp {
	ROC_LOAD = 1, /* shapes the load or how it is judged: results must agree to be compared */
	ROC_RUN,      /* describes the run (where, what it is called, how it reports): may differ */
	ROC_SWEEP,    /* a sweep axis: may differ between labels, not between repeats of one */
};

/*
 * The state of parsing: the values go into the config (struct run_config, result.h: the one
 * struct the run, the workload and the result file share), the rest is what was given.
 */
struct run_params {
	struct run_config *c; /* the values, after defaults and what was given (not owned) */
	char *text[RO_NR];  /* each value as given (the lab passes it on unchanged), or NULL */
	uint64_t given;     /* bit 1 << id for every option given */
	int first_verdict;  /* the first ROF_VERDICT option given, or -1 */
	char *fix;          /* what to do about the last value refused, when composed (heap) */
};

struct run_option {
	const char *name;     /* --name */
	const char *ini;      /* [workload] key of a lab config, or NULL (ROF_LAB) */
	enum run_opt_type type;
	unsigned int flags;   /* ROF_* */
	enum run_opt_cmp cmp; /* what a difference means to compare */
	size_t off, off_n;    /* offsetof(struct run_config, value) (ROT_DIRS: and its count;
				 ROF_STEADY, ROF_AUTO: its bool) */
	size_t size;          /* sizeof the value: ROT_UINT is unsigned int or uint64_t */
	const char *def;      /* default, parsed as if given; NULL: none or derived */
	const char *def_help; /* the default as --help says it, when def does not say it all */
	uint64_t lo, hi;      /* limits of ROT_UINT, ROT_SIZE, ROT_TIME (ns) */
	double rlo, rhi;      /* limits of ROT_REAL */
	uint64_t align;       /* ROT_SIZE: a multiple of this, or 0 */
	bool (*valid)(const char *v);  /* ROT_STR, ROT_CHOICE */
	const char *(*choices)(void);  /* ROT_CHOICE: the names, for --help and errors */
	const char *metavar;  /* "N", "SIZE", ... in --help */
	const char *help;     /* --help text ('\n' starts a new line) */
	const char *fix;      /* what a bad value's error says to do (ROT_CHOICE: + choices()) */
	const char *group;    /* --help: the heading of a group of options, before the first */
};

/* The table, indexed by enum run_opt_id. */
extern const struct run_option run_options[RO_NR];

/* The option called --name / with [workload] key, or NULL. */
const struct run_option *run_option_find(const char *name);
const struct run_option *run_option_by_ini(const char *key);
/* "name, threads, ...": every [workload] key, for messages. */
const char *run_option_ini_keys(void);

/*
 * run_params_init - p parses into c (zeroed, or released with run_config_release()): every
 * default set.  run_params_release() frees what p keeps; c stays its owner's.
 */
void run_params_init(struct run_params *p, struct run_config *c);
void run_params_release(struct run_params *p);
/* The value of option o in config c (a pointer into c). */
static inline void *run_option_value(const struct run_option *o, const struct run_config *c)
{
	return (char *)c + o->off;
}
static inline bool run_params_given(const struct run_params *p, enum run_opt_id id)
{
	return p->given & (UINT64_C(1) << id);
}

/*
 * run_option_parse - parse value v of option o into p (NULL v: a flag given on the command
 * line; a flag in a config takes yes or no).  0, or -EINVAL with *fix pointing at what to do,
 * whole however long the choices are (static, or p's own until the next call).
 */
int run_option_parse(struct run_params *p, const struct run_option *o, const char *v,
		     const char **fix) __attribute__((warn_unused_result));

/*
 * run_params_parse_argv - `fslab run` argv (argv[0] the subcommand) into p (run_params_init
 * first).  0; 1 when --help was printed; -FSLAB_EINPUT with one error printed.  Checks each
 * value, not how the options go together (src/run/cli.c does).
 */
int run_params_parse_argv(struct run_params *p, int argc, char **argv)
	__attribute__((warn_unused_result));

/*
 * run_params_argv - append "--name=VALUE" (a flag: "--name") for every option given in p that
 * is a [workload] key and not ROF_SWEEP, value as given, in table order: add(arg, ctx) per
 * argument.  What the lab passes to `fslab run`.
 */
void run_params_argv(const struct run_params *p, void (*add)(const char *arg, void *ctx),
		     void *ctx);

/* `fslab run --help`, every option from the table. */
void run_usage(FILE *f);
/* The table as every command's parser reads it (opt.h): fslab run's options, and fslab
 * export's after its own. */
extern const struct opt_cmd run_opt_cmd;

/* yes/no, true/false, on/off, 1/0 (any case); false when v is none of them. */
bool run_parse_bool(const char *v, bool *out);

#endif
