// SPDX-License-Identifier: MIT
/* dbfile.c: fslab database files: page stamping, verification, creation and reuse. */
#include "dbfile.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/base.h"
#include "lib/crc32c.h"
#include "io/ioengine.h"
#include "os/os.h"
#include "lib/random.h"

#define TAG_BYTES 16

void db_fill_payload(void *buf, size_t len, struct rng *r, unsigned int compressibility)
{
	uint64_t *p = buf;
	size_t zero = 4096 * MIN(compressibility, 100U) / 100;

	for (size_t i = 0; i < len / 8; i++)
		p[i] = rng_next(r);
	if (zero)
		for (size_t off = 0; off < len; off += 4096)
			memset((char *)buf + off + 4096 - zero, 0, zero);
}

void db_stamp_page(void *page, uint64_t dbid, uint64_t pgno, uint64_t gen)
{
	struct page_hdr *h = page;

	for (unsigned int b = 1; b < DB_PAGE_SIZE / 4096; b++) {
		uint64_t *tag = (uint64_t *)((char *)page + b * 4096);

		tag[0] = mix64(dbid ^ (pgno << 3 | b));
		tag[1] = mix64(gen + tag[0]);
	}
	h->magic = DB_PAGE_MAGIC;
	h->pgno = pgno;
	h->gen = gen;
	h->dbid = dbid;
	h->crc = ~crc32c(~0U, (const char *)page + 4, DB_PAGE_SIZE - 4);
}

const char *db_verify_page(const void *page, uint64_t dbid, uint64_t pgno)
{
	const struct page_hdr *h = page;

	if (h->crc != ~crc32c(~0U, (const char *)page + 4, DB_PAGE_SIZE - 4))
		return "crc mismatch";
	if (h->magic != DB_PAGE_MAGIC)
		return "bad magic";
	if (h->pgno != pgno)
		return "wrong page number";
	if (dbid && h->dbid != dbid)
		return "page from another database";
	return NULL;
}

unsigned int db_open_flags(bool direct, bool dsync)
{
	return OS_RDWR | (direct ? OS_DIRECT : 0) | (dsync ? OS_WRITE_THROUGH : 0);
}

static bool all_zero(const void *buf, size_t len)
{
	const uint64_t *p = buf;

	for (size_t i = 0; i < len / 8; i++)
		if (p[i])
			return false;
	return true;
}

/* A header page that does not verify: ours half-made, ours damaged, or someone else's. */
static int inspect_bad_header(struct os_file *f, const struct db_place *pl, const void *hdr,
			      void *page1)
{
	const struct page_hdr *h = hdr;
	const struct db_info *di = (const struct db_info *)((const char *)hdr + sizeof(*h));
	bool p1_ours = os_pread(f, page1, DB_PAGE_SIZE, pl->base + DB_PAGE_SIZE) ==
			       DB_PAGE_SIZE && !db_verify_page(page1, 0, 1);

	if (all_zero(hdr, DB_PAGE_SIZE)) {
		/* a raw device that was never written: no database yet, nothing was interrupted */
		if (pl->raw && !p1_ours && all_zero(page1, DB_PAGE_SIZE))
			return DB_MISSING;
		/* older versions wrote the header last: fslab's pages under a zeroed header are
		 * a creation killed part-way; zeros alone say nothing about whose file it is */
		return p1_ours || (pl->raw && all_zero(page1, DB_PAGE_SIZE)) ? DB_INTERRUPTED
									    : DB_FOREIGN;
	}
	if (h->magic == DB_PAGE_MAGIC || p1_ours ||
	    !strncmp(di->signature, DB_SIGNATURE, sizeof(di->signature)) ||
	    !strncmp(di->signature, DB_SIGNATURE_V1, sizeof(di->signature)))
		return DB_CORRUPT;
	return DB_FOREIGN;
}

/*
 * The file at pl opened read-only without following anything into *f, *size its size; or
 * *f NULL and *state what is there without reading it: DB_MISSING, DB_FOREIGN (a link, not a
 * regular file, an empty file).  0 or -errno.
 */
static int inspect_open(struct db_place *pl, struct os_file **f, uint64_t *size, int *state)
{
	struct os_id id;
	int ret;

	*f = NULL;
	if (pl->raw) {
		ret = os_open(pl->path, OS_RDONLY, f);
		if (ret)
			return ret;
	} else {
		pl->id = 0;
		ret = os_dirh_open_file(pl->d, pl->name, OS_RDONLY, f);
		*state = ret == -ENOENT ? DB_MISSING : DB_FOREIGN;
		/* missing; a link, a FIFO, a device, a directory */
		if (ret == -ENOENT || ret == -ELOOP || ret == -EINVAL)
			return 0;
		if (ret)
			return ret;
		ret = os_file_id(*f, &id);
		if (ret)
			goto fail;
		pl->id = id.ino;
	}
	ret = os_file_size(*f, size);
	if (ret)
		goto fail;
	/* empty: nothing fslab wrote (a creation killed before its header is a moment) */
	if (!pl->raw && *size == 0) {
		pl->id = 0;
		*state = DB_FOREIGN;
		goto fail;
	}
	return 0;
fail:
	os_close(*f);
	*f = NULL;
	return ret;
}

