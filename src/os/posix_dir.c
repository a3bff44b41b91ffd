// SPDX-License-Identifier: MIT
/*
 * posix_dir.c: the platform layer's names on Linux that must not be looked up twice: the
 * directories someone else may write, reached by handle (openat, fstatat, unlinkat, renameat,
 * nothing followed), and the atomic output file (a temporary file in the target's directory,
 * renamed over a regular file only).
 */
#include "os/osP.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/base.h"
#include "lib/path.h"
#include "os/os.h"

/* ---- directories by handle ---- */

struct os_dirh {
	int fd;
	char *path; /* for messages */
};

static struct os_dirh *dirh_new(int fd, char *path)
{
	struct os_dirh *d = xmalloc(sizeof(*d));

	d->fd = fd;
	d->path = path;
	return d;
}

int os_dirh_open(const char *path, struct os_dirh **out)
{
	char *real = realpath(path, NULL);
	int fd;

	if (!real)
		return -errno;
	/* the resolved path has no link left: one planted since is refused, never followed */
	fd = open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(real);
		return -e;
	}
	*out = dirh_new(fd, real);
	return 0;
}

/* openat of a name that must be a real directory: a link is -ELOOP, a file -ENOTDIR. */
static int open_subdir(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd >= 0 || errno != ENOTDIR)
		return fd < 0 ? -errno : fd;
	/* O_DIRECTORY | O_NOFOLLOW on a link says ENOTDIR: tell the link apart */
	if (!fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
		return -ELOOP;
	return -ENOTDIR;
}

int os_dirh_sub(struct os_dirh *d, const char *name, bool create, bool *created,
		struct os_dirh **out)
{
	bool made = false;
	int fd;

	if (strchr(name, '/'))
		return -EINVAL;
	if (create) {
		if (!mkdirat(d->fd, name, 0755))
			made = true;
		else if (errno != EEXIST)
			return -errno;
	}
	fd = open_subdir(d->fd, name);
	if (fd < 0)
		return fd;
	if (created)
		*created = made;
	*out = dirh_new(fd, path_join(d->path, name));
	return 0;
}

void os_dirh_close(struct os_dirh *d)
{
	if (!d)
		return;
	close(d->fd);
	free(d->path);
	free(d);
}

const char *os_dirh_path(const struct os_dirh *d)
{
	return d->path;
}

static void fill_id(const struct stat *st, struct os_id *id)
{
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
}

int os_dirh_id(const struct os_dirh *d, struct os_id *id)
{
	struct stat st;

	if (fstat(d->fd, &st))
		return -errno;
	fill_id(&st, id);
	return 0;
}

int os_file_id(struct os_file *f, struct os_id *id)
{
	struct stat st;

	if (fstat(f->fd, &st))
		return -errno;
	fill_id(&st, id);
	return 0;
}

/* flags as os_open's, plus never a link and (for an existing file) never blocking */
static int open_flags(unsigned int flags)
{
	int o = O_CLOEXEC | O_NOFOLLOW | O_NOCTTY;

	o |= flags & OS_RDWR ? O_RDWR : O_RDONLY;
	if (flags & OS_CREATE)
		o |= O_CREAT | O_EXCL;
	else
		o |= O_NONBLOCK; /* a FIFO planted there must not hang the open */
	if (flags & OS_DIRECT)
		o |= O_DIRECT;
	if (flags & OS_WRITE_THROUGH)
		o |= O_DSYNC;
	return o;
}

int os_dirh_open_file(struct os_dirh *d, const char *name, unsigned int flags,
		      struct os_file **out)
{
	struct os_file *f;
	struct stat st;
	int fd;

	if ((flags & (OS_TRUNC | OS_DIR)) || strchr(name, '/'))
		return -EINVAL;
	fd = openat(d->fd, name, open_flags(flags), 0644);
	if (fd < 0)
		return -errno;
	if (!(flags & OS_CREATE)) {
		/* only a regular file, checked on what was opened; then blocking I/O again */
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
		    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
			close(fd);
			return -EINVAL;
		}
	}
	f = xmalloc(sizeof(*f));
	f->fd = fd;
	f->flags = flags;
	*out = f;
	return 0;
}

