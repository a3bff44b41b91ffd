// SPDX-License-Identifier: MIT
/* workload.c: the workload table and helpers shared by workloads. */
#include <string.h>

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
