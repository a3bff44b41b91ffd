// SPDX-License-Identifier: MIT
/* preflight.c: what `fslab lab` checks before it changes anything (root, mkfs tools,
 * devices or image space, output); every problem is reported, with file:line. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fsprep/prep.h"
#include "lab/labP.h"
#include "workloads/workload.h"

/* ---- preflight ---- */

struct problems {
	unsigned int n;
};

static void problem(struct problems *p, const char *fmt, ...) __printf(2, 3);
static void problem(struct problems *p, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fslab_err("preflight: %s", buf);
	p->n++;
}

static uint64_t free_bytes(const char *path)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return 0;
	return (uint64_t)sv.f_bavail * sv.f_frsize;
}

/* The nearest existing ancestor of path (for free-space checks before it exists). */
static char *existing_ancestor(const char *path)
{
	char *p = xstrdup(path);

	while (access(p, F_OK)) {
		char *slash = strrchr(p, '/');

		if (!slash || slash == p) {
			free(p);
			return xstrdup(slash == p ? "/" : ".");
		}
		*slash = 0;
	}
	return p;
}

static void check_device(struct lab *L, struct problems *p, const char *key, const char *dev,
			 int line, uint64_t need)
{
	struct stat st;
	char *out = NULL, a[32], b[32];
	uint64_t size = 0;
	int fd;

	if (stat(dev, &st)) {
		problem(p, "%s:%d: %s = %s: %s; give an existing block device", L->cfg.path, line, key,
			dev, strerror(errno));
		return;
	}
	if (!S_ISBLK(st.st_mode)) {
		problem(p, "%s:%d: %s = %s is not a block device; for files, use image_dir",
			L->cfg.path, line, key, dev);
		return;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		off_t end = lseek(fd, 0, SEEK_END);

		size = end > 0 ? (uint64_t)end : 0;
		close(fd);
	}
	if (size && size < need)
		problem(p, "%s:%d: %s = %s holds %s, the workload needs at least %s; use a larger "
			"device or a smaller [workload] db_size", L->cfg.path, line, key, dev,
			fmt_size(a, sizeof(a), size), fmt_size(b, sizeof(b), need));
	if (run_cmd((const char *[]){ "findmnt", "-rno", "TARGET", "-S", dev, NULL }, &out) == 0)
		problem(p, "%s:%d: %s = %s is mounted (%.*s); unmount it first", L->cfg.path, line,
			key, dev, (int)strcspn(out ? out : "", "\n"), out ? out : "");
	free(out);
}

int lab_preflight(struct lab *L)
{
	struct lab_cfg *c = &L->cfg;
	struct problems p = { 0 };
	/* saturating: no size in a config wraps the check to a small number */
	uint64_t dbs = sat_mul(c->wl.databases, c->wl.db_size);
	uint64_t need_db = sat_add(sat_mul(dbs / 10, 11), 256 * MiB);

	if (geteuid() != 0)
		problem(&p, "the lab formats and mounts devices: run it as root");
	for (int i = 0; i < c->nfs; i++) {
		const char *pkg, *tool = prep_fs_missing_tool(c->fs[i].fs, &pkg);

		if (tool)
			problem(&p, "%s:%d: [fs %s] needs %s, which is missing: install the Debian "
				"package %s", c->path, c->fs[i].line, c->fs[i].name, tool, pkg);
		/* before any cell: otherwise the lab would fail at the first cell's prep */
		char *why = prep_mkfs_opts_problem(c->fs[i].fs, c->fs[i].mkfs_opts);

		if (why)
			problem(&p, "%s:%d: [fs %s] mkfs_opts = %s: %s; prep formats only the devices "
				"it checked: drop it", c->path, c->fs[i].line, c->fs[i].name,
				c->fs[i].mkfs_opts, why);
		free(why);
		tool = prep_fs_missing_driver(c->fs[i].fs);
		if (tool)
			problem(&p, "%s:%d: [fs %s] needs the kernel's %s driver, which the running "
				"kernel lacks: use [fs ntfs] (ntfs-3g) or a kernel with it",
				c->path, c->fs[i].line, c->fs[i].name, tool);
	}
	if (workload_flags(c->wl.workload) & WL_THREAD_PER_DB) {
		for (int i = 0; i < c->nthreads; i++)
			if (c->threads[i] < c->wl.databases)
				problem(&p, "%s:%d: threads %llu is less than databases %u: each database "
					"needs a session thread", c->path, c->workload_line,
					(unsigned long long)c->threads[i],
					(unsigned int)c->wl.databases);
	}
	if (c->image_dir) {
		char *anc = existing_ancestor(c->image_dir), a[32], b[32], d[32];
		/* images are sparse and removed after each cell: one cell's data at a time, the
		 * databases up to twice over on btrfs (copy-on-write) */
		uint64_t need = sat_add(MIN(c->db_image_size, sat_add(sat_mul(dbs / 10, 22), 256 * MiB)),
					c->wl.databases * 64 * MiB + 128 * MiB);
		uint64_t have = free_bytes(anc);

		if (have < need)
			problem(&p, "%s:%d: image_dir %s: %s free, one cell writes up to %s; free space or "
				"use a smaller db_size", c->path, c->image_dir_line, c->image_dir,
				fmt_size(a, sizeof(a), have), fmt_size(b, sizeof(b), need));
		if (c->db_image_size < need_db)
			problem(&p, "%s:%d: [devices] db_size %s is too small for %u database(s) of %s; "
				"give at least %s", c->path, c->devices_line,
				fmt_size(a, sizeof(a), c->db_image_size), (unsigned int)c->wl.databases,
				fmt_size(b, sizeof(b), c->wl.db_size), fmt_size(d, sizeof(d), need_db));
		free(anc);
	} else {
		check_device(L, &p, "db_dev", c->db_dev, c->db_dev_line, need_db);
		check_device(L, &p, "log_dev", c->log_dev, c->log_dev_line,
			     c->wl.databases * 64 * MiB + 128 * MiB);
	}
	{
		char *anc = existing_ancestor(L->out);

		if (access(anc, W_OK))
			problem(&p, "--output %s: %s is not writable", L->out, anc);
		free(anc);
	}
	if (!have_program("gnuplot"))
		fslab_warn("preflight: gnuplot is missing: the report will have tables but no charts; "
			   "install the Debian package gnuplot-nox");
	if (p.n) {
		fslab_err("preflight found %u problem(s); nothing was changed", p.n);
		return -FSLAB_EINPUT;
	}
	return 0;
}

