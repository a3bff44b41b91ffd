/* SPDX-License-Identifier: MIT */
/* jetstress.h: the ESE-like workload's pure parts (transaction mix, log naming). */
#ifndef FSLAB_JETSTRESS_H
#define FSLAB_JETSTRESS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/base.h"
#include "lib/random.h"
#include "result/result.h"

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
/* The recovery workload: log files its load leaves per database by default (32 MiB of log:
 * fslab's choice; Jetstress publishes no count) */
#define JS_RECOVERY_LOGS 32
/* ... and the checkpoint depth its lazy writer keeps (ESE's JET_paramCheckpointDepthMax
 * default, 20 MB: js_cache_hold()) */
#define JS_CHECKPOINT_DEPTH (20 * MiB)

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
 * names) whose header sector is fslab's and the recovery workload's checkpoint file (below)
 * whose text is fslab's and names this folder; a folder of an older version (no marker) when
 * it holds such files and nothing else; an empty folder of this user's (removing it loses
 * nothing; never on Windows, where owners are not told).  In a folder fslab marked, an empty
 * log file or temporary checkpoint file is fslab's too (a creation killed before its first
 * write).  Anything else (a link above all, whatever it points at) is someone else's: never
 * emptied, never written, never followed.
 */
#define JS_LOG_MARKER ".fslab-log-folder"
struct os_dirh;
/* Is the open folder sub (never followed to: os_dirh_sub()) fslab's log folder? */
bool js_logdir_is_ours(struct os_dirh *sub);
/* What name in the directory d is: JS_LOGDIR_MISSING, _OURS, _FOREIGN (a link, a file, a
 * folder not fslab's), or -errno. */
enum { JS_LOGDIR_MISSING, JS_LOGDIR_OURS, JS_LOGDIR_FOREIGN };
int js_logdir_state(struct os_dirh *d, const char *name);
/* Remove fslab's files from its log folder sub (with all, its marker too, so that the folder
 * can be removed): only log and checkpoint files of fslab's, as above; 0 or -errno. */
int js_logdir_clear(struct os_dirh *sub, bool all);
/*
 * The checkpoint file of the recovery workload (ESE's E00.chk): says a load ran on these logs
 * and did not shut down cleanly, and from which generation a replay starts.  Made by the log
 * folder's handle, whole under JS_LOG_CHECKPOINT_TMP then renamed onto a free name
 * (dirh_write_new()).  Its text, a line each: JS_CKPT_SIGNATURE; "folder <inode>" (the log
 * folder it was written in: what makes it fslab's there, as the marker); "database <file name>
 * <database id, hex>" (whose logs); "first <generation>" (where the replay starts).
 */
#define JS_LOG_CHECKPOINT "E00.chk"
#define JS_LOG_CHECKPOINT_TMP "E00tmp.chk"
#define JS_CKPT_SIGNATURE "fslab checkpoint/2"
/* The first two lines of a checkpoint file in the folder sub (heap), NULL when its identity
 * cannot be read. */
char *js_ckpt_head(struct os_dirh *sub);
/* Rolled log file name of generation gen into buf ("E0000000001.log"). */
char *js_log_name(char *buf, size_t len, uint64_t gen);
/* Generation of a rolled log file name, or 0 if name is not one. */
uint64_t js_log_gen(const char *name);