/* A verified header page's db_info: whose it is, and for what (*info set when fslab's). */
static int inspect_info(const struct db_place *pl, const struct db_info *di, uint64_t size,
			uint64_t npages, unsigned int compressibility, struct db_info *info)
{
	const uint64_t want = npages * DB_PAGE_SIZE;

	if (!strncmp(di->signature, DB_SIGNATURE, sizeof(di->signature))) {
		/* a copy of one of fslab's databases is not the database fslab made there */
		if (!pl->raw && di->file_id != pl->id)
			return DB_FOREIGN;
	} else if (strncmp(di->signature, DB_SIGNATURE_V1, sizeof(di->signature))) {
		return pl->raw ? DB_OTHER_FSLAB : DB_FOREIGN;
	}
	*info = *di;
	if (!di->complete)
		return DB_INTERRUPTED;
	if (di->page_size != DB_PAGE_SIZE || di->npages != npages ||
	    di->compressibility != compressibility ||
	    (pl->raw ? size < pl->base + want : size != want))
		return DB_OTHER_FSLAB;
	return DB_VALID;
}

int db_inspect(struct db_place *pl, uint64_t npages, unsigned int compressibility,
	       struct db_info *info)
{
	const struct db_info *di;
	struct os_file *f;
	uint64_t size;
	void *buf, *page1;
	int ret, state;
	ssize_t n;

	memset(info, 0, sizeof(*info));
	ret = inspect_open(pl, &f, &size, &state);
	if (ret || !f)
		return ret ? ret : state;
	buf = xmalloc_aligned(DB_PAGE_SIZE);
	page1 = xmalloc_aligned(DB_PAGE_SIZE);
	n = os_pread(f, buf, DB_PAGE_SIZE, pl->base);
	di = (const struct db_info *)((char *)buf + sizeof(struct page_hdr));
	if (n != DB_PAGE_SIZE) {
		ret = pl->raw ? DB_OTHER_FSLAB : DB_FOREIGN;
	} else if (db_verify_page(buf, 0, 0)) {
		ret = inspect_bad_header(f, pl, buf, page1);
		/* a raw slice that is nobody's database: the device was checked as a whole */
		if (pl->raw && ret == DB_FOREIGN)
			ret = DB_OTHER_FSLAB;
	} else {
		ret = inspect_info(pl, di, size, npages, compressibility, info);
	}
	/* only a file of fslab's is one db_open() and db_create() may act on */
	if (ret == DB_FOREIGN)
		pl->id = 0;
	os_close(f);
	free_aligned(buf);
	free_aligned(page1);
	return ret;
}

int db_open(const struct db_place *pl, unsigned int flags, struct os_file **out)
{
	struct os_id id;
	int ret;

	if (pl->raw)
		return os_open(pl->path, flags, out);
	ret = os_dirh_open_file(pl->d, pl->name, flags & ~(OS_CREATE | OS_TRUNC), out);
	if (ret)
		return ret == -ENOENT || ret == -ELOOP || ret == -EINVAL ? -ESTALE : ret;
	ret = os_file_id(*out, &id);
	if (!ret && (!pl->id || id.ino != pl->id))
		ret = -ESTALE;
	if (ret) {
		os_close(*out);
		*out = NULL;
	}
	return ret;
}

uint64_t db_allocated(const struct db_place *pl)
{
	struct os_entry e;

	if (pl->raw || !pl->id || os_dirh_stat(pl->d, pl->name, &e) || e.kind != OS_KIND_FILE ||
	    e.id.ino != pl->id)
		return 0;
	return e.allocated;
}

/* Remove the file db_inspect() found at pl (it is fslab's), if it is still the one there:
 * emptied, then unnamed (os_dirh_remove_file()).  0 (also when nothing is there), -ESTALE,
 * or -errno. */
static int remove_found(struct db_place *pl)
{
	int ret;

	if (!pl->id)
		return 0;
	ret = os_dirh_remove_file(pl->d, pl->name, pl->id);
	if (ret == -ENOENT)
		ret = 0;
	if (!ret)
		pl->id = 0;
	return ret;
}

/*
 * Write the header page (page 0) at base from buf (one page; its payload taken from payload)
 * describing *info with complete as given.  0 or -errno.
 */
static int write_header(struct io_ctx *ctx, struct io_u *io, void *buf, const void *payload,
			struct db_info *info, uint32_t complete)
{
	struct db_info *di = (struct db_info *)((char *)buf + sizeof(struct page_hdr));
	int ret;

