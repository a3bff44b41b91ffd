// SPDX-License-Identifier: MIT
/* mount.c: libmount: mount and unmount (helpers such as mount.ntfs-3g included), and questions
 * answered from the kernel mount table (/proc/self/mountinfo). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libmount/libmount.h>

#include "lib/base.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"

static struct libmnt_table *kernel_table(void)
{
	return mnt_new_table_from_file("/proc/self/mountinfo");
}

/* The libmount error of a failed mount/umount as -errno, after printing its message. */
static int context_error(struct libmnt_context *cxt, int rc, const char *what)
{
	char buf[BUFSIZ] = "";
	int err;

	mnt_context_get_excode(cxt, rc, buf, sizeof(buf));
	fslab_err("%s failed: %s", what, buf[0] ? buf : "unknown libmount error");
	err = mnt_context_syscall_called(cxt) ? mnt_context_get_syscall_errno(cxt) : 0;
	if (err > 0)
		return -err;
	return rc < 0 && rc > -4096 ? rc : -EIO;
}

int mount_volume(const char *src, const char *target, const struct fs_desc *fs, const char *opts)
{
	struct libmnt_context *cxt = mnt_new_context();
	int rc, ret = 0;

	if (!cxt)
		return -ENOMEM;
	if (mnt_context_set_source(cxt, src) || mnt_context_set_target(cxt, target) ||
	    mnt_context_set_fstype(cxt, fs->mkfs->mount_type) || mnt_context_set_options(cxt, opts)) {
		ret = -ENOMEM;
		goto out;
	}
	rc = mnt_context_mount(cxt);
	if (rc || mnt_context_get_status(cxt) != 1) {
		char *what = xasprintf("mounting %s on %s (-t %s -o %s)", src, target,
				       fs->mkfs->mount_type, opts);

		ret = context_error(cxt, rc, what);
		free(what);
	}
out:
	mnt_free_context(cxt);
	return ret;
}

int umount_target(const char *target)
{
	struct libmnt_context *cxt = mnt_new_context();
	int rc, ret = 0;

	if (!cxt)
		return -ENOMEM;
	if (mnt_context_set_target(cxt, target)) {
		ret = -ENOMEM;
		goto out;
	}
	rc = mnt_context_umount(cxt);
	if (rc || mnt_context_get_status(cxt) != 1) {
		/* Quiet: the caller retries while busy and reports the errno. */
		int err = mnt_context_syscall_called(cxt) ? mnt_context_get_syscall_errno(cxt) : 0;

		ret = err > 0 ? -err : rc < 0 && rc > -4096 ? rc : -EIO;
	}
out:
	mnt_free_context(cxt);
	return ret;
}

/* Topmost mount whose mount point is exactly @target (later lines stack over earlier ones). */
static struct libmnt_fs *find_target(struct libmnt_table *tb, const char *target)
{
	struct libmnt_iter *it = mnt_new_iter(MNT_ITER_BACKWARD);
	struct libmnt_fs *fs, *found = NULL;

	if (!it)
		return NULL;
	while (!found && !mnt_table_next_fs(tb, it, &fs))
		if (mnt_fs_get_target(fs) && !strcmp(mnt_fs_get_target(fs), target))
			found = fs;
	mnt_free_iter(it);
	return found;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int mount_at(const char *target, char **source, char **fstype, char **options)
{
	struct libmnt_table *tb = kernel_table();
	struct libmnt_fs *fs;

	if (!tb)
		return errno > 0 ? -errno : -EIO;
	fs = find_target(tb, target);
	if (fs) {
		if (source)
			*source = dup_or_null(mnt_fs_get_source(fs));
		if (fstype)
			*fstype = dup_or_null(mnt_fs_get_fstype(fs));
		if (options)
			*options = dup_or_null(mnt_fs_get_options(fs));
	}
	mnt_unref_table(tb);
	return fs ? 1 : 0;
}

/* Is @argv0 the program of a FUSE daemon the table knows (its name or mount.<name>)? */
static bool is_fuse_daemon(const char *argv0)
{
	for (size_t i = 0; i < fs_count(); i++) {
		const struct fs_desc *d = fs_at(i);

		if ((d->flags & FS_F_FUSE) && strstr(argv0, d->mkfs->fuse_daemon))
			return true;
	}
	return false;
}

/* Does the NUL-separated command line of @pid look like a FUSE daemon serving dev on target? */
static bool fuse_cmdline_matches(pid_t pid, const char *dev, const char *target)
{
	struct strbuf sb = STRBUF_INIT;
	bool has_dev = false, has_target = false;
	ssize_t n = read_cmdline(pid, &sb);

	/* argv[0] is the daemon (ntfs-3g) or its mount helper; the device and mount point
	 * follow. */
	if (n > 0 && is_fuse_daemon(sb.buf))
		for (char *a = sb.buf; a < sb.buf + sb.len; a += strlen(a) + 1) {
			has_dev |= !strcmp(a, dev);
			has_target |= !strcmp(a, target);
		}
	strbuf_release(&sb);
	return has_dev && has_target;
}

pid_t fuse_daemon_find(const char *dev, const char *target)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	if (!proc)
		return 0;
	while (!found && (e = readdir(proc))) {
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid > 0 && fuse_cmdline_matches(pid, dev, target) && pid_alive(pid))
			found = pid;
	}
	closedir(proc);
	return found;
}