/*
 * Log records (workloads/jetstress_lrec.c).  Every change a session makes to a page is logged
 * as one record that says which page it updates and from which page time to which: ESE's
 * redo rule (microsoft/Extensible-Storage-Engine, dev/ese/src/ese/_log/logredo.cxx,
 * FLGNeedRedoCheckDbtimeBefore()): a page whose time is at or past the record's "after" has
 * the change already (skip); one at the record's "before" gets it (redo); any other time
 * means a write the storage lost (JET_errDbTimeTooOld) or a page from the future
 * (JET_errDbTimeTooNew).  A page's time is its header's generation (dbfile.h).
 *
 * A record, little-endian, at its LSN (its byte position in the database's log stream; log
 * file gen holds LSNs [(gen - 1) x JS_LOG_DATA, gen x JS_LOG_DATA) after its header; a record
 * never crosses into the next file: the rest of a file too short for the next record is a
 * fill record, or zeros when shorter than a header):
 *   0 crc     CRC32C (ISA-L) of bytes 4 .. len, seeded with the database id
 *   4 magic   JS_LREC_MAGIC
 *   8 len     the whole record, header included
 *  12 type    JS_LR_UPDATE or JS_LR_FILL;  13 flags (JS_LRF_*);  14 session (u16)
 *  16 lsn     its own LSN (a record left from an older file at that place does not match)
 *  24 pgno    the page it changes (0 for a fill)
 *  32 before  the page's time before the change;  40 after  the page's time after it
 *  48 txn     the transaction type (enum js_txn);  49..55 zero
 *  56 ...     the changed data (len - JS_LREC_HDR bytes)
 */
#define JS_LREC_MAGIC 0x31524c46U /* "FLR1" */
#define JS_LREC_HDR 56
#define JS_LREC_MAX 2560 /* the largest record the mix makes, header included */
enum js_lr_type {
	JS_LR_UPDATE = 1, /* a page's change */
	JS_LR_FILL = 2,   /* the rest of a log file */
};
enum {
	JS_LRF_DURABLE = 1, /* its transaction's commit waited for the log (not lazy) */
};
struct js_lrec {
	uint8_t type, flags, txn;
	uint16_t session;
	uint32_t len;
	uint64_t lsn, pgno, before, after;
};
/*
 * js_lrec_seal - write r's header into rec (r->len bytes, the changed data already at rec +
 * JS_LREC_HDR) and its CRC32C seeded with dbid.
 */
void js_lrec_seal(void *rec, const struct js_lrec *r, uint64_t dbid);
/*
 * js_lrec_parse - the record at buf, at most avail bytes, expected at LSN lsn: into *r, NULL
 * when it is whole and verifies; else why not ("no record", "bad magic", "bad length", "crc
 * mismatch", "wrong lsn").  The end of the log in a file reads as "no record" (zeros).
 */
const char *js_lrec_parse(const void *buf, size_t avail, uint64_t lsn, uint64_t dbid,
			  struct js_lrec *r);

/*
 * js_log_scan - the records of one log file's data (data, len bytes, the file's first LSN
 * file_base) in order, fn called with each update record (fill records end the file); stops
 * at the first that does not verify.  *end gets the LSN past the last good record; the
 * return value is 1 when the file's records reach its end (a fill, or fewer than a header's
 * bytes left), 0 when they end inside it (the end of the log: where a run stopped), or what
 * fn returned when it was not 0.  why (may be NULL) gets the reason the scan stopped early.
 */
int js_log_scan(const void *data, size_t len, uint64_t file_base, uint64_t dbid,
		int (*fn)(const struct js_lrec *r, void *ctx), void *ctx, uint64_t *end,
		const char **why);

/* What a replay does with a page of time page for an update record (before, after). */
enum js_redo {
	JS_REDO_SKIP,     /* the page has it already (page >= after) */
	JS_REDO_APPLY,    /* page == before: apply it, the page's time becomes after */
	JS_REDO_TOO_OLD,  /* page < before: a write of this page was lost */
	JS_REDO_TOO_NEW,  /* before < page < after: the page is from another history */
};
enum js_redo js_redo_check(uint64_t page, uint64_t before, uint64_t after);
extern const char *const js_redo_names[];

/* The spread of n values (seconds per log file): NaN everywhere when n is 0. */
struct js_spread {
	double mean, sd, min, p50, p95, max;
};
void js_spread(const double *v, size_t n, struct js_spread *s);

/*
 * js_next_dbtime - the time a change gives a page now at page when the database's clock
 * stands at clock: past both (a page's time only ever grows, and so does the clock).
 */
static inline uint64_t js_next_dbtime(uint64_t clock, uint64_t page)
{
	return (clock > page ? clock : page) + 1;
}

/* The verdict (threshold sets, latency samples, checks) is in verdict.h. */

#endif
