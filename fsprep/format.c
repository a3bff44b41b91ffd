// SPDX-License-Identifier: MIT
/* format.c: discard, then run mkfs.* (exec, no shell) and ask the tool for its version. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/utsname.h>

#include "base.h"
#include "fsprep/prepP.h"
#include "msg.h"
#include "os/os.h"

int format_tool_check(const struct fs_desc *fs)
{
	if (!fs->mkfs)
		return 0;
	if (!os_have_program(fs->mkfs))
		return input_error("%s is not installed; install the Debian package %s (apt-get install %s)",
				   fs->mkfs, fs->package, fs->package);
	if (fs->mount_helper && !os_have_program(fs->mount_helper))
		return input_error("%s (the %s mount helper) is not installed; install the Debian package %s (apt-get install %s)",
				   fs->mount_helper, fs->name, fs->package, fs->package);
	if (fs->kernel_fs && !fs_kernel_has(fs->kernel_fs)) {
		struct utsname u;

		if (uname(&u))
			snprintf(u.release, sizeof(u.release), "?");
		return input_error("--fs %s: the running kernel (%s) has no %s driver: it is not in "
				   "/proc/filesystems and /lib/modules/%s has no %s module; use --fs ntfs "
				   "(ntfs-3g, FUSE) or boot a kernel with CONFIG_NTFS3_FS (Debian's "
				   "linux-image-6.12 has it as a module)",
				   fs->name, u.release, fs->kernel_fs, u.release, fs->kernel_fs);
	}
	return 0;
}

char *format_tool_version(const struct fs_desc *fs)
{
	const char *argv[] = { fs->mkfs, fs->version_flag, NULL };
	char *out = NULL, *line, *save = NULL, *v = NULL;

	if (os_run(argv, &out) < 0 || !out) {
		free(out);
		return xstrdup("unknown");
	}
	/* "mke2fs 1.47.0 (5-Feb-2023)", "mkfs.xfs version 6.1.0", "mkntfs v2022.10.3 ...",
	 * "mkfs.btrfs, part of btrfs-progs v6.2": the first non-blank line says it. */
	for (line = strtok_r(out, "\n", &save); line && !v; line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line)
			v = xstrdup(line);
	}
	free(out);
	return v ? v : xstrdup("unknown");
}

int format_run(const struct mkfs_cmd *p)
{
	char *out = NULL, *cmd;
	int rc;

	rc = os_run(p->argv.v, &out);
	if (rc == 0) {
		free(out);
		return 0;
	}
	cmd = mkfs_cmd_line(p);
	if (rc < 0)
		fslab_err("cannot run %s: %s", cmd, strerror(-rc));
	else
		fslab_err("%s failed (exit status %d); its output:\n%s", cmd, rc, out ? out : "");
	free(cmd);
	free(out);
	return rc < 0 ? rc : -EIO;
}

int discard_device(const char *dev, bool *done)
{
	uint64_t range[2] = { 0, 0 };
	int fd, ret = 0;

	*done = false;
	fd = open(dev, O_RDWR | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, &range[1])) {
		ret = -errno;
	} else if (ioctl(fd, BLKDISCARD, range)) {
		/* Not supporting discard is not an error: prep.json says "discarded": false. */
		if (errno != EOPNOTSUPP && errno != ENOTTY && errno != EINVAL)
			ret = -errno;
	} else {
		*done = true;
	}
	close(fd);
	return ret;
}