int os_dirh_stat(struct os_dirh *d, const char *name, struct os_entry *e)
{
	struct stat st;

	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	e->kind = os_kind_of_mode(st.st_mode);
	e->size = (uint64_t)st.st_size;
	e->allocated = (uint64_t)st.st_blocks * 512;
	fill_id(&st, &e->id);
	e->mine = st.st_uid == geteuid();
	return 0;
}

int os_dirh_unlink(struct os_dirh *d, const char *name)
{
	return unlinkat(d->fd, name, 0) ? -errno : 0;
}

int os_dirh_rmdir(struct os_dirh *d, const char *name)
{
	return unlinkat(d->fd, name, AT_REMOVEDIR) ? -errno : 0;
}

int os_dirh_remove_file(struct os_dirh *d, const char *name, uint64_t ino)
{
	int fd = openat(d->fd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), ret;
	struct stat st;

	if (fd < 0)
		return errno == ELOOP || errno == EISDIR ? -ESTALE : -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode) || (uint64_t)st.st_ino != ino)
		ret = -ESTALE;
	else if (ftruncate(fd, 0))
		ret = -errno;
	else
		ret = unlinkat(d->fd, name, 0) ? -errno : 0;
	close(fd);
	return ret;
}

int os_dirh_rename(struct os_dirh *d, const char *from, const char *to)
{
	return renameat(d->fd, from, d->fd, to) ? -errno : 0;
}

int os_dirh_rename_new(struct os_dirh *d, const char *from, const char *to)
{
	if (!renameat2(d->fd, from, d->fd, to, RENAME_NOREPLACE))
		return 0;
	/* a filesystem without the flag (some FUSE ones) says EINVAL: a hard link is made only
	 * where the name is free too, then the old name goes */
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (linkat(d->fd, from, d->fd, to, 0))
		return -errno;
	return unlinkat(d->fd, from, 0) ? -errno : 0;
}

int os_dirh_list(struct os_dirh *d, struct os_dir **out)
{
	/* a descriptor of its own: readdir moves its offset */
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir;

	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		int e = errno;

		close(fd);
		return -e;
	}
	*out = xmalloc(sizeof(**out));
	(*out)->d = dir;
	return 0;
}

int os_dirh_sync(struct os_dirh *d)
{
	return fsync(d->fd) ? -errno : 0;
}

/* ---- the atomic output file ---- */

int os_lstat_kind(const char *path, int *kind)
{
	struct stat st;

	if (lstat(path, &st))
		return -errno;
	*kind = os_kind_of_mode(st.st_mode);
	return 0;
}

struct os_tmpfile {
	int dirfd, fd;
	FILE *f;
	char *base;              /* the final name in the directory */
	char tmp[NAME_MAX + 1];  /* the temporary name; "" while the file has none (O_TMPFILE) */
	char name[64];           /* os_tmpfile_name() */
};

/* Split path into an open directory (followed: the caller named it) and the final name. */
static int tmp_dir(const char *path, int *dirfd, char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!*path || (slash && !slash[1]))
		return -EISDIR;
	if (!slash)
		dir = xstrdup(".");
	else if (slash == path)
		dir = xstrdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	*dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (*dirfd < 0)
		return -errno;
	*base = xstrdup(slash ? slash + 1 : path);
	return 0;
}

/* "NAME.tmp.PID", then "NAME.tmp.PID.1" ... for the n-th attempt. */
static int tmp_name(struct os_tmpfile *t, unsigned int n)
{
	int len = n ? snprintf(t->tmp, sizeof(t->tmp), "%s.tmp.%ld.%u", t->base, (long)getpid(), n)
		    : snprintf(t->tmp, sizeof(t->tmp), "%s.tmp.%ld", t->base, (long)getpid());

	return len < 0 || (size_t)len >= sizeof(t->tmp) ? -ENAMETOOLONG : 0;
}

