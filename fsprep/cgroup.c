// SPDX-License-Identifier: MIT
/*
 * cgroup.c: a small cgroup-v1 memory limit for the ntfs-3g daemon.  ntfs-3g reads the block
 * device through the page cache even for O_DIRECT files; inside a 64 MiB memory cgroup its
 * cached pages are reclaimed, so reads reach the device (measured in docs/PREP.md).  prep moves
 * itself into the cgroup just around the mount, so the helper and the daemon it forks are born
 * there and every page they read is charged there (pages already charged elsewhere would not
 * move with a process moved later).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/crc32c.h"
#include "os/files.h"
#include "fsprep/prepP.h"

#define CG_V1_MEMORY "/sys/fs/cgroup/memory"
#define CG_REMOVE_WAIT_MS 5000

const char *cgroup_v1_memory_root(void)
{
	if (access(CG_V1_MEMORY "/memory.limit_in_bytes", F_OK) ||
	    access(CG_V1_MEMORY "/cgroup.procs", W_OK))
		return NULL;
	return CG_V1_MEMORY;
}

char *cgroup_path_for(const char *mount_root)
{
	/* One prep per mount root at a time (the state file is created O_EXCL), so a hash of
	 * the mount root names the cgroup; the parent "fslab" is shared and left in place. */
	return xasprintf("%s/fslab/prep-%08x", CG_V1_MEMORY,
			 crc32c(0, mount_root, strlen(mount_root)));
}

int cgroup_create(const char *cg, uint64_t limit)
{
	char *file, val[32];
	int ret;

	ret = mkdir_p(cg, 0755);
	if (ret)
		return ret;
	file = path_join(cg, "memory.limit_in_bytes");
	snprintf(val, sizeof(val), "%llu", (unsigned long long)limit);
	ret = write_str_file(file, val);
	free(file);
	return ret;
}

static int move_self(const char *cg)
{
	char *file = path_join(cg, "cgroup.procs"), pid[16];
	int ret;

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ret = write_str_file(file, pid);
	free(file);
	return ret;
}

int cgroup_enter(const char *cg, char **prev)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[4096];
	int ret;

	*prev = NULL;
	if (!f)
		return -errno;
	/* "7:memory:/user.slice" (the controller list may hold several, comma separated) */
	while (!*prev && fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *path = ctrl ? strchr(ctrl + 1, ':') : NULL;

		if (!path)
			continue;
		*path++ = 0;
		path[strcspn(path, "\n")] = 0;
		for (char *save = NULL, *c = strtok_r(ctrl + 1, ",", &save); c;
		     c = strtok_r(NULL, ",", &save))
			if (!strcmp(c, "memory"))
				*prev = xasprintf("%s%s", CG_V1_MEMORY, strcmp(path, "/") ? path : "");
	}
	fclose(f);
	if (!*prev)
		return -ENOENT;
	ret = move_self(cg);
	if (ret) {
		free(*prev);
		*prev = NULL;
	}
	return ret;
}

int cgroup_leave(char *prev)
{
	int ret = move_self(prev);

	free(prev);
	return ret;
}

bool cgroup_has_pid(const char *cg, pid_t pid)
{
	char *file = path_join(cg, "cgroup.procs"), line[32];
	FILE *f = fopen(file, "re");
	bool found = false;

	free(file);
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = atoi(line) == pid;
	fclose(f);
	return found;
}

int cgroup_remove(const char *cg)
{
	for (unsigned waited = 0;; waited += 100) {
		if (!rmdir(cg) || errno == ENOENT)
			return 0;
		if (errno != EBUSY || waited >= CG_REMOVE_WAIT_MS)
			return -errno;
		sleep_ms(100);
	}
}
