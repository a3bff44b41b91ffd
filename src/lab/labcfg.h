/* SPDX-License-Identifier: MIT */
/* labcfg.h: the lab config (INI, parsed with inih): filesystems, devices, workload, repeats. */
#ifndef FSLAB_LABCFG_H
#define FSLAB_LABCFG_H

#include <stdbool.h>
#include <stdint.h>

#include "lab/hosts.h"
#include "run/options.h"

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

/* Largest order_seed: integers up to 2^53 - 1 survive JSON readers that use doubles. */
#define LAB_SEED_MAX ((UINT64_C(1) << 53) - 1)

struct lab_fs {
	char *name;       /* section name: [fs NAME]; the label in results */
	char *fs;         /* filesystem for fslab prep: ext4, xfs, ntfs, btrfs (default: name) */
	char *mkfs_opts, *mount_opts, *cluster;
	int line;         /* line of the section header */
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
	/* [devices] */
	char *image_dir, *db_dev, *log_dev;
	uint64_t db_image_size, log_image_size;
	bool force;
	int devices_line, db_dev_line, log_dev_line, image_dir_line;
	/* [workload]: the options of fslab run (run/options.h), each value checked as fslab run
	 * checks it; threads is a list (one cell per count) */
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
void lab_cfg_release(struct lab_cfg *cfg);
/* Number of cells: (filesystems + raw baseline + A/A copy) x thread counts x repeats. */
unsigned int lab_cfg_ncells(const struct lab_cfg *cfg);
/*
 * lab_cfg_baseline_fs - the [fs] section the baseline label belongs to: [lab] baseline (a
 * section name or a sweep label NAME-Nt), else the first [fs].  Index into cfg->fs, or -1 for
 * the raw baseline (raw_baseline = yes and baseline = raw or raw-Nt).  The A/A check repeats it.
 */
int lab_cfg_baseline_fs(const struct lab_cfg *cfg);

#endif
