// SPDX-License-Identifier: MIT
/*
 * prepared.c: labels on volumes the user prepared ([fs NAME] db_dir, log_dir): no prep, no
 * format, no teardown; each cell's run deletes and re-creates its databases and logs there
 * (fslab run --fresh).  Before any cell the preflight checks, on both systems, what the run
 * would refuse later: each directory a directory (or creatable), nothing in it that fslab did
 * not make (unless allow_foreign_files), the filesystem fs = says, and the free space for the
 * databases and logs (what fslab's old files hold counts as free: --fresh deletes them).
 * Also the dry run's per-cell PowerShell of a Windows disk lab with a saved disk query.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "lab/labP.h"
#include "run/run.h"
#include "lib/strbuf.h"
#include "platform/volume.h"

struct scan {
	unsigned int foreign;
	struct strbuf names;
	uint64_t fslab_bytes; /* allocated to fslab's files: --fresh frees them */
};

static void scan_one(void *ctx, const struct run_entry *e)
{
	struct scan *s = ctx;

	if (e->kind == RUN_FILE_FOREIGN) {
		if (s->foreign++ < 3)
			strbuf_addf(&s->names, "%s'%s%s'", s->names.len ? ", " : "", e->name,
				    e->is_dir ? "/" : "");
	} else if (e->kind == RUN_FILE_FSLAB) {
		s->fslab_bytes += e->allocated;
	}
}

/* The entries of dir, classified through a handle of its own (run.h: run_dir_scan()). */
static int scan_dir(const char *dir, struct scan *s)
{
	struct os_dirh *d;
	int ret = os_dirh_open(dir, &d);

	if (ret)
		return ret;
	ret = run_dir_scan(d, scan_one, s);
	os_dirh_close(d);
	return ret;
}

/* One volume's need, summed over the directories of a label that share its filesystem. */
struct need {
	struct volume v;
	uint64_t need, reclaim;
	bool probed;
	const char *dir; /* the first directory on it */
};

static void check_dir(struct lab *L, struct problems *p, const struct lab_fs *f,
		      const char *key, const char *dir, uint64_t need, struct need *vols,
		      size_t *nvols)
{
	const char *cfg = L->cfg.path;
	int line = key[0] == 'd' ? f->db_dir_line : f->log_dir_line;
	struct scan s = { .names = STRBUF_INIT };
	struct volume v;
	char *probe_dir;
	int kind, ret;

	ret = os_stat(dir, &kind, NULL);
	if (!ret && kind != OS_KIND_DIR) {
		lab_problem(p, "%s:%d: [fs %s] %s = %s is not a directory; give a directory on a "
			    "volume you prepared", cfg, line, f->name, key, dir);
		return;
	}
	if (ret && ret != -ENOENT) {
		lab_problem(p, "%s:%d: [fs %s] %s = %s: %s", cfg, line, f->name, key, dir,
			    strerror(-ret));
		return;
	}
	if (!ret && scan_dir(dir, &s) == 0 && s.foreign && !f->allow_foreign_files)
		lab_problem(p, "%s:%d: [fs %s] %s = %s holds %s%s, which fslab did not make: each "
			    "cell deletes and re-creates only fslab's own databases and logs there "
			    "and never touches anything else, but a directory of other files may be "
			    "the wrong one or a volume in use; name an empty directory, or add "
			    "allow_foreign_files = yes to [fs %s]", cfg, line, f->name, key, dir,
			    s.names.buf, s.foreign > 3 ? " and more" : "", f->name);
	strbuf_release(&s.names);
	/* a directory that is not there yet is made by the lab: its volume is its parent's */
	probe_dir = ret ? lab_existing_ancestor(dir) : xstrdup(dir);
	if (!probe_dir) {
		lab_problem(p, "%s:%d: [fs %s] %s = %s: neither it nor a folder above it exists; "
			    "give a directory on a volume you prepared", cfg, line, f->name, key, dir);
		return;
	}
	if (volume_probe(&v, key[0] == 'd' ? "db" : "log", probe_dir)) {
		lab_problem(p, "%s:%d: [fs %s] %s = %s: cannot tell its volume; give a directory "
			    "on a mounted volume", cfg, line, f->name, key, dir);
		free(probe_dir);
		return;
	}
	free(probe_dir);
	/* the label's filesystem is its database volume's (as compare reads a result) */
	if (f->fs_given && key[0] == 'd' && strcasecmp(v.fsname, f->fs))
		lab_problem(p, "%s:%d: [fs %s] fs = %s, but %s is on %s (%s): fix fs = or the "
			    "directory", cfg, f->fs_line ? f->fs_line : line, f->name, f->fs, dir,
			    v.fsname, v.mountpoint);
	for (size_t i = 0; i < *nvols; i++)
		if (vols[i].v.fs_dev == v.fs_dev) {
			vols[i].need = sat_add(vols[i].need, need);
			vols[i].reclaim += s.fslab_bytes;
			volume_release(&v);
			return;
		}
	vols[*nvols] = (struct need){ .v = v, .need = need, .reclaim = s.fslab_bytes, .dir = dir };
	(*nvols)++;
}

