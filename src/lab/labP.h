/* SPDX-License-Identifier: MIT */
/* labP.h: the state of one `fslab lab`, shared by the files of src/lab/ (not used elsewhere). */
#ifndef FSLAB_LABP_H
#define FSLAB_LABP_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lab/labcfg.h"
#include "lab/labplan.h"
#include "lab/step.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "lib/units.h"
#include "os/os.h"

enum cell_status { CELL_PENDING, CELL_RUNNING, CELL_DONE, CELL_FAILED, CELL_INTERRUPTED };

struct cell {
	char *id;     /* ext4-8t-r1; the A/A copy ext4-aa-8t-r1 */
	char *label;  /* ext4, or ext4-8t in a thread sweep; the A/A copy ext4-aa, ext4-8t-aa */
	char *aa_of;  /* the A/A copy: the label it repeats; else NULL */
	char *rel_result; /* result path relative to the output directory (lab-plan.json) */
	const struct lab_fs *fs;
	unsigned int threads, repeat;
	unsigned int round, position; /* from 1; round = repeat */
	enum cell_status status;
	char *result; /* path of its result file */
	char *error;  /* why it failed */
	double seconds;
	double wall;  /* prep to the end of its teardown, s (0: not measured) */
	bool qualify; /* a qualification run ([lab] qualify): after the rounds, whatever
			 stopped them; id NAME-Nt-qualify */
};

struct lab {
	struct lab_cfg cfg;
	char *config_text;
	char *out, *mnt, *results, *logs, *report, *state_path, *log_path;
	int lock_fd; /* flock on the output directory (os_lock_path), or -1 */
	struct step_target target; /* where the steps run: this machine (step.h) */
	struct cell *cells;  /* slot-major (config order: label, thread count, repeat) */
	unsigned int ncells, nslots;
	unsigned int nround_cells; /* the rounds' cells (nslots x repeats), in cells[] first;
				      the qualification runs follow them */
	unsigned int *order; /* run order: order[position - 1] indexes cells */
	enum lab_order order_kind;
	uint64_t seed;
	const char *seed_source; /* a shuffled order's seed: "config" or "clock" */
	struct lab_fs aa_fs; /* the A/A copy of the baseline (borrowed strings but the name) */
	char *plan_path;
	FILE *log;
	bool tty, dry_run, resume;
	/* stdout (the terminal or pipe) is gone (EPIPE, EIO): the lab stops printing there, and
	 * only there: lab.log and the cleanup go on */
	bool stdout_dead;
	/* how this lab ends, recorded in lab-state.json for the next start: "running" until it
	 * finishes or is interrupted (a state still saying "running" was killed) */
	const char *status;
	char stop_signal[64], stopped_at[32];
	char *resume_cmd; /* fslab lab CONFIG --output DIR --resume, quoted for a shell */
	char *prev;       /* a resumed lab: how the previous one ended (lab_state_describe()) */
	uint64_t t0;
	double overhead_est; /* seconds a cell takes beyond warm-up + duration */
	unsigned int overhead_n;
	char *lab_id;        /* this lab's id, in every result (--lab-id) and its state */
	double elapsed_before; /* wall clock of earlier sessions (resume), s */
	/* an adaptive lab ([lab] precision, adaptive.c) */
	unsigned int checked_round; /* the last whole round the stop rule looked at */
	unsigned int rounds_done;   /* whole rounds when it stopped (or the last look) */
	double worst_mde;           /* the widest claim MDE at the last look, %, or NAN */
	char *stop_reason;          /* why it stopped ("precision 10 % reached after 7 rounds")
				       or NULL (still running, or a fixed lab) */
	bool final_look;            /* stop = decided: the last look was the lab's last (budget
				       or max_rounds), so it spent what was left of the level */
	/* [host NAME] sections (cluster.c): every cell on every host at once; nhosts 0: this
	 * machine alone */
	size_t nhosts;
	struct hosts_session *hs;      /* the kept connections, clocks (lab/hosts.h) */
	struct step_target *htarget;   /* each host's step target */
	/* the places the cells run on: this machine (target) alone, or each host (htarget),
	 * and how the lab reaches them (cell.c, cluster.c) */
	const struct step_target *place;
	size_t nplaces;
	const struct lab_reach *reach;
	struct lab_host_live *hlive;   /* each place's part of the live line */
	char **hmnt;                   /* each host's mount root, there */
	double init_max;               /* longest run start to end of initialisation, s */
	char *lost;                    /* hosts lost in the last cell, when, how to tear them
					  down by hand; or NULL */
	/* live line */
	unsigned int cur;
	const char *step;
	double run_elapsed, run_total, iops;
};

