/* SPDX-License-Identifier: MIT */
/* jetstress.h: the ESE-like workload's pure parts (transaction mix, log naming). */
#ifndef FSLAB_JETSTRESS_H
#define FSLAB_JETSTRESS_H

#include <stddef.h>
#include <stdint.h>

#include "random.h"
#include "result.h"

/* Jetstress 2013 default transaction mix (JetstressConfig.xml: InsertOperations 40,
 * DeleteOperations 20, ReplaceOperations 5, ReadOperations 35; LazyCommits 70). */
enum js_txn {
	JS_INSERT,
	JS_DELETE,
	JS_REPLACE,
	JS_READ,
	JS_TXN_NR,
};
extern const unsigned int js_txn_weights[JS_TXN_NR]; /* percent, sums to 100 */
extern const char *const js_txn_names[JS_TXN_NR];
#define JS_LAZY_COMMIT_PCT 70

/* Draw a transaction type with js_txn_weights. */
enum js_txn js_pick_txn(struct rng *r);

/* ESE log files: 1 MiB each (Exchange 2007+), a 4 KiB header, then log data. */
#define JS_LOG_FILE_SIZE (1024 * 1024)
#define JS_LOG_HDR 4096
#define JS_LOG_DATA (JS_LOG_FILE_SIZE - JS_LOG_HDR)
#define JS_LOG_MAX_WRITE (64 * 1024) /* ESE log writes are 4-64 KiB */
#define JS_LOG_SECTOR 4096
#define JS_LOG_KEEP 32 /* circular logging: old generations kept before deleting */

/* "E00.log" current, "E00tmp.log" spare, "E00%08X.log" rolled (Exchange 2010+ naming:
 * base name E00 + 8 hex digits of the generation). */
#define JS_LOG_CURRENT "E00.log"
#define JS_LOG_SPARE "E00tmp.log"
/* Rolled log file name of generation gen into buf ("E0000000001.log"). */
char *js_log_name(char *buf, size_t len, uint64_t gen);
/* Generation of a rolled log file name, or 0 if name is not one. */
uint64_t js_log_gen(const char *name);

/* The verdict (threshold sets, latency samples, checks) is in verdict.h. */

#endif
