/* SPDX-License-Identifier: MIT */
/* labcfg.h: the lab config (INI, parsed with inih): filesystems, devices, workload, repeats. */
#ifndef FSLAB_LABCFG_H
#define FSLAB_LABCFG_H

#include <stdbool.h>
#include <stdint.h>

#include "lab/hosts.h"
#include "lab/system.h"
#include "run/options.h"
#include "lib/strvec.h"

#define LAB_MAX_THREADS 16
#define LAB_MAX_FS 16

/*
 * How the lab orders its cells (labplan.h).  A round is repeat r of every slot (a slot is
 * one label at one thread count: each [fs], the raw baseline, the A/A copy).
 */
enum lab_order {
	LAB_ORDER_SHUFFLED,    /* round by round, the order inside each round shuffled (default) */
	LAB_ORDER_INTERLEAVED, /* round by round, config order inside each round */
	LAB_ORDER_SEQUENTIAL,  /* slot by slot: all repeats of a slot back to back */
};

/* labcfg.c: "shuffled", "interleaved", "sequential". */
const char *lab_order_name(enum lab_order o);
/* lab_order_parse - the name of an order into *o.  0, or -EINVAL for anything else. */
int lab_order_parse(const char *s, enum lab_order *o) __attribute__((warn_unused_result));

/* Largest order_seed: integers up to 2^53 - 1 survive JSON readers that use doubles. */
#define LAB_SEED_MAX ((UINT64_C(1) << 53) - 1)

/* An adaptive lab's rounds: at least 2 (a blocked model needs a residual), by default 3
 * before the first look, and at most 20 unless max_rounds says otherwise (up to 100, the
 * most repeats a fixed lab may have). */
#define LAB_MIN_ROUNDS_DEFAULT 3
/* What ends an adaptive lab ([lab] stop). */
enum lab_stop { LAB_STOP_PRECISION, LAB_STOP_DECIDED };
#define LAB_MAX_ROUNDS_DEFAULT 20
#define LAB_ROUNDS_MAX 100

struct lab_fs {
	char *name;       /* section name: [fs NAME]; the label in results */
	char *fs;         /* filesystem for fslab prep, a name of fsprep/fs.c's table (default:
			     name); on prepared volumes the one the user says they hold (checked
			     by the preflight) or "prepared" */
	char *mkfs_opts, *mount_opts, *cluster;
	int line;         /* line of the section header */
	/*
	 * Volumes the user prepared (db_dir / log_dir given): no prep, no format, no teardown;
	 * each cell deletes and re-creates its databases and logs there (fslab run --fresh), so
	 * the volume ages from round to round.  Results and report say "volumes prepared by the
	 * user, not reformatted between repeats" (run.h RUN_NOTE_USER_VOLUMES); their results'
	 * lab provenance records volume_formatted = false.
	 */
	bool prepared;
	struct strvec db_dirs, log_dirs; /* as given, in order: the run's --db and --log */
	bool allow_foreign_files;        /* run where other files are (left untouched) */
	bool fs_given;                   /* fs = ... was in the section */
	int db_dir_line, log_dir_line, fs_line, format_line; /* format_line: mkfs/mount/cluster */
};