/* The final name must be nothing yet or a regular file (a link is not followed): 0, or
 * -EINVAL with *kind. */
static int target_ok(int dirfd, const char *base, int *kind)
{
	struct stat st;

	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	*kind = os_kind_of_mode(st.st_mode);
	return *kind == OS_KIND_FILE ? 0 : -EINVAL;
}

int os_tmpfile_open(const char *path, struct os_tmpfile **out, FILE **f, int *kind)
{
	struct os_tmpfile *t = xcalloc(1, sizeof(*t));
	int ret = tmp_dir(path, &t->dirfd, &t->base);

	if (ret) {
		free(t);
		return ret;
	}
	ret = target_ok(t->dirfd, t->base, kind);
	if (ret) {
		close(t->dirfd);
		free(t->base);
		free(t);
		return ret;
	}
	t->fd = openat(t->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	/* filesystems without O_TMPFILE say EOPNOTSUPP (older kernels EISDIR or EINVAL) */
	for (unsigned int n = 0; t->fd < 0 && n < 100; n++) {
		ret = tmp_name(t, n);
		if (ret)
			break;
		t->fd = openat(t->dirfd, t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       0666);
		ret = t->fd < 0 ? -errno : 0;
		if (ret != -EEXIST)
			break;
	}
	if (t->fd < 0) {
		t->tmp[0] = 0;
		os_tmpfile_abort(t);
		return ret ? ret : -EEXIST;
	}
	t->f = fdopen(t->fd, "w");
	if (!t->f) {
		ret = -errno;
		os_tmpfile_abort(t);
		return ret;
	}
	snprintf(t->name, sizeof(t->name), "/proc/%ld/fd/%d", (long)getpid(), t->fd);
	*out = t;
	*f = t->f;
	return 0;
}

const char *os_tmpfile_name(const struct os_tmpfile *t)
{
	return t->name;
}

void os_tmpfile_abort(struct os_tmpfile *t)
{
	if (t->f)
		fclose(t->f);
	else if (t->fd >= 0)
		close(t->fd);
	if (t->tmp[0])
		unlinkat(t->dirfd, t->tmp, 0);
	close(t->dirfd);
	free(t->base);
	free(t);
}

/* The unnamed file gets a fresh temporary name: linkat never follows nor replaces one. */
static int tmp_link(struct os_tmpfile *t)
{
	char self[64];
	int ret = 0;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", t->fd);
	for (unsigned int n = 0; n < 100; n++) {
		ret = tmp_name(t, n);
		if (ret)
			break;
		/* through /proc (any user; open(2)'s O_TMPFILE example), else AT_EMPTY_PATH
		 * (needs CAP_DAC_READ_SEARCH) when /proc is not mounted */
		if (!linkat(AT_FDCWD, self, t->dirfd, t->tmp, AT_SYMLINK_FOLLOW) ||
		    (errno == ENOENT && !linkat(t->fd, "", t->dirfd, t->tmp, AT_EMPTY_PATH)))
			return 0;
		ret = -errno;
		if (ret != -EEXIST)
			break;
	}
	t->tmp[0] = 0;
	return ret;
}

int os_tmpfile_commit(struct os_tmpfile *t, int *kind)
{
	int ret = 0;

	errno = 0;
	if (fflush(t->f) || ferror(t->f))
		ret = errno ? -errno : -EIO;
	if (!ret && fsync(t->fd))
		ret = -errno;
	/* what the name is now, just before it is replaced */
	if (!ret)
		ret = target_ok(t->dirfd, t->base, kind);
	if (!ret && !t->tmp[0])
		ret = tmp_link(t);
	if (!ret && renameat(t->dirfd, t->tmp, t->dirfd, t->base))
		ret = -errno;
	if (!ret) {
		t->tmp[0] = 0; /* it is the file now: nothing to remove */
		if (fsync(t->dirfd))
			ret = -errno;
	}
	if (fclose(t->f) && !ret)
		ret = errno ? -errno : -EIO;
	t->f = NULL;
	t->fd = -1;
	os_tmpfile_abort(t);
	return ret;
}
