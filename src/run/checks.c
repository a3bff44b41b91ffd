// SPDX-License-Identifier: MIT
/* checks.c: `fslab run` before anything is written: directories, their volumes, O_DIRECT,
 * the I/O back end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/ioengine.h"
#include "run/runP.h"
#include "util.h"

/* Directories exist, are directories, are writable (or all are block devices: raw); the
 * output's directory too. */
int run_check_dirs(struct run_state *s)
{
	const struct run_opts *o = &s->o;
	size_t nblk = 0;

	for (int pass = 0; pass < 2; pass++) {
		char **v = pass ? o->log_dirs : o->db_dirs;
		size_t n = pass ? o->nlog_dirs : o->ndb_dirs;
		const char *opt = pass ? "--log" : "--db";

		for (size_t i = 0; i < n; i++) {
			struct stat st;

			if (stat(v[i], &st))
				return input_error("%s %s: %s; create it, or mount the volume under test "
						   "there (fslab prep does both)", opt, v[i], strerror(errno));
			if (S_ISBLK(st.st_mode)) {
				nblk++;
				continue;
			}
			if (!S_ISDIR(st.st_mode))
				return input_error("%s %s: not a directory; give the directory on the "
						   "volume under test", opt, v[i]);
			if (access(v[i], W_OK | X_OK))
				return input_error("%s %s: not writable (%s); run as a user who may write "
						   "there, or fix its permissions", opt, v[i], strerror(errno));
		}
	}
	if (nblk && nblk != o->ndb_dirs + o->nlog_dirs)
		return input_error("give directories for every --db and --log, or block devices for "
				   "all of them (a raw-device baseline), not a mix");
	s->raw = nblk > 0;
	if (o->output) {
		char *copy = xstrdup(o->output), *slash = strrchr(copy, '/');
		const char *dir = slash ? (slash == copy ? "/" : (*slash = 0, copy)) : ".";
		struct stat st;
		int ret = 0;

		if (stat(dir, &st) || !S_ISDIR(st.st_mode))
			ret = input_error("--output %s: directory %s does not exist; create it first",
					  o->output, dir);
		else if (access(dir, W_OK | X_OK))
			ret = input_error("--output %s: directory %s is not writable", o->output, dir);
		else if (stat(o->output, &st) == 0 && S_ISDIR(st.st_mode))
			ret = input_error("--output %s is a directory; give a file name such as "
					  "%s/result.json", o->output, o->output);
		free(copy);
		if (ret)
			return ret;
	}
	return 0;
}

int run_probe_volumes(struct run_state *s)
{
	struct run_opts *o = &s->o;
	struct run_ctx *rc = &s->rc;
	bool user_buffered = !o->direct;

	rc->db_vols = xcalloc(o->ndb_dirs, sizeof(struct volume));
	rc->log_vols = xcalloc(o->nlog_dirs + 1, sizeof(struct volume));
	for (int pass = 0; pass < 2; pass++) {
		struct volume *vv = pass ? rc->log_vols : rc->db_vols;
		char **dirs = pass ? o->log_dirs : o->db_dirs;
		size_t n = pass ? o->nlog_dirs : o->ndb_dirs;

		for (size_t i = 0; i < n; i++) {
			struct volume *v = &vv[i];
			int ret;

			for (size_t j = 0; s->raw && j < i; j++)
				if (!strcmp(dirs[j], dirs[i]))
					return input_error("%s is given twice: a raw device holds one "
							   "%s region", dirs[i], pass ? "log" : "database");
			ret = s->raw ? volume_probe_raw(v, pass ? "log" : "db", dirs[i], s->force)
				     : volume_probe(v, pass ? "log" : "db", dirs[i]);
			if (pass)
				s->nlog_vols++;
			else
				s->ndb_vols++;
			if (ret == -FSLAB_EINPUT)
				return ret;
			if (ret)
				return input_error("%s: cannot find its filesystem (%s)", dirs[i],
						   strerror(-ret));
		}
	}
	for (size_t i = 0; s->raw && i < s->ndb_vols; i++)
		for (size_t j = 0; j < s->nlog_vols; j++)
			if (rc->db_vols[i].bdev == rc->log_vols[j].bdev)
				return input_error("%s is both a --db and a --log device; give separate "
						   "devices", rc->db_vols[i].dir);
	rc->direct = o->direct;
	if (user_buffered)
		result_add_note(&s->res, "--buffered: no O_DIRECT, read latencies may reflect the "
				"page cache, not the device");
	return 0;
}

/*
 * Does every filesystem accept O_DIRECT?  Probed with a small file created and removed in
 * each directory, so only after all input checks passed.  A refusal is said loudly, recorded
 * in the result, and the whole run goes buffered (the same mode for every volume).
 */
void run_probe_odirect(struct run_state *s)
{
	struct run_ctx *rc = &s->rc;

	if (!s->o.direct)
		return;
	for (size_t i = 0; i < s->ndb_vols + s->nlog_vols; i++) {
		struct volume *v = i < s->ndb_vols ? &rc->db_vols[i] : &rc->log_vols[i - s->ndb_vols];

		volume_probe_odirect(v);
		if (v->o_direct != 0)
			continue;
		fslab_warn("*** %s (%s on %s) REFUSES O_DIRECT: running with buffered I/O, reads "
			   "may come from the page cache and flatter this filesystem ***", v->dir,
			   v->fsname, v->source);
		result_add_note(&s->res, "O_DIRECT refused by %s on %s (%s): buffered I/O used for "
				"the whole run, O_DSYNC writes", v->fsname, v->dir, v->source);
		s->o.direct = false;
	}
	rc->direct = s->o.direct;
}

/* io_uring may be disabled (sysctl kernel.io_uring_disabled, seccomp): fall back to psync. */
void run_pick_engine(struct run_state *s)
{
	struct io_ctx ctx;
	int ret;

	if (strcmp(s->o.engine, "io_uring"))
		return;
	ret = io_ctx_init(&ctx, "io_uring", 4);
	if (!ret) {
		io_ctx_release(&ctx);
		return;
	}
	fslab_warn("io_uring is not available here (%s): falling back to psync", strerror(-ret));
	result_add_note(&s->res, "io_uring unavailable (%s): psync back end used", strerror(-ret));
	s->o.engine = "psync";
}
