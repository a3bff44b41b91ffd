// SPDX-License-Identifier: MIT
/* format.c: discard, then run mkfs.* (exec, no shell) and ask the tool for its version; what
 * the mkfs backend needs of this machine (tools, the kernel's driver). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/utsname.h>

#include "lib/base.h"
#include "fsprep/prepP.h"
#include "lib/msg.h"
#include "os/os.h"

/* a line of @path equal to @word (/proc/filesystems: "nodev\tname" or "\tname"), or a
 * modules.dep line whose module file is @word.ko[.xz|.zst|.gz] */
static bool file_lists(const char *path, const char *word, bool module)
{
	char line[512];
	bool found = false;
	size_t n = strlen(word);
	FILE *f = fopen(path, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *s = line;

		if (module) {
			char *colon = strchr(line, ':'), *slash;

			if (!colon)
				continue;
			*colon = '\0';
			slash = strrchr(line, '/');
			s = slash ? slash + 1 : line;
			found = !strncmp(s, word, n) && !strncmp(s + n, ".ko", 3);
		} else {
			s = strrchr(line, '\t');
			s = s ? s + 1 : line;
			s[strcspn(s, "\n")] = '\0';
			found = !strcmp(s, word);
		}
	}
	fclose(f);
	return found;
}

bool fs_kernel_has(const char *name)
{
	struct utsname u;
	char *dep;
	bool ok;

	if (file_lists("/proc/filesystems", name, false))
		return true;
	if (uname(&u))
		return false;
	dep = xasprintf("/lib/modules/%s/modules.dep", u.release);
	ok = file_lists(dep, name, true);
	free(dep);
	return ok;
}

const char *format_missing_tool(const struct fs_desc *fs, const char **package)
{
	const struct fs_mkfs *m = fs->mkfs;

	*package = m->package;
	if (!os_have_program(m->tool))
		return m->tool;
	if (m->mount_helper && !os_have_program(m->mount_helper))
		return m->mount_helper;
	return NULL;
}

const char *format_missing_driver(const struct fs_desc *fs, const struct fs_desc **instead)
{
	const char *k = fs->mkfs->kernel_fs;

	*instead = fs->mkfs->instead;
	return k && !fs_kernel_has(k) ? k : NULL;
}

char *format_opts_problem(const struct fs_desc *fs, const char *opts)
{
	return mkfs_opts_problem(fs->mkfs->syntax, fs->mkfs->tool, opts);
}

int format_tool_check(const struct fs_desc *fs)
{
	const struct fs_mkfs *m = fs->mkfs;

	if (!m)
		return 0;
	if (!os_have_program(m->tool))
		return input_error("%s is not installed; install the Debian package %s (apt-get install %s)",
				   m->tool, m->package, m->package);
	if (m->mount_helper && !os_have_program(m->mount_helper))
		return input_error("%s (the %s mount helper) is not installed; install the Debian package %s (apt-get install %s)",
				   m->mount_helper, fs->name, m->package, m->package);
	if (m->kernel_fs && !fs_kernel_has(m->kernel_fs)) {
		struct utsname u;

		if (uname(&u))
			snprintf(u.release, sizeof(u.release), "?");
		return input_error("--fs %s: the running kernel (%s) has no %s driver: it is not in "
				   "/proc/filesystems and /lib/modules/%s has no %s module; use --fs %s "
				   "(%s) or boot a kernel with %s",
				   fs->name, u.release, m->kernel_fs, u.release, m->kernel_fs,
				   m->instead->name, m->instead->about, m->kernel_config);
	}
	return 0;
}

char *format_tool_version(const struct fs_mkfs *m)
{
	const char *argv[] = { m->tool, m->version_flag, NULL };
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
