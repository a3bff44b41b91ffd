// SPDX-License-Identifier: MIT
/* workload.c: the workload table and helpers shared by workloads. */
#include <errno.h>
#include <string.h>

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
	return "jetstress, randread, randwrite, randrw, seqwrite";
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
	if (state == DB_VALID) {
		fslab_info("%s: reusing the existing %s %s", pl->path, sz, what);
		ir->reused++;
		return 0;
	}
	fslab_info("%s: %s %s %s (32 KiB pages, %u %% compressible)", pl->path,
		   state == DB_OTHER_FSLAB ? "recreating (other geometry)" : "creating", sz, what,
		   o->compressibility);
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
