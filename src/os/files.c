// SPDX-License-Identifier: MIT
/* files.c: whole files in and out (atomic writes), directories. */
#include "os/files.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/base.h"
#include "lib/msg.h"
#include "os/os.h"
#include "lib/strbuf.h"

/* A target that is not a regular file: the message, and -FSLAB_EINPUT. */
static int refuse(const char *opt, const char *path, int kind)
{
	return input_error("%s%s%s is %s, not a regular file: fslab writes an output only as a "
			   "new file renamed over a regular one, never over a device, a FIFO, a "
			   "symbolic link or a directory; name a new file or an earlier output",
			   opt ? opt : "", opt ? " " : "", path, os_kind_name(kind));
}

int output_check(const char *path, const char *opt)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	size_t n = strlen(path);
	int kind, ret;

#ifdef _WIN32
	if (strrchr(dir, '\\') > slash)
		slash = strrchr(dir, '\\');
#endif
	if (!n || path[n - 1] == '/' || (slash && !slash[1]))
		ret = input_error("%s '%s': give a file's name, not a directory's", opt, path);
	else if (!(ret = os_lstat_kind(path, &kind)) && kind != OS_KIND_FILE)
		ret = refuse(opt, path, kind);
	else if (ret && ret != -ENOENT)
		ret = input_error("%s %s: %s", opt, path, strerror(-ret));
	else
		ret = 0;
	if (!ret && slash && slash != dir) {
		*slash = 0;
		if (!os_is_dir(dir))
			ret = input_error("%s %s: %s is not a directory; create it first or name "
					  "another file", opt, path, dir);
	}
	free(dir);
	return ret;
}

int atomic_open(struct atomic_file *af, const char *path)
{
	int kind = -1, ret;

	af->f = NULL;
	af->t = NULL;
	af->path = NULL;
	ret = os_tmpfile_open(path, &af->t, &af->f, &kind);
	if (ret == -EINVAL && kind >= 0)
		return refuse(NULL, path, kind);
	if (ret == -EISDIR)
		return refuse(NULL, path, OS_KIND_DIR);
	if (!ret)
		af->path = xstrdup(path);
	return ret;
}

const char *atomic_name(const struct atomic_file *af)
{
	return os_tmpfile_name(af->t);
}

void atomic_abort(struct atomic_file *af)
{
	if (af->t)
		os_tmpfile_abort(af->t);
	free(af->path);
	af->t = NULL;
	af->f = NULL;
	af->path = NULL;
}

int atomic_commit(struct atomic_file *af)
{
	int kind = -1, ret = os_tmpfile_commit(af->t, &kind);

	if (ret == -EINVAL && kind >= 0)
		ret = refuse(NULL, af->path, kind);
	free(af->path);
	af->t = NULL;
	af->f = NULL;
	af->path = NULL;
	return ret;
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	struct atomic_file af;
	int ret = atomic_open(&af, path);

	if (ret)
		return ret;
	if (len && fwrite(data, 1, len, af.f) != len) {
		ret = errno ? -errno : -EIO;
		atomic_abort(&af);
		return ret;
	}
	return atomic_commit(&af);
}

int dirh_write_new(struct os_dirh *d, const char *tmp, const char *name, const void *data,
		   size_t len, struct os_id *id)
{
	struct os_id made = { 0, 0 };
	struct os_file *f;
	ssize_t n;
	int ret = os_dirh_open_file(d, tmp, OS_RDWR | OS_CREATE, &f);

	if (ret)
		return ret;
	ret = os_file_id(f, &made);
	n = ret ? 0 : os_pwrite(f, data, len, 0);
	if (!ret)
		ret = n == (ssize_t)len ? os_file_sync(f) : n < 0 ? (int)n : -EIO;
	os_close(f);
	if (!ret)
		ret = os_dirh_rename_new(d, tmp, name);
	if (!ret)
		ret = os_dirh_sync(d);
	else if (made.ino)
		(void)os_dirh_remove_file(d, tmp, made.ino);
	if (!ret && id)
		*id = made;
	return ret;
}

int dirh_read_small(struct os_dirh *d, const char *name, size_t max, char **out, size_t *len,
		    struct os_id *id)
{
	struct os_file *f;
	uint64_t size = 0;
	char *buf = NULL;
	ssize_t n = 0;
	int ret = os_dirh_open_file(d, name, OS_RDONLY, &f);

	if (ret)
		return ret;
	ret = id ? os_file_id(f, id) : 0;
	if (!ret)
		ret = os_file_size(f, &size);
	if (!ret && size > max)
		ret = -EFBIG;
	if (!ret) {
		buf = xmalloc((size_t)size + 1);
		n = os_pread(f, buf, (size_t)size, 0);
		ret = n == (ssize_t)size ? 0 : n < 0 ? (int)n : -EIO;
	}
	os_close(f);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[size] = '\0';
	*out = buf;
	*len = (size_t)size;
	return 0;
}

const char *os_kind_name(int kind)
{
	switch (kind) {
	case OS_KIND_FILE: return "a regular file";
	case OS_KIND_DIR: return "a directory";
	case OS_KIND_BLOCK: return "a block device";
	case OS_KIND_CHAR: return "a character device";
	case OS_KIND_FIFO: return "a FIFO";
	case OS_KIND_LINK: return "a symbolic link";
	default: return "a special file";
	}
}

int read_file(const char *path, char **out, size_t *lenp)
{
	struct strbuf sb;
	size_t hint = 0;
	FILE *f;
	int ret = os_fopen_regular(path, &f, NULL);

	if (ret)
		return ret;
	/* room for the whole file at once: no copies while a large file grows the buffer */
	if (!fseeko(f, 0, SEEK_END)) {
		off_t size = ftello(f);

		if (size > 0 && (uint64_t)size < SIZE_MAX / 2)
			hint = (size_t)size + 65536;
		rewind(f);
	}
	strbuf_init(&sb, hint);
	ret = strbuf_read_stream(&sb, f);
	fclose(f);
	if (ret) {
		strbuf_release(&sb);
		return ret;
	}
	*out = strbuf_detach(&sb, lenp);
	return 0;
}

int mkdir_p(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	int ret = 0;

	for (char *s = p + 1; ; s++) {
#ifdef _WIN32
		if (*s == '/' || *s == '\\' || !*s) { /* either separator on Windows */
#else
		if (*s == '/' || !*s) {
#endif
			char c = *s;

			*s = 0;
			ret = *p ? os_mkdir(p, mode) : 0;
			if (ret == -EEXIST || (ret && os_is_dir(p))) /* "C:" too */
				ret = 0;
			if (ret)
				break;
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return ret;
}
