/* SPDX-License-Identifier: MIT */
/* dbfile.h: fslab database files: 32 KiB pages stamped with page number, generation, CRC32C. */
#ifndef FSLAB_DBFILE_H
#define FSLAB_DBFILE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "random.h"

/* ESE database page size of Exchange 2007 and later (32 KiB). */
#define DB_PAGE_SIZE (32 * 1024)
#define DB_PAGE_MAGIC 0x50424c46U /* "FLBP" */
#define DB_SIGNATURE "FSLAB-EDB-1"

/*
 * Every page starts with this header; the CRC covers the rest of the page.  Each 4 KiB block
 * after the first also carries a 16-byte tag derived from (dbid, page, generation, block), so
 * no two 4 KiB blocks anywhere are identical (non-deduplicable), while the payload between
 * the tags is the thread's random buffer (incompressible, or compressible by --compressibility).
 */
struct page_hdr {
	uint32_t crc;
	uint32_t magic;
	uint64_t pgno;
	uint64_t gen;
	uint64_t dbid;
};

/* Page 0: the database header, a stamped page whose payload starts with this. */
struct db_info {
	char signature[16];
	uint64_t page_size, npages, seed, created_unix, dbid;
	uint32_t compressibility, complete;
};

/* Fill buf (len, a multiple of 4 KiB) with payload: random bytes, of which compressibility %
 * of every 4 KiB block are zeros (fio's buffer_compress_percentage). */
void db_fill_payload(void *buf, size_t len, struct rng *r, unsigned int compressibility);
/* Stamp one page in place: tags, header, CRC. */
void db_stamp_page(void *page, uint64_t dbid, uint64_t pgno, uint64_t gen);
/* Verify one page: CRC, magic, page number (and dbid when dbid != 0).
 * Returns 0, or a short reason ("crc mismatch", "wrong page number", "bad magic"). */
const char *db_verify_page(const void *page, uint64_t dbid, uint64_t pgno);

/* os_open() flags for database and log files: OS_DIRECT (O_DIRECT, FILE_FLAG_NO_BUFFERING)
 * unless buffered; with dsync, writes are write-through (O_DSYNC, FILE_FLAG_WRITE_THROUGH). */
unsigned int db_open_flags(bool direct, bool dsync);

/* What an existing path holds. */
enum db_state {
	DB_MISSING,    /* no such file: will be created */
	DB_VALID,      /* complete fslab database of the wanted geometry: reuse */
	DB_OTHER_FSLAB, /* an fslab database of another size or compressibility: recreate */
	DB_FOREIGN,    /* something else: refuse to touch it */
	DB_INTERRUPTED, /* an fslab database whose creation never finished (killed): recreate */
	DB_CORRUPT,    /* an fslab database whose header page no longer verifies: refuse */
};
/*
 * A database lives in a regular file (base 0, the whole file) or, for a raw-device baseline,
 * in a slice of a block device starting at base.
 */
struct db_place {
	const char *path;
	uint64_t base;
	bool raw;
};

/*
 * db_inspect - classify what is at place for a database of npages pages.  *info gets the
 * header of a fslab database.  A creation that never finished (a header saying incomplete,
 * or, from older versions and before the first write, a zeroed header page followed by a
 * zeroed or fslab page 1; an empty file) is DB_INTERRUPTED; a header page that fails to
 * verify while it (or page 1) is recognisably fslab's is DB_CORRUPT.  On a raw device
 * anything else that is not an fslab database of the right geometry is DB_OTHER_FSLAB: the
 * device as a whole was checked before.  Returns the state, or -errno when it cannot be read.
 */
int db_inspect(const struct db_place *pl, uint64_t npages, unsigned int compressibility,
	       struct db_info *info);

struct db_create_stats {
	uint64_t bytes;
	double seconds;
};
/*
 * db_create - write a complete database: a header page saying "incomplete" first, pages
 * 1..npages-1 sequentially with 1 MiB writes, fdatasync, the complete header page last, then
 * fsync: an interrupted creation never looks valid and is recognised as interrupted.
 * A file is created (truncated); a raw device slice is overwritten.
 * engine names the I/O back end; *stop is polled (returns -EINTR when set).  0 or -errno.
 */
int db_create(const struct db_place *pl, uint64_t npages, uint64_t seed,
	      unsigned int compressibility, bool direct, const char *engine,
	      const atomic_int *stop, struct db_info *info, struct db_create_stats *st)
	__attribute__((warn_unused_result));

/*
 * db_overwrite - write pages 1..npages-1 of the complete database at pl (described by info)
 * over again, passes times, sequentially in 1 MiB writes as db_create() does: new payload,
 * generations 2, 3, ... (every page still verifies), then fdatasync.  The header page is left
 * as it is.  *st gets the bytes written and the seconds.  0 or -errno (-EINTR when stopped).
 */
int db_overwrite(const struct db_place *pl, const struct db_info *info, unsigned int passes,
		 bool direct, const char *engine, const atomic_int *stop,
		 struct db_create_stats *st) __attribute__((warn_unused_result));

#endif
