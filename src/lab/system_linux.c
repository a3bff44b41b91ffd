// SPDX-License-Identifier: MIT
/*
 * system_linux.c: a Linux place for a lab's steps (system.h): fslab prep's Linux backends on
 * loop devices over images or two block devices, teardown by --owner, a POSIX shell behind
 * ssh.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/argv_quote.h"
#include "lab/hosts.h"
#include "lab/labcfg.h"
#include "lab/system.h"
#include "lib/base.h"
#include "os/files.h"

extern const struct lab_system lab_system_linux; /* this file's entry, below */

static bool linux_absolute(const char *p)
{
	return p[0] == '/';
}

static char *linux_mount_root(const char *out)
{
	return path_join(out, "mnt");
}

static const char *linux_devices_words(const struct lab_cfg *c)
{
	return c->image_dir ? "loop devices on images" : "devices";
}

static void linux_prep_args(const struct lab_where *w, const struct lab_fs *fs, bool force,
			    struct strvec *a)
{
	strvec_pushl(a, "prep", "--fs", fs->fs, NULL);
	if (w->image_dir) {
		strvec_pushl(a, "--image-dir", w->image_dir, NULL);
		strvec_pushf(a, "--db-size=%lluM", (unsigned long long)(w->db_image_size / MiB));
		strvec_pushf(a, "--log-size=%lluM", (unsigned long long)(w->log_image_size / MiB));
	} else {
		strvec_pushl(a, "--db-dev", w->db_dev, "--log-dev", w->log_dev, NULL);
		if (force)
			strvec_push(a, "--force");
	}
	strvec_pushl(a, "--mount-root", w->mnt, "--owner", w->owner, NULL);
	if (fs->cluster)
		strvec_pushl(a, "--cluster", fs->cluster, NULL);
	if (fs->mkfs_opts)
		strvec_pushl(a, "--mkfs-opts", fs->mkfs_opts, NULL);
	if (fs->mount_opts)
		strvec_pushl(a, "--mount-opts", fs->mount_opts, NULL);
}

static void linux_check_fs(const struct lab_fs *f, const struct fs_desc *d,
			   void (*problem)(void *ctx, int line, const char *text), void *ctx)
{
	const struct lab_system *s;
	char *names;

	if (fs_makes(d, PREP_LINUX, false))
		return;
	s = lab_system_making(&lab_system_linux, d);
	if (s) {
		lab_system_problem(problem, ctx, f->line, "[fs %s]: %s can only be formatted by %s; "
				   "run %s cells with %s lab on %s", f->name, d->title, s->title,
				   d->title, s->fslab, s->title);
		return;
	}
	names = fs_list(PREP_LINUX, 0, "%s", ", ", ", ");
	lab_system_problem(problem, ctx, f->line, "[fs %s]: unknown filesystem '%s'; add fs = NAME "
			   "to the section, one of %s", f->name, f->fs, names);
	free(names);
}

static int linux_remote_command(struct strbuf *out, const char *const *argv, const char **why)
{
	(void)why;
	/* exec: fslab itself is the session's process, so a closed session reaches it */
	strbuf_addstr(out, "exec ");
	argv_quote_sh(out, argv);
	return 0;
}

/* [devices] for Linux steps: loop devices on images, or two block devices. */
static void linux_check_devices(const struct lab_cfg *c, bool seen,
				void (*problem)(void *ctx, int line, const char *text), void *ctx)
{
	int wline = c->db_disk_line ? c->db_disk_line : c->log_disk_line ? c->log_disk_line
		    : c->disk_info_line;

	if (wline)
		lab_system_problem(problem, ctx, wline, "[devices]: db_disk, log_disk and disk_info "
				   "name Windows disks: run this lab with fslab.exe lab on Windows; "
				   "on Linux give image_dir, or db_dev and log_dev");
	if (!lab_cfg_has_prepped(c))
		return; /* every label on volumes the user prepared: nothing to prep */
	if (!seen)
		lab_system_problem(problem, ctx, 0, "no [devices] section: give image_dir (loop "
				   "devices on sparse images) or db_dev and log_dev%s",
				   c->nfs > 1 || c->raw_baseline ? "" : "; or db_dir and log_dir in "
				   "[fs NAME] for volumes you prepared");
	else if (c->image_dir && (c->db_dev || c->log_dev))
		lab_system_problem(problem, ctx, c->image_dir_line, "[devices]: give either "
				   "image_dir or db_dev/log_dev, not both");
	else if (!c->image_dir && (!c->db_dev || !c->log_dev))
		lab_system_problem(problem, ctx, c->devices_line, "[devices]: missing device: give "
				   "image_dir, or both db_dev and log_dev (separate devices for the "
				   "database and the log)");
	else if (c->db_dev && c->log_dev && !strcmp(c->db_dev, c->log_dev))
		lab_system_problem(problem, ctx, c->log_dev_line, "[devices]: db_dev and log_dev "
				   "are the same device; the lab formats them separately, give two "
				   "devices");
}

static unsigned int linux_check_host_devices(const struct lab_host *x, const char *img,
					     const char *db, const char *lg,
					     void (*problem)(void *ctx, int line, const char *text),
					     void *ctx)
{
	if (img && (x->db_dev || x->log_dev)) {
		lab_system_problem(problem, ctx, x->line, "[host %s]: give either image_dir or "
				   "db_dev/log_dev, not both", x->name);
		return 1;
	}
	if (!img && (!db || !lg)) {
		lab_system_problem(problem, ctx, x->line, "[host %s]: missing device: give "
				   "image_dir, or both db_dev and log_dev (in [host %s] or in "
				   "[devices])", x->name, x->name);
		return 1;
	}
	return 0;
}

const struct lab_system lab_system_linux = {
	.name = "linux",
	.title = "Linux",
	.prep = PREP_LINUX,
	.fslab = "fslab",
	.sep = '/',
	.workdir = "/var/tmp/fslab-lab",
	.gnuplot = "",
	.flags = SYS_OWNER | SYS_RAW | SYS_CONTROLLER,
	.absolute = linux_absolute,
	.mount_root = linux_mount_root,
	.devices_words = linux_devices_words,
	.prep_args = linux_prep_args,
	.remote_command = linux_remote_command,
	.check_devices = linux_check_devices,
	.check_fs = linux_check_fs,
	.check_host_devices = linux_check_host_devices,
};