struct lab_cfg {
	char *path;
	/* [lab] */
	char *title, *output, *baseline;
	unsigned int repeats;
	bool raw_baseline; /* first run the same load on the raw devices */
	enum lab_order order;  /* default shuffled */
	uint64_t order_seed;   /* valid when order_seed_set; else the lab derives one */
	bool order_seed_set;
	bool aa_check;         /* the baseline once more per round, labelled <label>-aa */
	int aa_check_line, baseline_line;
	/* an adaptive lab ([lab] precision): rounds until every claim's MDE is at most precision
	 * (or the budget or max_rounds ends it); repeats is then max_rounds */
	double precision;      /* the MDE wanted, %; 0: a fixed number of rounds (repeats) */
	uint64_t budget_ns;    /* wall clock for the whole lab; 0: none */
	unsigned int min_rounds, max_rounds;
	int repeats_line, precision_line, budget_line, min_rounds_line, max_rounds_line;
	/* [lab] stop: what ends an adaptive lab: its precision (interval widths), or every
	 * claim decided (different, equivalent or negligible, at group-sequential boundaries);
	 * adaptive: either (repeats is then max_rounds) */
	enum lab_stop stop;
	bool adaptive;
	/* [lab] equivalence: the margin +-% claims are judged against (the report, and the
	 * decided stop); 0: compare's default; < 0: none */
	double equivalence;
	int stop_line, equivalence_line;
	/* [lab] qualify: after the rounds, one run of this length per filesystem label whose
	 * Jetstress-style verdict qualifies the storage (Jetstress's own two hours); it is no
	 * cell of the comparison (its cell id ends in -qualify); 0: none */
	uint64_t qualify_ns;
	int qualify_line;
	/* the system the steps run on (lab_cfg_load_for; system.h): it decides which [devices]
	 * and [fs] keys make sense: the machine the lab runs on, or with [host] sections the
	 * hosts' (one system for all) */
	const struct lab_system *sys;
	/* [devices]: Linux: loop devices on images, or two block devices */
	char *image_dir, *db_dev, *log_dev;
	uint64_t db_image_size, log_image_size;
	bool force;
	int devices_line, db_dev_line, log_dev_line, image_dir_line;
	/* [devices]: Windows: two disks by Get-Disk number (-1: not given); disk_info, a saved
	 * disk query for --dry-run previews of the per-cell scripts */
	int db_disk, log_disk;
	char *disk_info;
	int db_disk_line, log_disk_line, disk_info_line;
	/* [workload]: the options of fslab run (run/options.h) into the run's config, each value
	 * checked as fslab run checks it; threads is a list (one cell per count) */
	struct run_config wl;
	struct run_params run;
	int wl_line[RO_NR]; /* line of each key given, 0 when not given */
	uint64_t threads[LAB_MAX_THREADS];
	int nthreads;
	int workload_line;
	/* [fs NAME] sections in file order */
	struct lab_fs fs[LAB_MAX_FS];
	int nfs;
	/* [host NAME] sections and the hosts' [lab] keys (lab/hosts.h); none: this machine */
	struct lab_hosts hosts;
};

/*
 * lab_cfg_load - parse path into cfg (zeroed and defaulted first).  Unknown sections or
 * keys, missing required keys and bad values are reported as "PATH:LINE: problem; fix" (one
 * line each, all of them) and make it return -FSLAB_EINPUT.  0 on success.  Free with
 * lab_cfg_release() in any case.
 */
int lab_cfg_load(struct lab_cfg *cfg, const char *path) __attribute__((warn_unused_result));
/* The same, checked for steps that run on sys (lab_cfg_load: this machine's). */
int lab_cfg_load_for(struct lab_cfg *cfg, const char *path, const struct lab_system *sys)
	__attribute__((warn_unused_result));
void lab_cfg_release(struct lab_cfg *cfg);

/* What starts a comment: at the start of a line, or inside one after a blank (inih's inline
 * comments, configured so on Linux and built so for Windows, scripts/win-sysroot.sh). */
#define LAB_INI_COMMENT_PREFIXES ";#"
/*
 * lab_ini_value - one line of a lab config that is neither a section header nor a comment (with
 * or without its line end; changed in place).  Returns 0: inih reads it as it is (a value cut
 * at an inline comment "; ..." or "# ..."); 1: a value in double quotes, its text (heap) in
 * *value, the line cut after its '=' (inih then gives the key an empty value, which *value
 * replaces); -1: refused, what to do in *why (heap): a comment glued to what follows it
 * ("/srv/lun #2/fslab": quote the value or put a blank after the '#'), an unclosed quote, text
 * after the closing quote.  The caller frees *value and *why.
 */
int lab_ini_value(char *line, char **value, char **why);
/* Does any cell need prep (a label not on prepared volumes, or the raw baseline)?  Then
 * [devices] is needed, and the lab tears down its mount root. */
bool lab_cfg_has_prepped(const struct lab_cfg *cfg);
/* Number of cells: (filesystems + raw baseline + A/A copy) x thread counts x repeats. */
unsigned int lab_cfg_ncells(const struct lab_cfg *cfg);
/*
 * lab_cfg_baseline_fs - the [fs] section the baseline label belongs to: [lab] baseline (a
 * section name or a sweep label NAME-Nt), else the first [fs].  Index into cfg->fs, or -1 for
 * the raw baseline (raw_baseline = yes and baseline = raw or raw-Nt).  The A/A check repeats it.
 */
int lab_cfg_baseline_fs(const struct lab_cfg *cfg);

#endif
