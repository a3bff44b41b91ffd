// SPDX-License-Identifier: MIT
/*
 * fresh.c: `fslab run --fresh`: the databases and logs of a run on volumes the user prepared
 * (a lab cell without prep) are deleted and created afresh, and nothing else in the
 * directories is touched.  The directories may be writable by other accounts while the run
 * works there as root: each is reached only through the handle its volume opened once
 * (volume.h), every entry is inspected without following a link, and what fslab made is told
 * apart from everything else by what fslab wrote in it (run.h: run_file_kind), then deleted
 * through the very handles it was inspected with, after checking it is still the same file.
 * A directory holding anything else is refused unless --allow-foreign-files, since it may be
 * the wrong directory or a volume in use.  The order in cmd_run: the directories locked,
 * foreign files refused (nothing changed yet), the workload's own checks (free space: a
 * database it would reuse already occupies its space, so deleting and creating it needs no
 * more), then the deletion, then creation.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "os/files.h"
#include "lib/msg.h"
#include "os/os.h"
#include "run/run.h"
#include "run/runP.h"
#include "os/scratch.h"
#include "lib/strbuf.h"
#include "workloads/dbfile.h"
#include "workloads/jetstress.h"

/* The names fslab's scratch files have (scratch.h): candidates, their header decides. */
static const char *const scratch[] = { ".fslab-selftest.*", ".fslab-probe.*" };
/* A filesystem's own entries at the root of a volume (case as Windows ignores it). */
static const char *const system_names[] = { "lost+found", "System Volume Information",
					    "$RECYCLE.BIN" };

/* An entry as classified, with what deleting it needs: the identity it was found with and,
 * for a log folder, the folder itself (owned). */
struct found {
	struct run_entry e;
	struct os_id id;
	struct os_dirh *sub;
};

static void classify_file(struct os_dirh *d, const char *name, struct found *f)
{
	if (os_fnmatch("fslab-*.edb", name)) {
		struct db_place pl = { .path = name, .d = d, .name = name };
		struct db_info info;
		int st = db_inspect(&pl, 0, 0, &info);

		/* its header says fslab's and names this file (any geometry, finished or not) */
		if (st >= 0 && st != DB_FOREIGN && st != DB_MISSING && pl.id == f->id.ino)
			f->e.kind = RUN_FILE_FSLAB;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(scratch); i++)
		if (os_fnmatch(scratch[i], name) && scratch_is_ours(d, name))
			f->e.kind = RUN_FILE_FSLAB;
}

static void classify_dir(struct os_dirh *d, const char *name, struct found *f)
{
	struct os_id id;

	if (!os_fnmatch("fslab-*-logs", name) || os_dirh_sub(d, name, false, NULL, &f->sub))
		return;
	/* the folder opened is the one stat'ed (not one exchanged in between), and fslab's */
	if (!os_dirh_id(f->sub, &id) && id.ino == f->id.ino && id.dev == f->id.dev &&
	    js_logdir_is_ours(f->sub)) {
		f->e.kind = RUN_FILE_FSLAB;
		return;
	}
	os_dirh_close(f->sub);
	f->sub = NULL;
}

/* What name in d is, never following it. */
static void classify(struct os_dirh *d, const char *name, struct found *f)
{
	struct os_entry st;

	memset(f, 0, sizeof(*f));
	f->e.name = name;
	f->e.kind = RUN_FILE_FOREIGN;
	if (os_dirh_stat(d, name, &st))
		return;
	f->id = st.id;
	f->e.is_dir = st.kind == OS_KIND_DIR;
	for (size_t i = 0; i < ARRAY_SIZE(system_names); i++)
		if (!strcasecmp(name, system_names[i]))
			f->e.kind = RUN_FILE_SYSTEM;
	if (f->e.kind == RUN_FILE_SYSTEM)
		return;
	if (st.kind == OS_KIND_FILE)
		classify_file(d, name, f);
	else if (st.kind == OS_KIND_DIR)
		classify_dir(d, name, f);
	if (f->e.kind == RUN_FILE_FSLAB && st.kind == OS_KIND_FILE)
		f->e.allocated = st.allocated;
}

/* Call fn for every entry of d with the classified entry (f->sub closed after). */
static int scan(struct os_dirh *d, void (*fn)(void *ctx, struct os_dirh *d, struct found *f),
		void *ctx)
{
	struct os_dir *list;
	const char *name;
	int ret = os_dirh_list(d, &list);

	if (ret)
		return ret;
	while ((name = os_readdir(list))) {
		char *copy = xstrdup(name); /* os_readdir's name lives until the next call */
		struct found f;

		classify(d, copy, &f);
		fn(ctx, d, &f);
		os_dirh_close(f.sub);
		free(copy);
	}
	os_closedir(list);
	return 0;
}

struct scan_fn {
	void (*fn)(void *ctx, const struct run_entry *e);
	void *ctx;
};

static void scan_entry(void *ctx, struct os_dirh *d, struct found *f)
{
	struct scan_fn *s = ctx;

	(void)d;
	s->fn(s->ctx, &f->e);
}

int run_dir_scan(struct os_dirh *d, void (*fn)(void *ctx, const struct run_entry *e), void *ctx)
{
	struct scan_fn s = { fn, ctx };

	return scan(d, scan_entry, &s);
}

