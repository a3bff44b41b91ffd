// SPDX-License-Identifier: MIT
/* checks.c: `fslab run` before anything is written: directories, their volumes, O_DIRECT,
 * the I/O back end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "io/ioengine.h"
#include "lib/msg.h"
#include "os/os.h"
#include "run/runP.h"

/* Does the first component of path (up to '/') match pattern? */
static bool first_is(const char *path, const char *pattern)
{
	char *first = xstrdup(path), *slash = strchr(first, '/');
	bool match;

	if (slash)
		*slash = 0;
	match = os_fnmatch(pattern, first);
	free(first);
	return match;
}

/*
 * --output (base in the resolved directory real) is not a database file the run may create or
 * reuse (fslab-*.edb in a --db directory) and not inside the run's log directories
 * (fslab-*-logs).  0 or -FSLAB_EINPUT.
 */
static int output_not_run_file(const struct run_config *o, const char *real, const char *base)
{
	const char *out = o->output;
	int ret = 0;

	for (int pass = 0; pass < 2 && !ret; pass++) {
		char **v = pass ? o->log_dirs : o->db_dirs;
		size_t n = pass ? o->nlog_dirs : o->ndb_dirs;

		for (size_t i = 0; i < n && !ret; i++) {
			char *d = os_realpath(v[i]);
			size_t dn = d ? strlen(d) : 0;

			if (!d)
				continue;
			if (!pass && !strcmp(real, d) && os_fnmatch("fslab-*.edb", base))
				ret = input_error("--output %s is the name of a database file in --db %s; "
						  "the result would replace the database: give another "
						  "name", out, v[i]);
			else if (pass && ((!strncmp(real, d, dn) && real[dn] == '/' &&
					   first_is(real + dn + 1, "fslab-*-logs")) ||
					  (!strcmp(real, d) && os_fnmatch("fslab-*-logs", base))))
				ret = input_error("--output %s is inside the run's log directory under "
						  "--log %s, which the run rewrites: give a file outside it",
						  out, v[i]);
			free(d);
		}
	}
	return ret;
}

/*
 * --output, before anything runs (the result is written only at the end, hours later): a file
 * name, in an existing directory where a file can be created, that is not an existing
 * non-regular file (a device, a FIFO, a symbolic link: output_check()), not a database file the run may create or reuse
 * (fslab-*.edb in a --db directory) and not inside the run's log directories (fslab-*-logs).
 * Checked on resolved paths, so ../ and symbolic links to directories do not get around it.
 */
static int check_output(const struct run_config *o)
{
	const char *out = o->output, *base, *dir;
	char *copy, *slash, *real = NULL;
	int ret = 0, kind;

	if (!*out)
		return input_error("--output '': give the result file's name, e.g. --output "
				   "result.json");
	copy = xstrdup(out);
	slash = strrchr(copy, '/');
#ifdef _WIN32
	if (strrchr(copy, '\\') > slash)
		slash = strrchr(copy, '\\');
#endif
	base = slash ? slash + 1 : copy;
	dir = slash == copy ? "/" : slash ? copy : ".";
	if (slash && slash != copy)
		*slash = 0;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		ret = input_error("--output %s names a directory; give a file name such as "
				  "%s/result.json", out, dir);
		goto out;
	}
	if (!os_is_dir(dir)) {
		ret = input_error("--output %s: directory %s does not exist; create it first", out,
				  dir);
		goto out;
	}
	if (os_is_dir(out)) {
		ret = input_error("--output %s is a directory; give a file name such as "
				  "%s/result.json", out, out);
		goto out;
	}
	ret = output_check(out, "--output");
	if (ret)
		goto out;
	real = os_realpath(dir);
	if (!real) {
		ret = input_error("--output %s: cannot resolve directory %s (%s)", out, dir,
				  strerror(errno));
		goto out;
	}
	ret = output_not_run_file(o, real, base);
	if (ret)
		goto out;
	/* can a file be created there?  root passes access(); a read-only mount or a full
	 * quota does not: try an unnamed file, which leaves nothing behind */
	kind = os_dir_can_create(real);
	if (kind)
		ret = input_error("--output %s: cannot create a file in %s (%s); give a writable "
				  "directory", out, dir, strerror(-kind));
