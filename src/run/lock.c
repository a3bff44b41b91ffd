// SPDX-License-Identifier: MIT
/*
 * lock.c: one `fslab run` at a time on a database or log directory (or raw device).  Two runs
 * on the same directories would share database and log files and both report a verdict.  The
 * lock is flock(2) on the directory (or device) itself (os_lock_path; a named mutex on
 * Windows): nothing is created, and the kernel drops it when the run ends, even by kill -9,
 * so no stale lock survives.  A refused run names the holder's pid, which /proc/locks lists
 * for each flock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "run/runP.h"

int run_lock_dirs(struct run_state *s)
{
	const struct run_config *o = &s->res.config;
	size_t n = o->ndb_dirs + o->nlog_dirs;

	s->lock_fds = xcalloc(n, sizeof(int));
	s->lock_ids = xcalloc(n, sizeof(*s->lock_ids));
	s->nlocks = 0;
	for (size_t k = 0; k < n; k++) {
		bool db = k < o->ndb_dirs;
		const char *dir = db ? o->db_dirs[k] : o->log_dirs[k - o->ndb_dirs];
		struct os_id id;
		bool have = false;
		long pid = 0;
		int fd;

		fd = os_path_id(dir, &id);
		if (fd)
			return input_error("%s %s: cannot open it to lock it (%s)", db ? "--db" : "--log",
					   dir, strerror(-fd));
		/* the same directory twice (--db X --log X): one lock; a second flock from this
		 * process on another descriptor would conflict with the first */
		for (size_t i = 0; i < s->nlocks && !have; i++)
			have = s->lock_ids[i].dev == id.dev && s->lock_ids[i].ino == id.ino;
		if (have)
			continue;
		fd = os_lock_path(dir, &pid);
		if (fd == -EWOULDBLOCK) {
			char who[32] = "pid unknown";

			if (pid)
				snprintf(who, sizeof(who), "pid %ld", pid);
			return input_error("%s %s is in use by another fslab run (%s); wait for it to "
					   "finish or give another directory: two runs on the same "
					   "files would measure each other", db ? "--db" : "--log",
					   dir, who);
		}
		if (fd < 0)
			return input_error("%s %s: cannot lock it (%s)", db ? "--db" : "--log", dir,
					   strerror(-fd));
		s->lock_ids[s->nlocks] = id;
		s->lock_fds[s->nlocks++] = fd;
	}
	return 0;
}

void run_unlock_dirs(struct run_state *s)
{
	for (size_t i = 0; i < s->nlocks; i++)
		os_unlock(s->lock_fds[i]);
	free(s->lock_fds);
	free(s->lock_ids);
	s->lock_fds = NULL;
	s->lock_ids = NULL;
	s->nlocks = 0;
}