	memcpy(buf, payload, DB_PAGE_SIZE);
	info->complete = complete;
	*di = *info;
	db_stamp_page(buf, 0, 0, 1);
	io->len = DB_PAGE_SIZE;
	io->buf = buf;
	ret = io_sync(ctx, io);
	return ret == DB_PAGE_SIZE ? 0 : (ret < 0 ? ret : -EIO);
}

#define CHUNK (1024 * 1024)
#define CHUNK_PAGES (CHUNK / DB_PAGE_SIZE)
#define DEPTH 8 /* as fio's reference: 1 MiB writes, iodepth 8 */

/*
 * The file (or raw region) of @pl opened for writing: on a filesystem the file fslab had
 * there removed and a new one created exclusively, its identity in pl->id and info->file_id.
 * 0 with *f open, or -errno.
 */
static int create_open(struct db_place *pl, bool direct, struct db_info *info,
		       struct os_file **f)
{
	struct os_id id;
	int ret;

	if (pl->raw)
		return os_open(pl->path, db_open_flags(direct, false), f);
	ret = remove_found(pl);
	if (!ret)
		ret = os_dirh_open_file(pl->d, pl->name, db_open_flags(direct, false) | OS_CREATE, f);
	if (ret)
		return ret;
	ret = os_file_id(*f, &id);
	if (ret) {
		os_close(*f);
		(void)os_dirh_unlink(pl->d, pl->name); /* created exclusively a moment ago */
		return ret;
	}
	pl->id = info->file_id = id.ino;
	return 0;
}

/*
 * Allocate the whole file (fio's fallocate=native does the same): direct writes that extend
 * a file are serialised by the filesystem (i_size updates under the inode lock on ext4 and
 * XFS), so DEPTH writes in flight would run one at a time.  Where the filesystem cannot
 * (ntfs-3g, some FUSE), the writes extend the file as before.  0 or -errno.
 */
static int allocate(struct os_file *f, uint64_t npages)
{
	int ret = os_file_allocate(f, npages * DB_PAGE_SIZE);

	return ret == -EOPNOTSUPP ? 0 : ret;
}

/*
 * Pages 1.. of the database, DEPTH chunks of CHUNK bytes in flight, each page stamped with
 * generation gen; the chunk buffers (ios[].buf) hold the payload.  Stops early when *stop is
 * set (-EINTR).
 * Nothing is left in flight on return.  0 or -errno.
 */
static int write_pages(struct io_ctx *ctx, struct io_u *ios, uint64_t base, uint64_t npages,
		       const struct db_info *info, struct rng *r, const atomic_int *stop,
		       uint64_t gen)
{
	struct io_u *done[DEPTH], *free_ios[DEPTH];
	unsigned int nfree = DEPTH;
	uint64_t next = 1;
	int ret = 0;

	for (unsigned int i = 0; i < DEPTH; i++)
		free_ios[i] = &ios[i];
	while (!ret && (next < npages || nfree < DEPTH)) {
		/* keep DEPTH chunks in flight */
		while (nfree && next < npages && !(stop && *stop)) {
			struct io_u *io = free_ios[--nfree];
			uint64_t pages = MIN((uint64_t)CHUNK_PAGES, npages - next);

			/*
			 * Vary the payload between chunks so whole pages never repeat: one word of
			 * every page's first 4 KiB block (after its header) changes in place, so no
			 * 1 MiB copy per chunk (the copy held initialisation to about half the
			 * device's sequential write rate).
			 */
			for (uint64_t p = 0; p < pages; p++)
				((uint64_t *)((char *)io->buf + p * DB_PAGE_SIZE))[8 + (next & 63)] ^=
					rng_next(r);
			for (uint64_t p = 0; p < pages; p++)
				db_stamp_page((char *)io->buf + p * DB_PAGE_SIZE, info->dbid, next + p, gen);
			io->off = base + next * DB_PAGE_SIZE;
			io->len = pages * DB_PAGE_SIZE;
			next += pages;
			ret = io_submit(ctx, &io, 1);
			if (ret)
				break;
		}
		if (ret)
			break;
		if (nfree == DEPTH) { /* stopped */
			ret = -EINTR;
			break;
		}
		{
			int n = io_reap(ctx, done, 1, DEPTH);

			if (n < 0) {
				ret = n;
				break;
			}
			for (int i = 0; i < n; i++) {
				if (done[i]->res != (int)done[i]->len)
					ret = done[i]->res < 0 ? done[i]->res : -EIO;
				free_ios[nfree++] = done[i];
			}
		}
		if (stop && *stop && !ret)
			ret = nfree == DEPTH ? -EINTR : 0;
	}
	/* whatever is still in flight after an error is drained before the buffers go; the
	 * error that stopped the writes is the one reported */
	(void)io_drain(ctx, done, DEPTH);
	return ret;
}

