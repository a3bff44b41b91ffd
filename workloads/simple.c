// SPDX-License-Identifier: MIT
/*
 * simple.c: single-pattern workloads (randread, randwrite, randrw, seqwrite) with --bs and
 * --iodepth, to calibrate fslab against fio on identical patterns.  Each thread keeps
 * --iodepth I/Os in flight on the data file of its --db directory (fio: numjobs=threads,
 * one shared filename, offset=32k: the first 32 KiB hold the file's header).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/base.h"
#include "os/files.h"
#include "dbfile.h"
#include "io/ioengine.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/random.h"
#include "lib/units.h"
#include "workload.h"

/* The data file in each --db directory (run --fresh knows it by its header, not this name). */
#define SIMPLE_FILE "fslab-simple.edb"

enum pattern {
	PAT_RANDREAD,
	PAT_RANDWRITE,
	PAT_RANDRW,
	PAT_SEQWRITE,
};

struct sfile {
	char *path;
	struct db_place place;
	struct os_file *file;
	int state;
	struct db_info info;
};

struct sthread {
	struct run_ctx *rc;
	struct sfile *f;
	int id;
	pthread_t tid;
	bool started;
	unsigned int hints; /* IO_HINT_* of its file's volume */
	struct thread_stats *st;
};

struct simple {
	enum pattern pat;
	struct sfile *files;
	size_t nfiles;
	struct sthread *threads;
	unsigned int nthreads;
	uint64_t npages;
};

#define DATA_START DB_PAGE_SIZE /* never touch the header page */

static enum pattern pattern_of(const char *w)
{
	if (!strcmp(w, "randread"))
		return PAT_RANDREAD;
	if (!strcmp(w, "randwrite"))
		return PAT_RANDWRITE;
	if (!strcmp(w, "randrw"))
		return PAT_RANDRW;
	return PAT_SEQWRITE;
}

static int simple_check(struct run_ctx *rc)
{
	const struct run_config *o = rc->o;
	struct simple *s = xcalloc(1, sizeof(*s));
	uint64_t *need = xcalloc(o->ndb_dirs, sizeof(uint64_t));
	int ret = 0;

	rc->priv = s;
	s->pat = pattern_of(o->workload);
	if (o->db_size % DB_PAGE_SIZE || o->db_size < 16 * MiB) {
		ret = input_error("--db-size %llu: must be a multiple of 32 KiB and at least 16M; "
				  "e.g. --db-size 1G", (unsigned long long)o->db_size);
		goto out;
	}
	if (o->bs < 512 || o->bs % 512 || o->bs > 16 * MiB || DB_PAGE_SIZE % 512) {
		ret = input_error("--bs %llu: must be a multiple of 512 bytes between 512 and 16M; "
				  "e.g. --bs 4k", (unsigned long long)o->bs);
		goto out;
	}
	for (size_t i = 0; i < o->ndb_dirs; i++) {
		unsigned int ls = rc->db_vols[i].logical_sector;

		if (rc->direct && ls && o->bs % ls) {
			ret = input_error("--bs %llu is not a multiple of the %u-byte logical sector of "
					  "%s (O_DIRECT needs it); use e.g. --bs 4k",
					  (unsigned long long)o->bs, ls, rc->db_vols[i].source);
			goto out;
		}
	}
	if (o->bs > o->db_size - DATA_START) {
		ret = input_error("--bs is larger than the data file (--db-size); lower --bs");
		goto out;
	}
	s->npages = o->db_size / DB_PAGE_SIZE;
	s->nfiles = o->ndb_dirs;
	s->files = xcalloc(s->nfiles, sizeof(*s->files));
	for (size_t i = 0; i < s->nfiles; i++) {
		struct sfile *f = &s->files[i];

		f->file = NULL;
		/* a raw device: the data file is its first db_size bytes */
		f->path = rc->db_vols[i].raw ? xstrdup(rc->db_vols[i].dir)
					     : path_join(rc->db_vols[i].dir, SIMPLE_FILE);
		f->place = (struct db_place){ .path = f->path, .raw = rc->db_vols[i].raw,
					      .d = rc->db_vols[i].dh, .name = SIMPLE_FILE };
		f->state = db_inspect(&f->place, s->npages, o->compressibility, &f->info);
		if (f->state < 0) {
			ret = input_error("%s: cannot read it (%s)", f->path, strerror(-f->state));
			goto out;
		}
		if (f->state == DB_FOREIGN) {
			ret = input_error("%s exists and is not an fslab data file (no header of "
					  "fslab's naming this file; or a link, a device, a folder); "
					  "remove or rename it, or use another --db directory", f->path);
			goto out;
		}
		if (f->state == DB_CORRUPT && !f->place.raw) { /* raw: recreated, with a note */
			ret = input_error("%s: data file header corrupt (page 0 fails verification): "
					  "fslab created it but its header changed on disk since; keep "
					  "it to investigate, or remove it (rm %s) and fslab creates a "
					  "new one", f->path, f->path);
			goto out;
		}
		if (f->state != DB_VALID)
			need[i] = o->db_size - (f->place.raw ? 0 : MIN(o->db_size,
						db_allocated(&f->place)));
	}
	/* files on one filesystem add up */
	for (size_t i = 0; i < s->nfiles && !ret; i++) {
		uint64_t sum = 0;

		for (size_t j = 0; j < s->nfiles; j++)
			if (rc->db_vols[j].fs_dev == rc->db_vols[i].fs_dev)
				sum = sat_add(sum, need[j]);
		if (sum)
			ret = check_free_space(&rc->db_vols[i], sum, "the data files");
	}
out:
	free(need);
	return ret;
}

