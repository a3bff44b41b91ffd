// SPDX-License-Identifier: MIT
/* sysfs.c: a block device's facts in sysfs (util-linux lib/sysfs.c's shape), one-line files. */
#include "platform/sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "os/files.h"
#include "lib/strvec.h"
#include "lib/units.h"

int read_line_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int read_u64_file(const char *path, uint64_t *v)
{
	char buf[64];
	int ret = read_line_file(path, buf, sizeof(buf));

	if (ret)
		return ret;
	return parse_u64(buf, 0, UINT64_MAX, v);
}

int sysfs_parse_devno(const char *s, dev_t *devno)
{
	unsigned long ma, mi;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	ma = strtoul(s, &end, 10);
	if (*end != ':' || !isdigit((unsigned char)end[1]))
		return -EINVAL;
	mi = strtoul(end + 1, &end, 10);
	if ((*end && strcmp(end, "\n")) || ma > UINT_MAX || mi > UINT_MAX)
		return -EINVAL;
	*devno = makedev(ma, mi);
	return 0;
}

/* Fill @d from the resolved directory @real (its last component is the kernel name). */
static void blkdev_set(struct sysfs_blkdev *d, const char *prefix, const char *real, dev_t devno)
{
	const char *slash = strrchr(real, '/');

	d->prefix = xstrdup(prefix ? prefix : "");
	d->dir = xstrdup(real);
	d->name = xstrdup(slash ? slash + 1 : real);
	d->devno = devno;
}

int sysfs_blkdev_init(struct sysfs_blkdev *d, const char *prefix, dev_t devno)
{
	char *link = xasprintf("%s/sys/dev/block/%u:%u", prefix ? prefix : "", major(devno),
			       minor(devno));
	char *real = realpath(link, NULL);
	int ret = real ? 0 : -errno;

	memset(d, 0, sizeof(*d));
	if (real)
		blkdev_set(d, prefix, real, devno);
	free(real);
	free(link);
	return ret;
}

int sysfs_blkdev_init_name(struct sysfs_blkdev *d, const char *prefix, const char *name)
{
	char *link = xasprintf("%s/sys/class/block/%s", prefix ? prefix : "", name);
	char *real = realpath(link, NULL), *devfile, buf[32];
	dev_t devno = 0;
	int ret = real ? 0 : -errno;

	memset(d, 0, sizeof(*d));
	if (!ret) {
		devfile = path_join(real, "dev");
		ret = read_line_file(devfile, buf, sizeof(buf));
		if (!ret)
			ret = sysfs_parse_devno(buf, &devno);
		free(devfile);
	}
	if (!ret)
		blkdev_set(d, prefix, real, devno);
	free(real);
	free(link);
	return ret;
}

void sysfs_blkdev_release(struct sysfs_blkdev *d)
{
	free(d->prefix);
	free(d->dir);
	free(d->name);
	memset(d, 0, sizeof(*d));
}

char *sysfs_blkdev_path(const struct sysfs_blkdev *d, const char *attr)
{
	return path_join(d->dir, attr);
}

bool sysfs_blkdev_has(const struct sysfs_blkdev *d, const char *attr)
{
	char *p = sysfs_blkdev_path(d, attr);
	bool has = access(p, F_OK) == 0;

	free(p);
	return has;
}

char *sysfs_blkdev_read_str(const struct sysfs_blkdev *d, const char *attr)
{
	char *p = sysfs_blkdev_path(d, attr), *s = NULL;

	if (read_file(p, &s, NULL) == 0)
		s[strcspn(s, "\n")] = 0;
	free(p);
	return s;
}

int sysfs_blkdev_read_u64(const struct sysfs_blkdev *d, const char *attr, uint64_t *v)
{
	char *p = sysfs_blkdev_path(d, attr);
	int ret = read_u64_file(p, v);

	free(p);
	return ret;
}

bool sysfs_blkdev_is_partition(const struct sysfs_blkdev *d)
{
	return sysfs_blkdev_has(d, "partition");
}

char *sysfs_blkdev_devname(const struct sysfs_blkdev *d)
{
	char *name = xasprintf("/dev/%s", d->name);

	/* sysfs spells a '/' in a device name as '!' (cciss!c0d0) */
	for (char *p = name; *p; p++)
		if (*p == '!')
			*p = '/';
	return name;
}

int sysfs_blkdev_list(const struct sysfs_blkdev *d, const char *what, dev_t *out, size_t max)
{
	char *path = *what ? sysfs_blkdev_path(d, what) : xstrdup(d->dir);
	DIR *dir = opendir(path);
	struct dirent *e;
	size_t n = 0;

	if (!dir) {
		int e = errno;

		free(path);
		return e == ENOENT ? 0 : -e;
	}
	while ((e = readdir(dir))) {
		char *base = path_join(path, e->d_name), *devfile, buf[32];
		dev_t devno;
		bool take;

		/* the partitions of a disk are subdirectories with a "partition" file */
		if (!*what) {
			char *pf = path_join(base, "partition");

			take = access(pf, F_OK) == 0;
			free(pf);
		} else {
			take = true;
		}
		devfile = path_join(base, "dev");
		if (e->d_name[0] != '.' && take && !read_line_file(devfile, buf, sizeof(buf)) &&
		    !sysfs_parse_devno(buf, &devno)) {
			if (n < max)
				out[n] = devno;
			n++;
		}
		free(devfile);
		free(base);
	}
	closedir(dir);
	free(path);
	return n > INT_MAX ? INT_MAX : (int)n;
}

int sysfs_disk_names(const char *prefix, struct strvec *names)
{
	char *path = xasprintf("%s/sys/block", prefix ? prefix : "");
	DIR *d = opendir(path);
	struct dirent *e;

	free(path);
	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			strvec_push(names, e->d_name);
	closedir(d);
	return 0;
}
