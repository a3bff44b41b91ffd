/* SPDX-License-Identifier: MIT */
/* dbfile.h: fslab database files: 32 KiB pages stamped with page number, generation, CRC32C. */
#ifndef FSLAB_DBFILE_H
#define FSLAB_DBFILE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/os.h"
#include "lib/random.h"

/* ESE database page size of Exchange 2007 and later (32 KiB). */
#define DB_PAGE_SIZE (32 * 1024)
#define DB_PAGE_MAGIC 0x50424c46U /* "FLBP" */
/*
 * The header's signature.  FSLAB-EDB-2 also records the file the database was created as
 * (db_info.file_id): a copy of it, or the header copied into another file, is not fslab's
 * database.  FSLAB-EDB-1 (before) is read as fslab's without that check.
 */
#define DB_SIGNATURE "FSLAB-EDB-2"
#define DB_SIGNATURE_V1 "FSLAB-EDB-1"

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
	uint64_t file_id; /* FSLAB-EDB-2: the inode (file index) of the file; 0 on a raw device */
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
 * A database lives in a regular file (base 0, the whole file) named name in the directory d,
 * which someone else may write (os.h "directories someone else may write": the file is
 * reached only through d, never through a link, created exclusively), or, for a raw-device
 * baseline, in a slice of the block device path starting at base.  path names it in
 * messages.  db_inspect() records the file it found (id), and db_open() and db_create()
 * act on that file only: one exchanged for it since is refused (-ESTALE).
 */
struct db_place {
	const char *path;
	struct os_dirh *d;   /* NULL for a raw device */
	const char *name;
	uint64_t base;
	bool raw;
	uint64_t id;         /* the inode (file index) db_inspect() found; 0: none */
};

/*
 * db_inspect - classify what is at place for a database of npages pages, never following a
 * link (a link, a FIFO, a device, a directory there are DB_FOREIGN).  *info gets the header of
 * a fslab database.  Only what fslab wrote makes a file fslab's: a header page with fslab's
 * magic and signature naming this very file (FSLAB-EDB-2), complete (DB_VALID,
 * DB_OTHER_FSLAB) or saying "incomplete" (DB_INTERRUPTED: a creation killed part-way); from
 * older versions a zeroed header page followed by an fslab page 1 is DB_INTERRUPTED too.
 * An empty file, zeros, or anything else is DB_FOREIGN.  A header page that fails to verify
 * while it (or page 1) is recognisably fslab's is DB_CORRUPT.  On a raw device anything else
 * that is not an fslab database of the right geometry is DB_OTHER_FSLAB: the device as a
 * whole was checked before.  Returns the state, or -errno when it cannot be read.
 */
int db_inspect(struct db_place *pl, uint64_t npages, unsigned int compressibility,
	       struct db_info *info);
/* db_open - the database db_inspect() (or db_create()) found at pl, opened with OS_* flags:
 * 0, -ESTALE when another file is there now, or -errno. */
int db_open(const struct db_place *pl, unsigned int flags, struct os_file **out)
	__attribute__((warn_unused_result));
/* Bytes allocated to the file found at pl (what recreating it frees); 0 when none. */
uint64_t db_allocated(const struct db_place *pl);

struct db_create_stats {
	uint64_t bytes;
	double seconds;
};
/*
 * db_create - write a complete database: a header page saying "incomplete" first, pages
 * 1..npages-1 sequentially with 1 MiB writes, fdatasync, the complete header page last, then
 * fsync: an interrupted creation never looks valid and is recognised as interrupted.
 * A file is created afresh: the one db_inspect() found there (any of fslab's) is removed
 * first, and the new one created exclusively (a name planted meanwhile makes it fail with
 * -EEXIST, nothing written through it); its header names it; pl->id is set to it.  A raw
 * device slice is overwritten.
 * engine names the I/O back end; *stop is polled (returns -EINTR when set).  0 or -errno.
 */
int db_create(struct db_place *pl, uint64_t npages, uint64_t seed,
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