static int simple_prepare(struct run_ctx *rc)
{
	const struct run_config *o = rc->o;
	struct simple *s = rc->priv;
	int ret = 0;

	for (size_t i = 0; i < s->nfiles && !ret; i++) {
		struct sfile *f = &s->files[i];

		ret = workload_init_file(rc, &f->place, f->state, s->npages, o->seed + i, &f->info,
					 "data file");
		if (ret)
			break;
		/* plain O_DIRECT like fio's direct=1: no O_DSYNC for the calibration patterns */
		ret = db_open(&f->place, db_open_flags(rc->direct, false), &f->file);
		if (ret)
			fslab_err("%s: cannot open: %s", f->path, workload_place_error(ret));
	}
	return ret;
}

/* The pattern's next I/O: read or write, at a random block or the next of the thread's
 * sequential region (*seq, wrapping at blocks). */
static inline void aim(enum pattern pat, const struct run_config *o, struct io_u *io,
		       struct rng *r, uint64_t *seq, uint64_t blocks)
{
	bool rd;

	switch (pat) {
	case PAT_RANDREAD:
		rd = true;
		break;
	case PAT_RANDRW:
		rd = rng_below(r, 100) < o->rwmixread;
		break;
	default: /* PAT_RANDWRITE, PAT_SEQWRITE */
		rd = false;
		break;
	}
	io->op = rd ? IO_READ : IO_WRITE;
	io->cls = rd ? CLS_DB_READ : CLS_DB_WRITE;
	if (pat == PAT_SEQWRITE) {
		io->off = DATA_START + *seq * o->bs;
		*seq = *seq + 1 < blocks ? *seq + 1 : 0;
	} else {
		io->off = DATA_START + rng_below(r, blocks) * o->bs;
	}
}

static void *sthread_main(void *arg)
{
	struct sthread *t = arg;
	struct run_ctx *rc = t->rc;
	const struct run_config *o = rc->o;
	struct simple *s = rc->priv;
	struct engine *e = &rc->eng;
	unsigned int depth = o->iodepth;
	struct io_u *ios = xcalloc(depth, sizeof(*ios));
	struct io_u **batch = xcalloc(depth, sizeof(*batch));
	void *bufs = xmalloc_aligned((size_t)depth * o->bs);
	uint64_t blocks = (o->db_size - DATA_START) / o->bs;
	/* seqwrite: each thread its own region, like fio jobs with offset_increment */
	uint64_t region = MAX(blocks / s->nthreads, 1ULL), seq = region * t->id % blocks;
	struct io_ctx ctx;
	struct rng r;
	unsigned int n;
	int ret;

	ret = io_ctx_open(&ctx, o->engine, depth, t->hints);
	if (ret) {
		run_fail(rc, "thread %d: cannot set up %s: %s", t->id, o->engine, strerror(-ret));
		goto out;
	}
	rng_seed(&r, o->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)t->id);
	db_fill_payload(bufs, (size_t)depth * o->bs - ((size_t)depth * o->bs) % 4096, &r,
			o->compressibility);
	for (unsigned int i = 0; i < depth; i++) {
		ios[i].file = t->f->file;
		ios[i].buf = (char *)bufs + (size_t)i * o->bs;
		ios[i].len = (uint32_t)o->bs;
		batch[i] = &ios[i];
	}
	n = depth;
	while (engine_running(e)) {
		int k;

		for (unsigned int i = 0; i < n; i++)
			aim(s->pat, o, batch[i], &r, &seq, blocks);
		/* submit the batch and wait for the first completion in one step (io_uring: one
		 * system call per round trip) */
		k = io_submit_reap(&ctx, batch, n, batch, 1, depth);
		if (k < 0) {
			run_fail(rc, "thread %d: I/O: %s", t->id, strerror(-k));
			break;
		}
		for (int i = 0; i < k; i++) {
			struct io_u *io = batch[i];

			engine_account(e, t->st, io->cls, io->len, io->start_ns, io->end_ns,
				       io->res != (int)io->len);
		}
		n = (unsigned int)k;
	}
	(void)io_drain(&ctx, batch, depth); /* a failure was reported by run_fail() above */
	io_ctx_release(&ctx);