out:
	free(real);
	free(copy);
	return ret;
}

/* Directories exist, are directories, are writable (or all are block devices: raw); the
 * output's directory too. */
int run_check_dirs(struct run_state *s)
{
	const struct run_config *o = &s->res.config;
	size_t nblk = 0;

	for (int pass = 0; pass < 2; pass++) {
		char **v = pass ? o->log_dirs : o->db_dirs;
		size_t n = pass ? o->nlog_dirs : o->ndb_dirs;
		const char *opt = pass ? "--log" : "--db";

		for (size_t i = 0; i < n; i++) {
			int kind, e = os_stat(v[i], &kind, NULL);

			if (e)
				return input_error("%s %s: %s; create it, or mount the volume under test "
						   "there (fslab prep does both)", opt, v[i], strerror(-e));
			if (kind == OS_KIND_BLOCK) {
				nblk++;
				continue;
			}
			if (kind != OS_KIND_DIR)
				return input_error("%s %s: not a directory; give the directory on the "
						   "volume under test", opt, v[i]);
			e = os_dir_writable(v[i]);
			if (e)
				return input_error("%s %s: not writable (%s); run as a user who may write "
						   "there, or fix its permissions", opt, v[i], strerror(-e));
		}
	}
	if (nblk && nblk != o->ndb_dirs + o->nlog_dirs)
		return input_error("give directories for every --db and --log, or block devices for "
				   "all of them (a raw-device baseline), not a mix");
	s->raw = nblk > 0;
	return o->output ? check_output(o) : 0;
}

int run_probe_volumes(struct run_state *s)
{
	const struct run_config *o = &s->res.config;
	struct run_ctx *rc = &s->rc;

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
			ret = s->raw ? volume_probe_raw(v, pass ? "log" : "db", dirs[i], o->force)
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
	/* raw devices: fslab prep's same-storage policy between every two of them */
	for (size_t i = 0; s->raw && i < s->ndb_vols + s->nlog_vols; i++)
		for (size_t j = i + 1; j < s->ndb_vols + s->nlog_vols; j++) {
			int ret = volume_raw_separate(run_volume(s, i), run_volume(s, j));

			if (ret)
				return ret;
		}
	rc->direct = !o->buffered;
	if (o->buffered)
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

	if (!rc->direct)
		return;
	for (size_t i = 0; i < s->ndb_vols + s->nlog_vols; i++) {
		struct volume *v = run_volume(s, i);

		volume_probe_odirect(v);
		if (v->o_direct != 0)
			continue;
		fslab_warn("*** %s (%s on %s) REFUSES O_DIRECT: running with buffered I/O, reads "
			   "may come from the page cache and flatter this filesystem ***", v->dir,
			   v->fsname, v->source);
		result_add_note(&s->res, "O_DIRECT refused by %s on %s (%s): buffered I/O used for "
				"the whole run%s", v->fsname, v->dir, v->source,
				s->wl->flags & WL_DSYNC ? " (database and log writes O_DSYNC)"
				: "");
		rc->direct = false;
	}
}

/* io_uring may be disabled (sysctl kernel.io_uring_disabled, seccomp): fall back to psync. */
void run_pick_engine(struct run_state *s)
{
	struct run_config *c = &s->res.config;
	struct io_ctx ctx;
	int ret;

	if (strcmp(c->engine, "io_uring"))
		return;
	ret = io_ctx_init(&ctx, "io_uring", 4);
	if (!ret) {
		io_ctx_release(&ctx);
		return;
	}
	fslab_warn("io_uring is not available here (%s): falling back to psync", strerror(-ret));
	result_add_note(&s->res, "io_uring unavailable (%s): psync back end used", strerror(-ret));
	free(c->engine);
	c->engine = xstrdup("psync");
}
