// SPDX-License-Identifier: MIT
/*
 * fresh.c: `fslab run --fresh`: the databases and logs of a run on volumes the user prepared
 * (a lab cell without prep) are deleted and created afresh, and nothing else in the
 * directories is touched.  What fslab made is told apart from everything else by name and,
 * for a database, by its header page (run_dir_scan, run.h); a directory holding anything else
 * is refused unless --allow-foreign-files, since it may be the wrong directory or a volume in
 * use.  The order in cmd_run: the directories locked, foreign files refused (nothing changed
 * yet), the workload's own checks (free space: a database it would reuse already occupies
 * its space, so deleting and creating it needs no more), then the deletion, then creation.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "files.h"
#include "msg.h"
#include "os/os.h"
#include "run/run.h"
#include "run/runP.h"
#include "strbuf.h"
#include "workloads/dbfile.h"
#include "workloads/jetstress.h"

/* Scratch files of fslab's probes and selftest (removed when they end; a kill leaves them). */
static const char *const scratch[] = { ".fslab-selftest.*", ".fslab-odirect-probe.*",
				       ".fslab-unbuffered-probe.*", "fslab-probe-*.tmp" };
/* A filesystem's own entries at the root of a volume (case as Windows ignores it). */
static const char *const system_names[] = { "lost+found", "System Volume Information",
					    "$RECYCLE.BIN" };

static bool is_log_name(const char *name)
{
	return js_log_gen(name) || !strcmp(name, JS_LOG_CURRENT) || !strcmp(name, JS_LOG_SPARE);
}

/* A log directory fslab made: fslab-*-logs with log files only. */
static bool fslab_log_dir(const char *path)
{
	struct os_dir *d;
	const char *name;
	bool ok = true;

	if (os_opendir(path, &d))
		return false;
	while (ok && (name = os_readdir(d))) {
		char *p = path_join(path, name);
		int kind;

		ok = is_log_name(name) && !os_is_symlink(p) && !os_stat(p, &kind, NULL) &&
		     kind == OS_KIND_FILE;
		free(p);
	}
	os_closedir(d);
	return ok;
}

static enum run_file_kind classify(const char *dir, const char *name, bool *is_dir)
{
	char *path = path_join(dir, name);
	enum run_file_kind k = RUN_FILE_FOREIGN;
	bool link = os_is_symlink(path);
	int kind = OS_KIND_OTHER;

	if (os_stat(path, &kind, NULL))
		kind = OS_KIND_OTHER;
	*is_dir = kind == OS_KIND_DIR && !link;
	for (size_t i = 0; i < ARRAY_SIZE(system_names); i++)
		if (!strcasecmp(name, system_names[i]))
			k = RUN_FILE_SYSTEM;
	if (k == RUN_FILE_FOREIGN && !link) {
		if (kind == OS_KIND_FILE && os_fnmatch("fslab-*.edb", name)) {
			struct db_place pl = { .path = path };
			struct db_info info;
			int st = db_inspect(&pl, 0, 0, &info);

			/* its header says fslab's (any geometry, finished or not) */
			if (st >= 0 && st != DB_FOREIGN && st != DB_MISSING)
				k = RUN_FILE_FSLAB;
		} else if (kind == OS_KIND_DIR && os_fnmatch("fslab-*-logs", name)) {
			if (fslab_log_dir(path))
				k = RUN_FILE_FSLAB;
		} else if (kind == OS_KIND_FILE) {
			for (size_t i = 0; i < ARRAY_SIZE(scratch); i++)
				if (os_fnmatch(scratch[i], name))
					k = RUN_FILE_FSLAB;
		}
	}
	free(path);
	return k;
}

int run_dir_scan(const char *dir,
		 void (*fn)(void *ctx, const char *name, enum run_file_kind kind, bool is_dir),
		 void *ctx)
{
	struct os_dir *d;
	const char *name;
	int ret = os_opendir(dir, &d);

	if (ret)
		return ret;
	while ((name = os_readdir(d))) {
		char *copy = xstrdup(name); /* os_readdir's name lives until the next call */
		bool is_dir;
		enum run_file_kind k = classify(dir, copy, &is_dir);

		fn(ctx, copy, k, is_dir);
		free(copy);
	}
	os_closedir(d);
	return 0;
}

