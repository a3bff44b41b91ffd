/* SPDX-License-Identifier: MIT */
/* labcfg.h: the lab config (INI, parsed with inih): filesystems, devices, workload, repeats. */
#ifndef FSLAB_LABCFG_H
#define FSLAB_LABCFG_H

#include <stdbool.h>
#include <stdint.h>

#define LAB_MAX_THREADS 16
#define LAB_MAX_FS 16

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
	/* [devices] */
	char *image_dir, *db_dev, *log_dev;
	uint64_t db_image_size, log_image_size;
	bool force;
	int devices_line, db_dev_line, log_dev_line, image_dir_line;
	/* [workload] */
	char *workload, *engine;
	uint64_t threads[LAB_MAX_THREADS];
	int nthreads;
	unsigned int databases, iodepth, compressibility;
	uint64_t db_size, bs, cache_size, seed, duration_ns, warmup_ns;
	bool warmup_set;
	char *bdm_rate;
	int workload_line;
	/* [fs NAME] sections in file order */
	struct lab_fs fs[LAB_MAX_FS];
	int nfs;
};

/*
 * lab_cfg_load - parse path into cfg (zeroed and defaulted first).  Unknown sections or
 * keys, missing required keys and bad values are reported as "PATH:LINE: problem; fix" (one
 * line each, all of them) and make it return -FSLAB_EINPUT.  0 on success.  Free with
 * lab_cfg_release() in any case.
 */
int lab_cfg_load(struct lab_cfg *cfg, const char *path) __attribute__((warn_unused_result));
void lab_cfg_release(struct lab_cfg *cfg);
/* Number of cells: (filesystems + raw baseline) x thread counts x repeats. */
unsigned int lab_cfg_ncells(const struct lab_cfg *cfg);

#endif
