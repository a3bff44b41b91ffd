// SPDX-License-Identifier: MIT
/* preflight_prep.c: what the lab's own preps need on Linux (root, mkfs tools, kernel drivers,
 * image space or devices), checked before anything changes; Linux only (the Windows build
 * has preflight_win32.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fsprep/prep.h"
#include "lab/labP.h"

static uint64_t free_bytes(const char *path)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return 0;
	return (uint64_t)sv.f_bavail * sv.f_frsize;
}

static void check_device(struct lab *L, struct problems *p, const char *key, const char *dev,
			 int line, uint64_t need)
{
	struct stat st;
	char *out = NULL, a[32], b[32];
	uint64_t size = 0;
	int fd;

	if (stat(dev, &st)) {
		lab_problem(p, "%s:%d: %s = %s: %s; give an existing block device", L->cfg.path, line, key,
			dev, strerror(errno));
		return;
	}
	if (!S_ISBLK(st.st_mode)) {
		lab_problem(p, "%s:%d: %s = %s is not a block device; for files, use image_dir",
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
		lab_problem(p, "%s:%d: %s = %s holds %s, the workload needs at least %s; use a larger "
			"device or a smaller [workload] db_size", L->cfg.path, line, key, dev,
			fmt_size(a, sizeof(a), size), fmt_size(b, sizeof(b), need));
	if (os_run((const char *[]){ "findmnt", "-rno", "TARGET", "-S", dev, NULL }, &out) == 0)
		lab_problem(p, "%s:%d: %s = %s is mounted (%.*s); unmount it first", L->cfg.path, line,
			key, dev, (int)strcspn(out ? out : "", "\n"), out ? out : "");
	free(out);
}

void lab_preflight_system(struct lab *L, struct problems *p)
{
	struct lab_cfg *c = &L->cfg;
	/* saturating: no size in a config wraps the check to a small number */
	uint64_t dbs = sat_mul(c->wl.databases, c->wl.db_size);
	uint64_t need_db = sat_add(sat_mul(dbs / 10, 11), 256 * MiB);

	if (geteuid() != 0)
		lab_problem(p, "the lab formats and mounts devices: run it as root (a lab whose "
			    "labels all name db_dir/log_dir, volumes you prepared, needs no root)");
	for (int i = 0; i < c->nfs; i++) {
		const struct fs_desc *instead = NULL;
		const char *pkg, *tool;
		char *why;

		if (c->fs[i].prepared)
			continue;
		tool = prep_fs_missing_tool(c->fs[i].fs, &pkg);
		if (tool)
			lab_problem(p, "%s:%d: [fs %s] needs %s, which is missing: install the Debian "
				    "package %s", c->path, c->fs[i].line, c->fs[i].name, tool, pkg);
		/* before any cell: otherwise the lab would fail at the first cell's prep */
		why = prep_mkfs_opts_problem(c->fs[i].fs, c->fs[i].mkfs_opts);
		if (why)
			lab_problem(p, "%s:%d: [fs %s] mkfs_opts = %s: %s; prep formats only the "
				    "devices it checked: drop it", c->path, c->fs[i].line,
				    c->fs[i].name, c->fs[i].mkfs_opts, why);
		free(why);
		tool = prep_fs_missing_driver(c->fs[i].fs, &instead);
		if (tool)
			lab_problem(p, "%s:%d: [fs %s] needs the kernel's %s driver, which the running "
				    "kernel lacks: use [fs %s] (%s) or a kernel with it", c->path,
				    c->fs[i].line, c->fs[i].name, tool, instead->name, instead->about);
	}
	if (c->image_dir) {
		char *anc = lab_existing_ancestor(c->image_dir), a[32], b[32], d[32];
		/* images are sparse and removed after each cell: one cell's data at a time, the
		 * databases up to twice over on btrfs (copy-on-write) */
		uint64_t need = sat_add(MIN(c->db_image_size, sat_add(sat_mul(dbs / 10, 22), 256 * MiB)),
					c->wl.databases * 64 * MiB + 128 * MiB);
		uint64_t have = free_bytes(anc);

		if (have < need)
			lab_problem(p, "%s:%d: image_dir %s: %s free, one cell writes up to %s; free "
				    "space or use a smaller db_size", c->path, c->image_dir_line,
				    c->image_dir, fmt_size(a, sizeof(a), have),
				    fmt_size(b, sizeof(b), need));
		if (c->db_image_size < need_db)
			lab_problem(p, "%s:%d: [devices] db_size %s is too small for %u database(s) of "
				    "%s; give at least %s", c->path, c->devices_line,
				    fmt_size(a, sizeof(a), c->db_image_size),
				    (unsigned int)c->wl.databases, fmt_size(b, sizeof(b), c->wl.db_size),
				    fmt_size(d, sizeof(d), need_db));
		free(anc);
	} else if (c->db_dev && c->log_dev) {
		check_device(L, p, "db_dev", c->db_dev, c->db_dev_line, need_db);
		check_device(L, p, "log_dev", c->log_dev, c->log_dev_line,
			     c->wl.databases * 64 * MiB + 128 * MiB);
	}
}