/* A host's step as the live line shows it. */
struct lab_host_live {
	char phase[16];     /* prep, run, waiting, warm-up, measure, teardown, done, FAILED */
	double elapsed, total, iops; /* its last progress line */
	uint64_t start_ns, end_ns; /* when its step started, ended */
	double init_s;      /* its run's start to the end of its initialisation, s (0: not yet) */
};

/*
 * Stop requests received; lab.c's handler (os_stop_handler_set) counts them, lab_child()
 * passes them on: the first closes the running step's stdin, the second kills it.  SIGINT
 * and SIGTERM (Ctrl-C, Ctrl-Break or console close on Windows) count each time (a second one
 * stops faster); SIGHUP and SIGPIPE (a closed terminal or ssh session, a reader of stdout
 * gone) count once: the system sends them, sometimes twice, and they never escalate to
 * killing a child.  lab_signal is the first one's OS_STOP_* reason (os.h).
 */
extern volatile sig_atomic_t lab_nsignals, lab_signal;

/* live.c: the log and the live line. */
/* A line on stdout (timestamped) and in lab.log. */
void lab_log(struct lab *L, const char *fmt, ...) __printf(2, 3);
/* A line in lab.log (timestamped) and on stderr ("fslab: ..."), for what must be seen even
 * when stdout goes to a file or is gone: how to resume an interrupted lab. */
void lab_note(struct lab *L, const char *fmt, ...) __printf(2, 3);
void lab_clear_line(struct lab *L);
/* The live line (a terminal only): cell, step, times, IOPS, each host's state. */
void lab_live_line(struct lab *L);
/* lab_steps()'s how */
enum {
	LAB_STEP_PROGRESS = 1 << 0,  /* its progress lines update the live line */
	LAB_STEP_STOPPABLE = 1 << 1, /* the lab's stop requests reach it */
};
/*
 * lab_steps - args[i] run on place t[i] (step.h) for every i < n not skipped, all at once,
 * each with its output appended to logs[i] (steps.c).  The lab's stop requests reach the
 * stoppable ones: the first closes every stdin (the runner gave them --stop-on-stdin-eof),
 * the second kills what may be killed (lab_system_killable(): not a prep or teardown that
 * must finish).  status[i]: its exit status (HOSTS_SSH_FAILED: ssh itself failed), 128 +
 * SIGINT when a stop came before it began, or -errno when it could not start.  A host whose
 * run fails while others still run is logged at once (the time a fault was noticed).
 */
void lab_steps(struct lab *L, const struct step_target *t, size_t n, const char *what,
	       const struct strvec *args, char *const *logs, unsigned int how, const bool *skip,
	       int *status);
/*
 * Run `fslab ARGS...` on the lab's own machine (lab_steps() with one place) with its output
 * appended to logpath.  args has no cap on its length (a compare of thousands of results).
 * Returns the exit status, 128 + signal, or -errno.
 */
int lab_child(struct lab *L, const struct strvec *args, const char *logpath, bool progress,
	      bool interruptible);
/* cell.c: `fslab teardown` of the lab's mount root on this machine, its output into
 * logpath; its exit status (logged when not 0). */
int lab_teardown(struct lab *L, const char *logpath);
/* A done cell's time beyond its warm-up and duration (prep, initialisation, teardown) into
 * the running mean the lab's plan and budget use (L->overhead_est). */
void lab_count_overhead(struct lab *L, const struct cell *cell);

/* cell.c: one cell on every place of the lab (this machine alone, or each of its hosts). */
/* One cell in the making: what its steps share, a slot per place. */
struct ccell {
	struct lab *L;
	struct cell *cell;
	size_t n;
	struct strvec *args;
	char **logs, **starts, **remote, **local, **missing, **prep_json;
	int *status;
	bool *lost, any_lost, verdict_fail;
	uint64_t t0, t_run;
	struct strbuf lostmsg; /* "h2 lost (during prep), ..." */
};
/*
 * How the lab reaches the places its cells run on: this machine alone (lab_reach_local,
 * cell.c) or its [host NAME] sections over OpenSSH (cluster.c, Linux).  The cell runner
 * (lab_cell_run()) is the same for both; what differs is here.  NULL ops do nothing.
 */