/* Every --db and --log directory's volume once (the same directory may be both). */
static size_t run_dirs(const struct run_state *s, const struct volume ***out)
{
	size_t nd = s->res.config.ndb_dirs, nl = s->res.config.nlog_dirs, n = 0;
	const struct volume **v = xcalloc(nd + nl + 1, sizeof(*v));

	for (size_t i = 0; i < nd + nl; i++) {
		const struct volume *vol = i < nd ? &s->rc.db_vols[i] : &s->rc.log_vols[i - nd];
		struct os_id a, b;
		bool dup = false;

		for (size_t k = 0; k < n && !dup; k++)
			dup = !os_dirh_id(v[k]->dh, &a) && !os_dirh_id(vol->dh, &b) &&
			      a.dev == b.dev && a.ino == b.ino;
		if (!dup)
			v[n++] = vol;
	}
	*out = v;
	return n;
}

struct foreign {
	struct strbuf names;
	unsigned int n;
};

static void note_foreign(void *ctx, const struct run_entry *e)
{
	struct foreign *f = ctx;

	if (e->kind != RUN_FILE_FOREIGN)
		return;
	if (f->n++ < 3)
		strbuf_addf(&f->names, "%s'%s%s'", f->names.len ? ", " : "", e->name,
			    e->is_dir ? "/" : "");
}

/* One directory's foreign entries: refused, or (--allow-foreign-files) said. */
static int check_dir(const struct run_state *s, const struct volume *v)
{
	struct foreign f = { STRBUF_INIT, 0 };
	int r = run_dir_scan(v->dh, note_foreign, &f), ret = 0;
	char more[32] = "";

	if (f.n > 3)
		snprintf(more, sizeof(more), " and %u more", f.n - 3);
	if (r)
		ret = input_error("%s: cannot list it (%s); check its permissions", v->dir,
				  strerror(-r));
	else if (f.n && !s->res.config.allow_foreign_files)
		ret = input_error("%s holds %s%s, which fslab did not make: --fresh deletes only "
				  "fslab's own databases and logs and never touches anything else, "
				  "but a directory of other files may be the wrong one or a volume in "
				  "use; name an empty directory, or allow it with "
				  "--allow-foreign-files (a lab: [fs NAME] allow_foreign_files = yes)",
				  v->dir, f.names.buf, more);
	else if (f.n)
		fslab_info("%s: %u entr%s fslab did not make (%s%s), left untouched "
			   "(--allow-foreign-files)", v->dir, f.n, f.n == 1 ? "y" : "ies",
			   f.names.buf, f.n > 3 ? ", ..." : "");
	strbuf_release(&f.names);
	return ret;
}

int run_fresh_check(struct run_state *s)
{
	const struct volume **vols;
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
	n = run_dirs(s, &vols);
	for (size_t i = 0; i < n && !ret; i++)
		ret = check_dir(s, vols[i]);
	free(vols);
	return ret;
}

/*
 * Remove one entry fslab made, through the handles it was classified with: a file, if the
 * name still holds the file found; a log folder, emptied of what fslab wrote in it through
 * its own handle, then removed if the name is still that folder (and it is empty).
 */
static int remove_entry(struct os_dirh *d, const struct found *f)
{
	struct os_entry now;
	int ret = os_dirh_stat(d, f->e.name, &now);

	if (ret)
		return ret;
	if (now.id.dev != f->id.dev || now.id.ino != f->id.ino)
		return -ESTALE; /* exchanged since it was looked at: not ours to delete */
	if (!f->sub) /* emptied first: its space is free for the new database at once */
		return now.kind == OS_KIND_FILE ? os_dirh_remove_file(d, f->e.name, f->id.ino)
						: -ESTALE;
	ret = js_logdir_clear(f->sub, true);
	return ret ? ret : os_dirh_rmdir(d, f->e.name);
}

struct clear {
	const char *dir;
	int ret;
	unsigned int n;
};

static void clear_one(void *ctx, struct os_dirh *d, struct found *f)
{
	struct clear *c = ctx;
	int r;

	if (f->e.kind != RUN_FILE_FSLAB || c->ret)
		return;
	r = remove_entry(d, f);
	if (r) {
		fslab_err("%s/%s: cannot delete it for --fresh: %s", c->dir, f->e.name,
			  r == -ESTALE ? "it was exchanged for another file meanwhile" : strerror(-r));
		c->ret = r;
	} else {
		c->n++;
	}
}

int run_fresh_clear(struct run_state *s)
{
	const struct volume **vols;
	size_t n;
	int ret = 0;

	if (!s->res.config.fresh)
		return 0;
	n = run_dirs(s, &vols);
	for (size_t i = 0; i < n && !ret; i++) {
		struct clear c = { .dir = vols[i]->dir };

		ret = scan(vols[i]->dh, clear_one, &c);
		if (!ret)
			ret = c.ret;
		if (!ret)
			ret = os_dirh_sync(vols[i]->dh);
		if (!ret && c.n)
			fslab_info("%s: --fresh: deleted %u database(s), log folder(s) or scratch "
				   "file(s) fslab had made there", vols[i]->dir, c.n);
	}
	free(vols);
	return ret;
}
