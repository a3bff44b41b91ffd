// SPDX-License-Identifier: MIT
/*
 * outdir.c: whose the lab's output directory is.  fslab lab writes, removes and overwrites
 * files in it (results/, logs/, mnt/, report/, lab.log, the state), so it works only in a
 * directory it made: a new or empty one, which it marks (.fslab-lab), or its own lab's being
 * resumed.  Anything else, through a symbolic link too, is refused before anything changes:
 * a lab never deletes or overwrites a file it did not make.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labP.h"

#define LAB_MARKER ".fslab-lab"
#define MARKER_SCHEMA "fslab-lab-dir/1"

/* Is name in dir a regular file (not a symbolic link to one)? */
static bool regular_at(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	int kind;
	bool ok = !os_is_symlink(p) && !os_stat(p, &kind, NULL) && kind == OS_KIND_FILE;

	free(p);
	return ok;
}

int lab_check_output(struct lab *L)
{
	struct os_dir *d;
	unsigned int n = 0;
	bool link = os_is_symlink(L->out);
	int kind, ret = os_stat(L->out, &kind, NULL);

	if (ret && !link) {
		if (ret == -ENOENT)
			return 0; /* made by this lab */
		return input_error("--output %s: %s; name a directory fslab lab can create", L->out,
				   strerror(-ret));
	}
	if (ret)
		return input_error("--output %s is a symbolic link to nothing (%s); name a new "
				   "directory, or point the link at an empty one", L->out,
				   strerror(-ret));
	if (kind != OS_KIND_DIR)
		return input_error("--output %s exists and is not a directory; name a new or empty "
				   "directory", L->out);
	ret = os_opendir(L->out, &d);
	if (ret)
		return input_error("--output %s: cannot read it (%s); name a directory fslab lab "
				   "can use", L->out, strerror(-ret));
	while (os_readdir(d))
		n++;
	os_closedir(d);
	if (!n)
		return 0; /* empty: nothing in it to lose */
	/* a lab's own directory: its marker, or the state of a lab from before markers (a
	 * resume checks that state against the config, lab_load_state()) */
	if (regular_at(L->out, LAB_MARKER) || regular_at(L->out, "lab-state.json"))
		return 0;
	{
		char *real = os_realpath(L->out);

		link = link && real;
		input_error("--output %s%s%s%s: the directory exists, is not empty and was not made "
			    "by fslab lab (no %s in it): the lab would overwrite and remove files "
			    "there; name a new or empty directory", L->out, link ? " (a link to " : "",
			    link ? real : "", link ? ")" : "", LAB_MARKER);
		free(real);
	}
	return -FSLAB_EINPUT;
}

int lab_mark_output(struct lab *L)
{
	char *path = path_join(L->out, LAB_MARKER), ts[32], *s;
	int ret = 0;

	if (!regular_at(L->out, LAB_MARKER)) {
		s = xasprintf("{\n \"schema\": \"%s\",\n \"note\": \"made by fslab lab: results, logs, "
			      "state and report of one lab; fslab lab --resume continues it\",\n"
			      " \"created_at\": \"%s\"\n}\n", MARKER_SCHEMA,
			      iso8601_now(ts, sizeof(ts)));
		ret = write_file_atomic(path, s, strlen(s));
		if (ret && ret != -FSLAB_EINPUT)
			fslab_err("%s: cannot write it: %s", path, strerror(-ret));
		free(s);
	}
	free(path);
	return ret;
}
