// SPDX-License-Identifier: MIT
/* workload.c: the workload table and helpers shared by workloads. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "dbfile.h"
#include "util.h"
#include "workload.h"

static const struct workload_ops *const workloads[] = {
	&wl_jetstress, &wl_randread, &wl_randwrite, &wl_randrw, &wl_seqwrite,
};

const struct workload_ops *workload_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

const char *workload_names(void)
{
	static char buf[256];

	if (!buf[0])
		for (size_t i = 0; i < ARRAY_SIZE(workloads); i++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? ", " : "",
				 workloads[i]->name);
	return buf;
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

uint64_t workload_file_blocks(const char *path)
{
	return os_file_allocated(path);
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

int workload_init_file(struct run_ctx *rc, const struct db_place *pl, int state,
		       uint64_t npages, uint64_t seed, struct db_info *info, const char *what)
{
	const struct run_opts *o = rc->o;
	struct init_result *ir = &rc->res->init;
	struct db_create_stats st;
	char sz[32];
	int ret;

	fmt_size(sz, sizeof(sz), npages * DB_PAGE_SIZE);
	if (state == DB_VALID && !o->fresh) {
		fslab_info("%s: reusing the existing %s %s", pl->path, sz, what);
		ir->reused++;
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
			fslab_err("%s: creating the %s failed: %s", pl->path, what, strerror(-ret));
		return ret;
	}
	ir->created++;
	ir->bytes_written += st.bytes;
	ir->seconds += st.seconds;
	ir->mbps = ir->seconds > 0 ? ir->bytes_written / ir->seconds / 1e6 : 0;
	fslab_info("%s: initialised at %.0f MB/s", pl->path,
		   st.seconds > 0 ? st.bytes / st.seconds / 1e6 : 0);
	return 0;
}