out:
	free(ios);
	free(batch);
	free_aligned(bufs);
	return NULL;
}

static int simple_start(struct run_ctx *rc)
{
	struct simple *s = rc->priv;

	s->nthreads = rc->o->threads;
	s->threads = xcalloc(s->nthreads, sizeof(*s->threads));
	for (unsigned int i = 0; i < s->nthreads; i++) {
		struct sthread *t = &s->threads[i];
		int ret;

		t->rc = rc;
		t->id = (int)i;
		t->f = &s->files[i % s->nfiles];
		t->hints = workload_io_hints(&rc->db_vols[i % s->nfiles]);
		t->st = engine_stats_new(&rc->eng, -1);
		ret = pthread_create(&t->tid, NULL, sthread_main, t);
		if (ret) {
			fslab_err("cannot start thread %u: %s", i, strerror(ret));
			return -ret;
		}
		t->started = true;
	}
	return 0;
}

static void simple_stop(struct run_ctx *rc)
{
	struct simple *s = rc->priv;

	for (unsigned int i = 0; s && i < s->nthreads; i++)
		if (s->threads[i].started)
			pthread_join(s->threads[i].tid, NULL);
}

static int simple_finish(struct run_ctx *rc)
{
	rc->res->verdict.present = false;
	return 0;
}

static void simple_cleanup(struct run_ctx *rc)
{
	struct simple *s = rc->priv;

	if (!s)
		return;
	for (size_t i = 0; i < s->nfiles; i++) {
		os_close(s->files[i].file);
		free(s->files[i].path);
	}
	free(s->files);
	free(s->threads);
	free(s);
	rc->priv = NULL;
}

/* The read share of the pattern (rwmixread, the randrw option, says it for every one); no
 * cache, no background maintenance, no page verification, no checksum pass. */
static void simple_config(struct run_config *c, const struct wl_given *given)
{
	enum pattern pat = pattern_of(c->workload);

	(void)given;
	if (pat != PAT_RANDRW)
		c->rwmixread = pat == PAT_RANDREAD ? 100 : 0;
	c->cache_size = 0;
	c->bdm_mbps = 0;
	c->no_verify = true;
	c->no_checksum_pass = true;
}

static void simple_describe(const struct run_config *c, FILE *f)
{
	char a[32], b[32];

	fprintf(f, ", bs %s, iodepth %u, file %s", fmt_size(a, sizeof(a), c->bs), c->iodepth,
		fmt_size(b, sizeof(b), c->db_size));
}

/* Exactly the pattern: per --db directory its threads on its data file. */
static int simple_export(const struct run_config *c, const struct wl_shape *sh,
			 struct wl_export *x)
{
	uint64_t data = c->db_size - DATA_START;

	(void)sh;
	for (size_t i = 0; i < c->ndb_dirs; i++) {
		unsigned int nj = wl_threads_of(c->threads, c->ndb_dirs, i);
		struct wl_job *j;

		if (!nj)
			continue;
		j = wl_export_add(x, WJ_PATTERN, c->db_dirs[i], "%s-%zu", c->workload, i + 1);
		j->size = c->db_size;
		j->offset = DATA_START;
		j->bs = c->bs;
		j->threads = nj;
		j->iodepth = c->iodepth;
		j->read_pct = c->rwmixread;
		if (pattern_of(c->workload) == PAT_SEQWRITE)
			j->region = data / c->bs / nj * c->bs;
	}
	return 0;
}

#define SIMPLE_OPS(n, h)                        \
	{                                       \
		.name = n,                      \
		.help = h,                      \
		.flags = WL_EXPORT_EXACT,       \
		.config = simple_config,        \
		.describe = simple_describe,    \
		.export = simple_export,        \
		.check = simple_check,          \
		.prepare = simple_prepare,      \
		.start = simple_start,          \
		.stop = simple_stop,            \
		.finish = simple_finish,        \
		.cleanup = simple_cleanup,      \
	}

const struct workload_ops workload_randread = SIMPLE_OPS("randread", "random reads, --bs, --iodepth");
const struct workload_ops workload_randwrite = SIMPLE_OPS("randwrite", "random writes, --bs, --iodepth");
const struct workload_ops workload_randrw = SIMPLE_OPS("randrw", "random reads and writes (--rwmixread)");
const struct workload_ops workload_seqwrite = SIMPLE_OPS("seqwrite", "sequential writes, a region per thread");
