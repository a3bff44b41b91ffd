/* SPDX-License-Identifier: MIT */
/* files.h: whole files in and out (atomic writes), directories (paths as strings: lib/path.h). */
#ifndef FSLAB_FILES_H
#define FSLAB_FILES_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "lib/base.h"
#include "lib/path.h"
#include "os/os.h"

/*
 * Outputs.  Every file fslab writes for the user (a result, a selftest record, an export, a
 * report, a chart, a plan, a fetched result) is written one way: a temporary file in the
 * target's directory, created exclusively and never through a symbolic link
 * (os_tmpfile_open()), fsync, renamed over the target, fsync of the directory.  Readers see
 * the old file or the new one, never a half-written one.  Only a regular file is replaced:
 * a target that is a directory, a device (as /dev/null), a FIFO or a symbolic link is refused
 * before anything is written and again just before the rename, with a message naming it
 * (-FSLAB_EINPUT: the command exits 2), and left as it was.
 *
 * output_check - the same refusal, before a command does its work: path (given as opt, e.g.
 * "--output") must name a file in an existing directory that is nothing yet or a regular
 * file.  0 or -FSLAB_EINPUT (message printed).
 */
int output_check(const char *path, const char *opt) __must_check;
/* write_file_atomic - data to path as above.  0, -FSLAB_EINPUT (message printed) or -errno. */
int write_file_atomic(const char *path, const void *data, size_t len) __must_check;
/*
 * An output written in pieces: atomic_open() creates the temporary file (unnamed where the
 * filesystem can, else "path.tmp.PID"), written through af->f; atomic_name() is a name another
 * process can write it by (gnuplot); atomic_commit() flushes, fsyncs, renames it over path
 * and fsyncs the directory; atomic_abort() removes it.  Both free what atomic_open() made.
 * 0, -FSLAB_EINPUT (a target that is not a regular file: message printed) or -errno.
 */
struct os_tmpfile;
struct atomic_file {
	FILE *f;
	struct os_tmpfile *t;
	char *path; /* for the message of a refusal at commit */
};
int atomic_open(struct atomic_file *af, const char *path) __must_check;
const char *atomic_name(const struct atomic_file *af);
int atomic_commit(struct atomic_file *af) __must_check;
void atomic_abort(struct atomic_file *af);

/*
 * Small files of fslab's own inside a directory someone else may write, all through the
 * directory's handle (os.h "directories someone else may write").
 *
 * dirh_write_new - data as the new file name in d: written to the temporary name tmp (created
 * exclusively, never through a link), synced, renamed to name only while name is free
 * (os_dirh_rename_new: a file or a link someone put there stays as it was: -EEXIST), then d
 * synced.  Readers see no file or the whole one.  *id (may be NULL) gets the file's identity.
 * tmp is removed again on failure (if it is still the file this call made).  0 or -errno.
 */
int dirh_write_new(struct os_dirh *d, const char *tmp, const char *name, const void *data,
		   size_t len, struct os_id *id) __must_check;
/*
 * dirh_read_small - the regular file name in d (never through a link: -ELOOP; a FIFO, device
 * or directory: -EINVAL), at most max bytes (-EFBIG), into a NUL-terminated heap buffer *out,
 * its length in *len; *id (may be NULL) the identity of the file read.  0 or -errno.
 */
int dirh_read_small(struct os_dirh *d, const char *name, size_t max, char **out, size_t *len,
		    struct os_id *id) __must_check;

/* read_file - whole file into a NUL-terminated heap buffer (*out, caller frees).  0, -errno,
 * or -EINVAL when path is not a regular file (a FIFO or a device: never blocks or floods). */
int read_file(const char *path, char **out, size_t *len) __must_check;
/* mkdir_p - like mkdir -p.  0 or -errno. */
int mkdir_p(const char *path, mode_t mode) __must_check;

#endif
