/* SPDX-License-Identifier: MIT */
/* jetstress.h: the ESE-like workload's pure parts (transaction mix, log naming). */
#ifndef FSLAB_JETSTRESS_H
#define FSLAB_JETSTRESS_H

#include <stddef.h>
#include <stdint.h>

#include "base.h"
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

/*
 * The database cache and its lazy writer (docs/DESIGN.md, "Database cache, lazy writer and
 * page-fault stalls").  Sources:
 *  - ESE's JET_paramCheckpointIOMax, "the maximum number of concurrent writes that the
 *    database engine will use to flush modified database pages for the purpose of advancing
 *    the checkpoint", default 96 (learn.microsoft.com/windows/win32/extensible-storage-engine/
 *    database-cache-parameters): the writer's upper bound;
 *  - JET_paramCacheSizeMin on Windows 2000: "roughly equal to four times the number of threads
 *    that will be inside the ESE API at the same time" (same page): the fewest pages a cache
 *    may have per session.
 * Default size: 1 % of the database as before (a small cache keeps reads:writes Exchange's:
 * hits = cache / database for uniformly drawn pages), but at least JS_CACHE_MIN, so that the
 * clean pages can ride out a burst of slow writes (measured here: 5 MiB at 12 threads stalled
 * 20/s on healthy ext4, 16 MiB 6.8/s, 32 MiB none), and never more than an eighth of the
 * database (reads:writes stays >= 1.5, the low end of Jetstress's 3:2).
 */
#define JS_CACHE_PCT 1
#define JS_CACHE_MIN (32 * MiB)
#define JS_CACHE_MAX (256 * MiB)
#define JS_CACHE_MAX_FRACTION 8 /* at most 1/8 of the database */
/* For messages (no '%': it goes into format strings): how the default is chosen. */
#define JS_CACHE_DEFAULT_TEXT "a hundredth of the database, at least 32M, at most 256M and an " \
	"eighth of the database"
#define JS_CACHE_PAGES_PER_SESSION 4
#define JS_WRITER_DEPTH_PER_SESSION 4
#define JS_WRITER_DEPTH_MIN 16
#define JS_WRITER_DEPTH_MAX 96 /* ESE's JET_paramCheckpointIOMax default */

/* Default --cache for databases of db_size bytes. */
uint64_t js_cache_default(uint64_t db_size);
/* Sessions of database idx (0-based) when threads are spread round-robin over databases. */
unsigned int js_sessions_of(unsigned int threads, unsigned int databases, unsigned int idx);
/*
 * js_writer_depth - page writes the lazy writer of a database with sessions sessions keeps in
 * flight at most: JS_WRITER_DEPTH_PER_SESSION per session, at least JS_WRITER_DEPTH_MIN, at
 * most JS_WRITER_DEPTH_MAX.  It writes every dirty page at once, so fewer are in flight
 * whenever the storage keeps up.
 */
unsigned int js_writer_depth(unsigned int sessions);
/*
 * js_writer_threads - threads the lazy writer of a database uses for depth writes in flight
 * with the I/O back end engine: one with an asynchronous back end (io_uring, win32); one per
 * write with psync, whose writes complete inside submit, so that psync keeps as many in
 * flight (ext4 here, 4 threads, 512M, 8 s: one psync writer did 931 writes/s and stalled
 * 259/s; one per write 2,897 writes/s and none, as io_uring's single writer).
 */
unsigned int js_writer_threads(const char *engine, unsigned int depth);
/*
 * js_cache_slots - pages the cache of a database of npages pages holds for cache_size bytes:
 * at most half the database; at least JS_CACHE_PAGES_PER_SESSION per session plus one per
 * write in flight (depth), so that reads and writes in flight never hold every page.
 */
uint32_t js_cache_slots(uint64_t cache_size, uint64_t npages, unsigned int sessions,
			unsigned int depth);

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
/* The first bytes of a log file's header sector, what makes it fslab's (then the name of its
 * database and a newline). */
#define JS_LOG_MAGIC "fslab log file for "
/*
 * A database's log folder (fslab-dbN-logs in a --log directory someone else may write) is
 * fslab's when what fslab wrote there says so: the marker JS_LOG_MARKER, written when fslab
 * created the folder and naming it (its inode), and nothing else in it but log files (E00*.log
 * names) whose header sector is fslab's; a folder of an older version (no marker) when it
 * holds such log files and nothing else; an empty folder of this user's (removing it loses
 * nothing; never on Windows, where owners are not told).  In a folder fslab marked, an empty
 * log file is fslab's too (a creation killed before its first write).  Anything else is
 * someone else's: never emptied, never written.
 */
#define JS_LOG_MARKER ".fslab-log-folder"
struct os_dirh;
/* Is the open folder sub (never followed to: os_dirh_sub()) fslab's log folder? */
bool js_logdir_is_ours(struct os_dirh *sub);
/* What name in the directory d is: JS_LOGDIR_MISSING, _OURS, _FOREIGN (a link, a file, a
 * folder not fslab's), or -errno. */
enum { JS_LOGDIR_MISSING, JS_LOGDIR_OURS, JS_LOGDIR_FOREIGN };
int js_logdir_state(struct os_dirh *d, const char *name);
/* Remove fslab's log files from its log folder sub (with all, its marker too, so that the
 * folder can be removed).  Only log files with fslab's header; 0 or -errno. */
int js_logdir_clear(struct os_dirh *sub, bool all);
/* Rolled log file name of generation gen into buf ("E0000000001.log"). */
char *js_log_name(char *buf, size_t len, uint64_t gen);
/* Generation of a rolled log file name, or 0 if name is not one. */
uint64_t js_log_gen(const char *name);

/* The verdict (threshold sets, latency samples, checks) is in verdict.h. */

#endif