void lab_preflight_prepared(struct lab *L, struct problems *p)
{
	const struct lab_cfg *c = &L->cfg;
	uint64_t dbs = sat_mul(c->wl.databases, c->wl.db_size);
	/* per database: the log files a run keeps and makes (64 MiB, as the lab's log images) */
	uint64_t logs = c->wl.databases * 64 * MiB;

	for (int i = 0; i < c->nfs; i++) {
		const struct lab_fs *f = &c->fs[i];
		size_t ndirs = f->db_dirs.nr + f->log_dirs.nr, nvols = 0;
		struct need *vols;

		if (!f->prepared)
			continue;
		vols = xcalloc(ndirs + 1, sizeof(*vols));
		/* the databases spread over the db directories, the logs over the log ones */
		for (size_t k = 0; k < f->db_dirs.nr; k++)
			check_dir(L, p, f, "db_dir", f->db_dirs.v[k], dbs / f->db_dirs.nr + 1, vols,
				  &nvols);
		for (size_t k = 0; k < f->log_dirs.nr; k++)
			check_dir(L, p, f, "log_dir", f->log_dirs.v[k], logs / f->log_dirs.nr + 1,
				  vols, &nvols);
		for (size_t k = 0; k < nvols; k++) {
			struct need *n = &vols[k];
			char a[32], b[32];

			if (sat_add(n->v.fs_avail, n->reclaim) < n->need)
				lab_problem(p, "%s:%d: [fs %s] %s (%s): %s free, a cell needs %s for the "
					    "databases and logs; free space, or give a smaller [workload] "
					    "db_size or fewer databases", c->path, f->line, f->name, n->dir,
					    n->v.mountpoint, fmt_size(a, sizeof(a),
					    sat_add(n->v.fs_avail, n->reclaim)), fmt_size(b, sizeof(b),
					    n->need));
			volume_release(&n->v);
		}
		free(vols);
	}
}

int lab_make_prepared_dirs(struct lab *L)
{
	const struct lab_cfg *c = &L->cfg;

	for (int i = 0; i < c->nfs; i++) {
		const struct lab_fs *f = &c->fs[i];

		for (size_t k = 0; f->prepared && k < f->db_dirs.nr + f->log_dirs.nr; k++) {
			const char *d = k < f->db_dirs.nr ? f->db_dirs.v[k]
							  : f->log_dirs.v[k - f->db_dirs.nr];
			int ret;

			if (os_is_dir(d))
				continue;
			ret = mkdir_p(d, 0755);
			if (ret) {
				fslab_err("[fs %s] %s: cannot create it: %s; create it yourself, on "
					  "the volume to test", f->name, d, strerror(-ret));
				return ret;
			}
			fslab_info("[fs %s]: created %s (empty)", f->name, d);
		}
	}
	return 0;
}

void lab_dry_run_script(struct lab *L, const struct strvec *a)
{
	struct strvec argv = STRVEC_INIT;
	int rc;

	/* disk_info is a saved query of the disks a SYS_DISKS prep formats */
	if (!(L->target.sys->flags & SYS_DISKS) || !L->cfg.disk_info)
		return;
	/* the very prep argv of the cell, in preview: the plan and the script it would run */
	strvec_pushv(&argv, a->v);
	strvec_pushf(&argv, "--disk-info=%s", L->cfg.disk_info);
	strvec_push(&argv, "--dry-run");
	fflush(stdout);
	rc = cmd_winprep((int)argv.nr, (char **)argv.v);
	fflush(stdout);
	if (rc)
		printf("  (the prep above would be refused: exit %d)\n", rc);
	strvec_clear(&argv);
}
