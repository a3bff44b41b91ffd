/* SPDX-License-Identifier: MIT */
/*
 * scratch.h: fslab's scratch files in a directory someone else may write (the O_DIRECT and
 * unbuffered probes, selftest's test file): created exclusively by handle, their first
 * SCRATCH_HDR bytes saying whose they are, so that a file a kill left behind is known as
 * fslab's by what fslab wrote in it, never by its name (run --fresh deletes it; a file that
 * merely has such a name is someone else's).
 */
#ifndef FSLAB_SCRATCH_H
#define FSLAB_SCRATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "os/os.h"

/* The header: one 4 KiB block (a multiple of any sector unbuffered I/O needs). */
#define SCRATCH_HDR 4096
#define SCRATCH_MAGIC "fslab scratch file/1\n"

/*
 * scratch_create - create name in d exclusively, never through a link (os_dirh_open_file()
 * with OS_CREATE | flags), and write its header: the magic and the identity of the file it
 * was created as (its inode; volume serial and file index on Windows).  The caller's data
 * starts at SCRATCH_HDR.  0 with *out open, or -errno with nothing left behind (-EEXIST when
 * the name exists: someone planted it).
 */
int scratch_create(struct os_dirh *d, const char *name, unsigned int flags, struct os_file **out)
	__attribute__((warn_unused_result));
/*
 * scratch_is_ours - is name in d a regular file (not a link) whose header is fslab's and
 * names the file itself?  A copy of one, a file of that name without the header, a link to
 * one: false.
 */
bool scratch_is_ours(struct os_dirh *d, const char *name);

#endif
