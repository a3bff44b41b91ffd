/* SPDX-License-Identifier: MIT */
/*
 * recoveryP.h: the recovery workload's state, shared by its files:
 *   recovery.c         the workload ops: checkpoint files, the load and its unclean stop
 *   recovery_replay.c  the replay of one database's logs, timed per log file; the result,
 *                      fslab's pass rule and the summary
 */
#ifndef FSLAB_RECOVERYP_H
#define FSLAB_RECOVERYP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "jetstressP.h"

/* ESE's soft recovery reads this many pages ahead of the records it replays
 * (JET_paramPrereadIOMax, default 8: dev/ese/src/ese/sysparamtable.g.cxx). */
#define RV_PREREAD 8

struct recovery;

/* One database's replay. */
struct rv_db {
	struct js_db *db;
	struct run_ctx *rc;
	struct recovery *rv;
	bool interrupted;      /* its checkpoint file was there: a killed run's logs */
	uint64_t first, last;  /* the generations to replay */
	struct os_id ckpt_id;  /* its checkpoint file, as read or written (removed as that one) */
	pthread_t tid;
	bool started;
	struct thread_stats *st;
	/* what its replay found (its thread's own until it is joined) */
	struct recovery_log *log;
	size_t nlog;
	uint64_t log_bytes, mismatches, bad_pages, unreplayed;
	uint64_t pages_behind;  /* left behind the log by this run's unclean stop (0: a kill's) */
	uint64_t pages_redone;  /* distinct pages the replay applied records to */
	uint8_t *redone;        /* a bit per page: applied to */
	char *problem;         /* the first mismatch, bad page or bad log, in words */
	int err;               /* an I/O set-up or submit failure (-errno), 0 */
};

struct recovery {
	bool interrupted;      /* replaying a killed run's logs: no load of our own */
	double load_seconds;
	unsigned int ndb;
	struct rv_db *db;
	unsigned int done;     /* replays finished (atomic) */
};

/* recovery_replay.c */
void *rv_replay_main(void *arg); /* arg: struct rv_db * */
/* The result's recovery object, its instances and the checksum pass. */
void rv_results(struct run_ctx *rc, struct recovery *rv);
/* fslab's pass rule (docs/DESIGN.md "Soft recovery"): the verdict; true when it passed. */
bool rv_verdict(struct run_ctx *rc, struct recovery *rv);
void rv_summary(const struct fslab_result *r, FILE *f);

#endif
