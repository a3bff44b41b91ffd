// SPDX-License-Identifier: MIT
/* workload.c: the workload table and helpers shared by workloads. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/base.h"
#include "dbfile.h"
#include "io/ioengine.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/strbuf.h"
#include "lib/units.h"
#include "workload.h"

/*
 * The workloads, in --help order: a new workload is its own file (defining wl_<name>) and one
 * line here.
 */
#define WORKLOADS(X) \
	X(jetstress) \
	X(randread) \
	X(randwrite) \
	X(randrw) \
	X(seqwrite) \
	X(backup) \
	X(recovery)

#define DECLARE(n) extern const struct workload_ops workload_##n;
#define ENTRY(n) &workload_##n,
WORKLOADS(DECLARE)
static const struct workload_ops *const workloads[] = { WORKLOADS(ENTRY) };

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

unsigned int workload_flags(const char *name)
{
	const struct workload_ops *wl = workload_find(name);

	return wl ? wl->flags : 0;
}

static void names(struct strbuf *sb, unsigned int flags)
{
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
		if ((workloads[i]->flags & flags) == flags)
			strbuf_addf(sb, "%s%s", sb->len ? ", " : "", workloads[i]->name);
}

const char *workload_names(void)
{
	static struct strbuf sb = STRBUF_INIT;

	if (!sb.len)
		names(&sb, 0);
	return sb.buf;
}

const char *workload_names_with(unsigned int flags)
{
	static struct strbuf sb = STRBUF_INIT;

	strbuf_reset(&sb);
	names(&sb, flags);
	return sb.buf;
}

struct wl_job *wl_export_add(struct wl_export *x, enum wl_job_kind kind, const char *dir,
			     const char *fmt, ...)
{
	struct wl_job *j;
	va_list ap;

	x->jobs = xrealloc(x->jobs, (x->njobs + 1) * sizeof(*x->jobs));
	j = &x->jobs[x->njobs++];
	memset(j, 0, sizeof(*j));
	j->kind = kind;
	j->dir = dir;
	va_start(ap, fmt);
	vsnprintf(j->name, sizeof(j->name), fmt, ap);
	va_end(ap);
	return j;
}

void wl_export_release(struct wl_export *x)
{
	free(x->jobs);
	free(x->approx);
	memset(x, 0, sizeof(*x));
}

unsigned int wl_threads_of(unsigned int threads, size_t n, size_t i)
{
	return (unsigned int)(threads / n + (i < threads % n));
}

void run_done(struct run_ctx *rc)
{
	uint64_t expected = 0;

	__atomic_compare_exchange_n(&rc->done_ns, &expected, now_ns(), false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
}

void run_fail(struct run_ctx *rc, const char *fmt, ...)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	int expected = 0;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	fslab_err("%s; stopping the run", msg ? msg : fmt);
	pthread_mutex_lock(&lock);
	if (!rc->fail_reason && msg) {
		rc->fail_reason = msg;
		msg = NULL;
	}
	pthread_mutex_unlock(&lock);
	free(msg);
	atomic_compare_exchange_strong(rc->stop, &expected, RUN_STOP_FAILED);
}

/* The file at pl, complete now, into rc's list. */
static void wl_files_add(struct run_ctx *rc, const struct db_place *pl, const struct db_info *info)
{
	struct wl_file *f;

	rc->files = xrealloc(rc->files, (rc->nfiles + 1) * sizeof(*rc->files));
	f = &rc->files[rc->nfiles++];
	*f = (struct wl_file){ .path = xstrdup(pl->path), .d = pl->d,
			       .name = pl->name ? xstrdup(pl->name) : NULL, .id = pl->id,
			       .base = pl->base, .raw = pl->raw,
			       .npages = info->npages, .dbid = info->dbid, .seed = info->seed,
			       .compressibility = info->compressibility };
}

void wl_files_release(struct run_ctx *rc)
{
	for (size_t i = 0; i < rc->nfiles; i++) {
		free(rc->files[i].path);
		free(rc->files[i].name);
	}
	free(rc->files);
	rc->files = NULL;
	rc->nfiles = 0;
}

const char *workload_place_error(int err)
{
	if (err == -ESTALE || err == -EEXIST || err == -ELOOP || err == -ENOTDIR)
		return "another file or a link took its name meanwhile (someone else writes this "
		       "directory); nothing was written through it: give a directory only you "
		       "can write";
	return strerror(-err);
}

unsigned int workload_io_hints(const struct volume *vol)
{
	return vol->nowait == 0 ? IO_HINT_NO_NOWAIT : 0;
}

int check_free_space(const struct volume *vol, uint64_t need, const char *what)
{
	char a[32], b[32];

	if (vol->fs_avail >= need)
		return 0;
	return input_error("%s: not enough free space for %s: need %s, %s available on %s; "
			   "use a smaller --db-size or fewer --databases, or free space",
			   vol->dir, what, fmt_size(a, sizeof(a), need),
			   fmt_size(b, sizeof(b), vol->fs_avail), vol->mountpoint);
}

int workload_init_file(struct run_ctx *rc, struct db_place *pl, int state,
		       uint64_t npages, uint64_t seed, struct db_info *info, const char *what)
{
	const struct run_config *o = rc->o;
	struct init_result *ir = &rc->res->init;
	struct db_create_stats st;
	char sz[32];
	int ret;

	fmt_size(sz, sizeof(sz), npages * DB_PAGE_SIZE);
	if (state == DB_VALID && !o->fresh) {
		fslab_info("%s: reusing the existing %s %s", pl->path, sz, what);
		ir->reused++;
		wl_files_add(rc, pl, info);
		return 0;
	}
	fslab_info("%s: %s %s %s (32 KiB pages, %u %% compressible)", pl->path,
		   state == DB_OTHER_FSLAB ? "recreating (other geometry)"
		   : state == DB_INTERRUPTED ? "recreating (its initialisation was interrupted)"
		   : state == DB_CORRUPT ? "recreating (its header page was corrupt)"
		   : o->fresh ? "creating (--fresh)" : "creating",
		   sz, what, o->compressibility);
	if (state == DB_INTERRUPTED)
		result_add_note(rc->res, "%s: the %s's initialisation had been interrupted (an "
				"earlier run was killed while creating it): created again", pl->path,
				what);
	else if (state == DB_CORRUPT)
		result_add_note(rc->res, "%s: the raw device's %s header page was corrupt (it "
				"failed verification): created again", pl->path, what);
	ret = db_create(pl, npages, seed, o->compressibility, rc->direct, o->engine, rc->stop,
			info, &st);
	if (ret) {
		if (ret != -EINTR)
			fslab_err("%s: creating the %s failed: %s", pl->path, what,
				  workload_place_error(ret));
		return ret;
	}
	ir->created++;
	wl_files_add(rc, pl, info);
	ir->bytes_written += st.bytes;
	ir->seconds += st.seconds;
	ir->mbps = ir->seconds > 0 ? ir->bytes_written / ir->seconds / 1e6 : 0;
	fslab_info("%s: initialised at %.0f MB/s", pl->path,
		   st.seconds > 0 ? st.bytes / st.seconds / 1e6 : 0);
	return 0;
}