/* The DEPTH chunk buffers (in bufs) of writes to f, each a copy of payload. */
static void chunks_init(struct io_u *ios, void *bufs, const void *payload, struct os_file *f)
{
	for (unsigned int i = 0; i < DEPTH; i++) {
		ios[i].buf = (char *)bufs + (size_t)i * CHUNK;
		memcpy(ios[i].buf, payload, CHUNK); /* once: a chunk then changes only in place */
		ios[i].file = f;
		ios[i].op = IO_WRITE;
	}
}

int db_create(struct db_place *pl, uint64_t npages, uint64_t seed,
	      unsigned int compressibility, bool direct, const char *engine,
	      const atomic_int *stop, struct db_info *info, struct db_create_stats *st)
{
	struct io_u ios[DEPTH];
	struct io_ctx ctx;
	struct rng r;
	uint64_t t0 = now_ns();
	void *payload, *bufs;
	struct os_file *f;
	int ret;

	memset(info, 0, sizeof(*info));
	rng_seed(&r, seed ^ mix64(npages));
	info->dbid = rng_next(&r) | 1;
	ret = create_open(pl, direct, info, &f);
	if (ret)
		return ret;
	ret = io_ctx_init(&ctx, engine, DEPTH);
	if (ret) {
		os_close(f);
		if (!pl->raw)
			(void)remove_found(pl);
		return ret;
	}
	payload = xmalloc_aligned(CHUNK);
	bufs = xmalloc_aligned((size_t)CHUNK * DEPTH);
	db_fill_payload(payload, CHUNK, &r, compressibility);
	/* the header first, saying "incomplete" and naming the file: a creation killed from
	 * here on is recognised (DB_INTERRUPTED) instead of looking like someone else's file */
	strncpy(info->signature, DB_SIGNATURE, sizeof(info->signature));
	info->page_size = DB_PAGE_SIZE;
	info->npages = npages;
	info->seed = seed;
	info->created_unix = (uint64_t)time(NULL);
	info->compressibility = compressibility;
	ios[0] = (struct io_u){ .file = f, .op = IO_WRITE, .off = pl->base };
	ret = write_header(&ctx, &ios[0], bufs, payload, info, 0);
	if (!ret && !pl->raw)
		ret = allocate(f, npages);
	chunks_init(ios, bufs, payload, f);
	if (!ret)
		ret = write_pages(&ctx, ios, pl->base, npages, info, &r, stop, 1);
	/* the pages on stable storage before the header says they are all there */
	if (!ret)
		ret = os_file_datasync(f);
	if (!ret) {
		ios[0].off = pl->base;
		ret = write_header(&ctx, &ios[0], bufs, payload, info, 1);
	}
	if (!ret)
		ret = os_file_sync(f);
	io_ctx_release(&ctx);
	os_close(f);
	if (ret && !pl->raw)
		(void)remove_found(pl);
	st->bytes = npages * DB_PAGE_SIZE;
	st->seconds = (now_ns() - t0) / 1e9;
	free_aligned(payload);
	free_aligned(bufs);
	return ret;
}

int db_overwrite(const struct db_place *pl, const struct db_info *info, unsigned int passes,
		 bool direct, const char *engine, const atomic_int *stop,
		 struct db_create_stats *st)
{
	struct io_u ios[DEPTH];
	struct io_ctx ctx;
	struct rng r;
	uint64_t t0 = now_ns();
	void *payload, *bufs;
	struct os_file *f;
	int ret;

	memset(st, 0, sizeof(*st));
	ret = db_open(pl, db_open_flags(direct, false), &f);
	if (ret)
		return ret;
	ret = io_ctx_init(&ctx, engine, DEPTH);
	if (ret) {
		os_close(f);
		return ret;
	}
	/* new data, not the creation's: a pass writes what the device has not seen */
	rng_seed(&r, info->seed ^ mix64(info->npages) ^ mix64(info->dbid + passes));
	payload = xmalloc_aligned(CHUNK);
	bufs = xmalloc_aligned((size_t)CHUNK * DEPTH);
	db_fill_payload(payload, CHUNK, &r, info->compressibility);
	chunks_init(ios, bufs, payload, f);
	for (unsigned int p = 0; p < passes && !ret; p++) {
		ret = write_pages(&ctx, ios, pl->base, info->npages, info, &r, stop, 2 + p);
		if (!ret)
			st->bytes += (info->npages - 1) * DB_PAGE_SIZE;
	}
	if (!ret)
		ret = os_file_datasync(f);
	io_ctx_release(&ctx);
	os_close(f);
	st->seconds = (now_ns() - t0) / 1e9;
	free_aligned(payload);
	free_aligned(bufs);
	return ret;
}
