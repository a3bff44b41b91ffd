// SPDX-License-Identifier: MIT
/* misc.c: small helpers shared by the fsprep/ modules: pids, paths, file identities. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "lib/base.h"
#include "fsprep/prepP.h"
#include "platform/sysfs.h"
#include "lib/units.h"

int write_str_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

bool pid_alive(pid_t pid)
{
	char path[64], buf[512], *p;

	if (pid <= 0 || (kill(pid, 0) && errno == ESRCH))
		return false;
	/* A zombie no longer holds files or mounts: count it as gone. */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_line_file(path, buf, sizeof(buf)))
		return false;
	p = strrchr(buf, ')');
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

ssize_t read_cmdline(pid_t pid, struct strbuf *sb)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = strbuf_read_fd(sb, fd);
	close(fd);
	return n;
}

void sleep_ms(unsigned ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

char *escape_name(const char *path)
{
	static const char hex[] = "0123456789abcdef";
	char *s = xmalloc(strlen(path) * 3 + 1), *o = s;

	/* '/' -> '-'; letters, digits and '.' kept; anything else (including '-' and '_')
	 * -> "_xx", so different paths never give the same name. */
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if (*c == '/') {
			*o++ = '-';
		} else if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			   (*c >= '0' && *c <= '9') || *c == '.') {
			*o++ = (char)*c;
		} else {
			*o++ = '_';
			*o++ = hex[*c >> 4];
			*o++ = hex[*c & 15];
		}
	}
	*o = 0;
	return s;
}

char *abs_path(const char *path)
{
	char *full, *real, *out = NULL;
	size_t n;

	if (!*path) {
		errno = ENOENT;
		return NULL;
	}
	real = realpath(path, NULL);
	if (real || errno != ENOENT)
		return real;
	if (path[0] == '/') {
		full = xstrdup(path);
	} else {
		char *cwd = getcwd(NULL, 0);

		if (!cwd)
			return NULL;
		full = xasprintf("%s/%s", cwd, path);
		free(cwd);
	}
	/* Resolve the longest existing prefix, then append the missing rest as given. */
	for (n = strlen(full); ; n--) {
		char *prefix;

		while (n > 0 && full[n] != '/')
			n--;
		prefix = n ? xasprintf("%.*s", (int)n, full) : xstrdup("/");
		real = realpath(prefix, NULL);
		free(prefix);
		if (real || errno != ENOENT || n == 0)
			break;
	}
	if (!real)
		goto out;
	/* ".." or "." in the part that does not exist yet cannot be resolved honestly. */
	if (strstr(full + n, "/../") || strstr(full + n, "/./") ||
	    (strlen(full + n) >= 3 && !strcmp(full + strlen(full) - 3, "/..")) ||
	    (strlen(full + n) >= 2 && !strcmp(full + strlen(full) - 2, "/."))) {
		errno = EINVAL;
		goto out;
	}
	out = xasprintf("%s%s", strcmp(real, "/") ? real : "", full + n);
	for (char *p = out; *p; p++)
		while (p[0] == '/' && p[1] == '/')
			memmove(p, p + 1, strlen(p));
	if (strlen(out) > 1 && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = 0;
out:
	free(real);
	free(full);
	return out;
}

bool path_exists(const char *p)
{
	struct stat sb;

	return !lstat(p, &sb);
}

bool path_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = false;
			break;
		}
	closedir(d);
	return empty;
}

static void id_from_statx(const struct statx *sx, struct file_id *id)
{
	memset(id, 0, sizeof(*id));
	id->dev = makedev(sx->stx_dev_major, sx->stx_dev_minor);
	id->ino = sx->stx_ino;
	id->has_btime = sx->stx_mask & STATX_BTIME;
	if (id->has_btime) {
		id->btime_sec = sx->stx_btime.tv_sec;
		id->btime_nsec = sx->stx_btime.tv_nsec;
	}
}

int file_id_fd(int fd, struct file_id *id)
{
	struct statx sx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME, &sx))
		return -errno;
	id_from_statx(&sx, id);
	return 0;
}

int file_id_path(const char *path, struct file_id *id, mode_t *mode)
{
	struct statx sx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME, &sx))
		return -errno;
	id_from_statx(&sx, id);
	if (mode)
		*mode = sx.stx_mode;
	return 0;
}

json_t *file_id_json(const struct file_id *id)
{
	json_t *j = json_pack("{s:I, s:I}", "dev", (json_int_t)id->dev, "ino", (json_int_t)id->ino);

	if (id->has_btime) {
		json_object_set_new(j, "btime_sec", json_integer(id->btime_sec));
		json_object_set_new(j, "btime_nsec", json_integer(id->btime_nsec));
	}
	return j;
}

bool file_id_from_json(json_t *j, struct file_id *id)
{
	json_t *dev = json_object_get(j, "dev"), *ino = json_object_get(j, "ino");
	json_t *bs = json_object_get(j, "btime_sec"), *bn = json_object_get(j, "btime_nsec");

	memset(id, 0, sizeof(*id));
	if (!json_is_integer(dev) || !json_is_integer(ino))
		return false;
	id->dev = (uint64_t)json_integer_value(dev);
	id->ino = (uint64_t)json_integer_value(ino);
	if (json_is_integer(bs) && json_is_integer(bn)) {
		id->has_btime = true;
		id->btime_sec = json_integer_value(bs);
		id->btime_nsec = (uint32_t)json_integer_value(bn);
	}
	return true;
}

bool file_id_same(const struct file_id *a, const struct file_id *b)
{
	if (a->dev != b->dev || a->ino != b->ino)
		return false;
	return !a->has_btime || !b->has_btime ||
	       (a->btime_sec == b->btime_sec && a->btime_nsec == b->btime_nsec);
}