struct lab_reach {
	/* where place i's steps run: its system, mount root, --owner, devices */
	void (*where)(struct lab *L, size_t i, struct lab_where *w);
	/* the log of place i's STEP for ID (a cell's, or "resume") (heap) */
	char *(*log)(const struct lab *L, size_t i, const char *id, const char *step);
	/* a cell begins: what an earlier attempt left here is removed */
	void (*begin)(struct ccell *c);
	/* did place i's step end with its place unreachable (status: the step's)? */
	bool (*gone)(struct lab *L, size_t i, int status);
	/* after a prep that succeeded everywhere: 0 or -1 (cell->error) */
	int (*prepped)(struct ccell *c);
	/* before the run: the run's opening line, the places' common start; 0 or -1 */
	int (*start)(struct ccell *c);
	/* after the run: the cell's result at cell->result; 0 or -1 (cell->error) */
	int (*collect)(struct ccell *c);
	/* a lost place: how to take its volumes back, into L->lost */
	void (*lost)(struct ccell *c);
	/* before anything changes, after the lab's own preflight: 0 or -FSLAB_EINPUT */
	int (*preflight)(struct lab *L);
	/* --dry-run: how a step reaches a place (once), and a cell's steps on each */
	void (*dry_run_head)(struct lab *L);
	void (*dry_run_cell)(struct lab *L, const struct cell *c);
	/* the end of the lab (every exit) */
	void (*close)(struct lab *L);
};
extern const struct lab_reach lab_reach_local;
/* One cell: prep, run, teardown on every place at once, the result merged when there are
 * several.  0 (done or failed), 1 interrupted, 2 a host was lost (L->lost says which). */
int lab_cell_run(struct lab *L, struct cell *cell);
/* Place i is lost (its connection is gone) WHEN ("during prep"). */
void lab_cell_lost(struct ccell *c, size_t i, const char *when);
/* The cell's first failure, on place i: the one the cell's error says. */
void lab_cell_error(struct ccell *c, size_t i, const char *why);
/* Teardown on every place not skipped, at once; each one's log named after prefix. */
void lab_teardown_places(struct lab *L, const char *prefix, const bool *skip);

/*
 * cluster.c (Linux): a lab with [host NAME] sections.  lab_hosts_open() makes the session
 * (nothing contacted in a dry run) and sets the lab's reach to its hosts (their preflight,
 * dry run and the session's end are its ops).
 */
int lab_hosts_open(struct lab *L);

/* plan.c: the cells, their run order, lab-plan.json and lab-state.json (resume). */
/* lab_cli.c: fslab lab's options into L, the config's path in *config, --output in *out_opt.
 * -1 to go on, else the exit status (--help printed, or a usage error said). */
int lab_args(struct lab *L, int argc, char **argv, const char **config, const char **out_opt);
/* What fslab lab (and fslab demo, which hands them on) is told: the table lab_opts[]. */
struct lab_args {
	const char *output;
	bool resume, dry_run;
};
extern const struct opt_def lab_opts[];
void lab_build_cells(struct lab *L);
/*
 * lab_check_names - every file a cell writes has a name of its own: results/<cell>.json (a
 * cluster result with [host] sections) and results/<cell>.<host>.json (and the host's logs)
 * never coincide, whatever '.' and '-' labels and host names hold ("ext4-2t-r1.x"'s cluster
 * result is [fs ext4] and [host x-2t-r1]'s result of ext4-2t-r1).  0, or -FSLAB_EINPUT naming
 * both and the fix.
 */
int lab_check_names(const struct lab *L);
void lab_set_plan(struct lab *L, enum lab_order kind, uint64_t seed, const char *source);
void lab_log_plan(struct lab *L);
int lab_write_plan(struct lab *L);
int lab_save_state(struct lab *L);
/* The recorded order and finished cells of an interrupted lab.  0 or -FSLAB_EINPUT. */
int lab_load_state(struct lab *L);
/*
 * How the lab recorded in lab-state.json ended, as a clause for messages ("was interrupted by
 * SIGHUP at ... with 3 of 8 cell(s) done"); heap, or NULL when the state cannot be read.
 * *running_now: another fslab lab holds the directory now ("is running now").  *resume: the
 * command that lab recorded to continue it (heap; NULL in states from before it was kept).
 */
char *lab_state_describe(const struct lab *L, bool *running_now, char **resume);

/*
 * outdir.c: lab_check_output() refuses an output directory fslab lab did not make (it
 * exists, is not empty, and has neither the lab's marker nor a lab state): 0 or
 * -FSLAB_EINPUT after a message.  lab_mark_output() marks a directory the lab made (.fslab-lab,
 * kept when there): 0 or -errno after a message.
 */
int lab_check_output(struct lab *L);
int lab_mark_output(struct lab *L);

/* adaptive.c: an adaptive lab's stop rule and plan. */
/* Wall clock of the whole lab so far (earlier sessions included), s. */
double lab_elapsed(const struct lab *L);
/* A cell's expected wall clock (prep to teardown): the mean of the measured ones, else an
 * estimate from the workload. */