/* Every --db and --log directory once (the same directory may be both). */
static size_t run_dirs(const struct run_state *s, const char ***out)
{
	const char **v = xcalloc(s->res.config.ndb_dirs + s->res.config.nlog_dirs + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < s->res.config.ndb_dirs + s->res.config.nlog_dirs; i++) {
		const char *d = i < s->res.config.ndb_dirs ? s->rc.db_vols[i].dir
						  : s->rc.log_vols[i - s->res.config.ndb_dirs].dir;
		bool dup = false;

		for (size_t k = 0; k < n && !dup; k++)
			dup = !strcmp(v[k], d);
		if (!dup)
			v[n++] = d;
	}
	*out = v;
	return n;
}

struct foreign {
	struct strbuf names;
	unsigned int n;
};

static void note_foreign(void *ctx, const char *name, enum run_file_kind kind, bool is_dir)
{
	struct foreign *f = ctx;

	if (kind != RUN_FILE_FOREIGN)
		return;
	if (f->n++ < 3)
		strbuf_addf(&f->names, "%s'%s%s'", f->names.len ? ", " : "", name, is_dir ? "/" : "");
}

int run_fresh_check(struct run_state *s)
{
	const char **dirs;
	size_t n;
	int ret = 0;

	if (!s->res.config.fresh) {
		if (s->res.config.allow_foreign_files)
			return input_error("--allow-foreign-files goes with --fresh (it lets --fresh "
					   "work in a directory that holds other files); add --fresh "
					   "or drop it");
		return 0;
	}
	if (s->raw)
		return input_error("--fresh deletes and re-creates fslab's files in directories; "
				   "%s is a device: drop --fresh (a raw run always writes its "
				   "databases afresh)", s->rc.db_vols[0].dir);
	n = run_dirs(s, &dirs);
	for (size_t i = 0; i < n && !ret; i++) {
		struct foreign f = { STRBUF_INIT, 0 };
		int r = run_dir_scan(dirs[i], note_foreign, &f);
		char more[32] = "";

		if (f.n > 3)
			snprintf(more, sizeof(more), " and %u more", f.n - 3);
		if (r)
			ret = input_error("%s: cannot list it (%s); check its permissions", dirs[i],
					  strerror(-r));
		else if (f.n && !s->res.config.allow_foreign_files)
			ret = input_error("%s holds %s%s, which fslab did not make: --fresh deletes "
					  "only fslab's own databases and logs and never touches "
					  "anything else, but a directory of other files may be the "
					  "wrong one or a volume in use; name an empty directory, or "
					  "allow it with --allow-foreign-files (a lab: [fs NAME] "
					  "allow_foreign_files = yes)", dirs[i], f.names.buf,
					  more);
		else if (f.n)
			fslab_info("%s: %u entr%s fslab did not make (%s%s), left untouched "
				   "(--allow-foreign-files)", dirs[i], f.n, f.n == 1 ? "y" : "ies",
				   f.names.buf, f.n > 3 ? ", ..." : "");
		strbuf_release(&f.names);
	}
	free(dirs);
	return ret;
}

/* Remove one entry fslab made: a file, or a log directory of log files. */
static int remove_entry(const char *path, bool is_dir)
{
	struct os_dir *d = NULL;
	const char *name;
	int ret;

	if (!is_dir)
		return os_unlink(path);
	ret = os_opendir(path, &d);
	while (!ret && (name = os_readdir(d))) {
		char *p = path_join(path, name);

		ret = os_unlink(p);
		free(p);
	}
	os_closedir(d);
	return ret ? ret : os_rmdir(path);
}

struct clear {
	const char *dir;
	int ret;
	unsigned int n;
};

static void clear_one(void *ctx, const char *name, enum run_file_kind kind, bool is_dir)
{
	struct clear *c = ctx;
	char *path;
	int r;

	if (kind != RUN_FILE_FSLAB || c->ret)
		return;
	path = path_join(c->dir, name);
	r = remove_entry(path, is_dir);
	if (r) {
		fslab_err("%s: cannot delete it for --fresh: %s", path, strerror(-r));
		c->ret = r;
	} else {
		c->n++;
	}
	free(path);
}

int run_fresh_clear(struct run_state *s)
{
	const char **dirs;
	size_t n;
	int ret = 0;

	if (!s->res.config.fresh)
		return 0;
	n = run_dirs(s, &dirs);
	for (size_t i = 0; i < n && !ret; i++) {
		struct clear c = { .dir = dirs[i] };

		ret = run_dir_scan(dirs[i], clear_one, &c);
		if (!ret)
			ret = c.ret;
		if (!ret && c.n)
			fslab_info("%s: --fresh: deleted %u database(s), log folder(s) or scratch "
				   "file(s) fslab had made there", dirs[i], c.n);
	}
	free(dirs);
	return ret;
}