double lab_cell_wall(const struct lab *L);
/*
 * lab_adaptive_look - before the cell at run position L->cur: when it opens a round and the
 * rounds before it are whole and at least min_rounds, look at the claims' MDE and the budget.
 * last: after the last cell (no next round).  1 when the lab stops (L->stop_reason set), 0.
 */
int lab_adaptive_look(struct lab *L, bool last);
/* plan.c: where a cell stands, for the log and the dry run: "round 3/8", "the qualification
 * run" (in buf). */
const char *lab_cell_where(const struct lab *L, const struct cell *c, char *buf, size_t len);
/* The baseline label compare is given, or NULL for compare's default (heap). */
char *lab_compare_baseline(const struct lab *L);
/* --dry-run: the adaptive plan (rounds so far, cell time, a round's cost, the budget). */
void lab_adaptive_dry_run(const struct lab *L);
/* A new lab id: UTC start time and 8 hex digits ("20261203T222518-3f2a9c1b"), heap. */
char *lab_new_id(void);

/* preflight.c: everything checked before anything is changed.  0 or -FSLAB_EINPUT. */
int lab_preflight(struct lab *L);
/* Problems found by the preflight: each printed ("fslab: error: preflight: ...") and counted. */
struct problems {
	unsigned int n;
};
void lab_problem(struct problems *p, const char *fmt, ...) __printf(2, 3);
/* The nearest existing ancestor of path (heap; "." or "/" at worst). */
char *lab_existing_ancestor(const char *path);
/*
 * What the lab's own preps need on the system the steps run on, when any label is prepped:
 * preflight_prep.c (Linux: root, mkfs tools, kernel drivers, image space or devices) or
 * preflight_win32.c (Windows: elevation, PowerShell, the disks).
 */
void lab_preflight_system(struct lab *L, struct problems *p);

/* args.c: the argv of the child steps (pushed onto a strvec, printed by --dry-run); where
 * they run: struct lab_where (system.h), this machine (lab_where_local()) or one of the
 * lab's hosts (cluster.c). */
void lab_where_local(struct lab *L, struct lab_where *w);
void lab_where_release(struct lab_where *w);
void lab_where_prep_args(struct lab *L, const struct lab_where *w, const struct cell *cell,
			 struct strvec *a);
void lab_where_run_args(struct lab *L, const struct lab_where *w, const struct cell *cell,
			struct strvec *a);
void lab_where_teardown_args(const struct lab_where *w, struct strvec *a);
void lab_prep_args(struct lab *L, const struct cell *cell, struct strvec *a);
/* lab_owner - the --owner the lab gives its preps and teardowns, "fslab lab <OUT, absolute>":
 * its teardown of OUT/mnt then never takes a prep it did not make (caller frees). */
char *lab_owner(const struct lab *L);
void lab_run_args(struct lab *L, const struct cell *cell, struct strvec *a);
/* `teardown --mount-root MNT` (Linux: with the lab's --owner). */
void lab_teardown_args(struct lab *L, struct strvec *a);
/* The mount root of the lab's preps: OUT/mnt; Windows: the absolute OUT\mnt (heap). */
char *lab_mount_root(const struct lab *L);
/* What the lab preps: "loop devices on images", "devices", "Windows disks". */
const char *lab_devices_words(const struct lab *L);
/* A failed prep as the cell's error (heap): exit status, the first error it printed and what
 * follows (PowerShell's message), the log. */
char *lab_prep_failure(struct lab *L, int rc, const char *log);

/*
 * prepared.c: labels on volumes the user prepared ([fs NAME] db_dir, log_dir).
 * lab_preflight_prepared() adds the problems of their directories (not a directory, files
 * fslab did not make unless allowed, too little free space, another filesystem than fs =
 * says); lab_make_prepared_dirs() creates the missing ones (empty) when the lab starts, 0 or
 * -errno after a message.  lab_dry_run_script() prints, in a dry run of a Windows disk lab
 * with [devices] disk_info, the PowerShell script a cell's prep (argv a) would run.
 */
void lab_preflight_prepared(struct lab *L, struct problems *p);
int lab_make_prepared_dirs(struct lab *L);
void lab_dry_run_script(struct lab *L, const struct strvec *a);
/* "  fslab ARGS..." on stdout, quoted for a shell where needed (cmd.exe on Windows). */
void lab_print_args(const struct strvec *a);
/* One argument quoted for the user's shell: POSIX sh, or a Windows command line. */
struct strbuf;
void lab_quote_arg(struct strbuf *sb, const char *arg);
/* The command a user types. */
#ifdef _WIN32
#define LAB_FSLAB "fslab.exe"
#else
#define LAB_FSLAB "fslab"
#endif

#endif
