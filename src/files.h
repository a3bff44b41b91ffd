/* SPDX-License-Identifier: MIT */
/* files.h: whole files in and out (atomic writes), directories, paths. */
#ifndef FSLAB_FILES_H
#define FSLAB_FILES_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "base.h"
#include "os/os.h"

/*
 * write_file_atomic - write data to path atomically: a temporary file in the same directory,
 * created exclusively and never through a symbolic link (os_tmpfile_open()), fsync, rename
 * over path, fsync the directory.  Readers see the old file or the new one, never a
 * half-written one; a symbolic link planted at path is replaced, its target left alone.
 * Returns 0 or -errno.
 */
int write_file_atomic(const char *path, const void *data, size_t len) __must_check;
/*
 * Atomic file written in pieces: atomic_open() creates the temporary file (os_tmpfile_open():
 * unnamed where the filesystem can, else "path.tmp.PID"), written through af->f;
 * atomic_name() is a name another process can write it by (gnuplot); atomic_commit()
 * flushes, fsyncs, renames it over path and fsyncs the directory; atomic_abort() removes it.
 * Both free what atomic_open() made.  0 or -errno.
 */
struct os_tmpfile;
struct atomic_file {
	FILE *f;
	struct os_tmpfile *t;
};
int atomic_open(struct atomic_file *af, const char *path) __must_check;
const char *atomic_name(const struct atomic_file *af);
int atomic_commit(struct atomic_file *af) __must_check;
void atomic_abort(struct atomic_file *af);

/* read_file - whole file into a NUL-terminated heap buffer (*out, caller frees).  0, -errno,
 * or -EINVAL when path is not a regular file (a FIFO or a device: never blocks or floods). */
int read_file(const char *path, char **out, size_t *len) __must_check;
/* mkdir_p - like mkdir -p.  0 or -errno. */
int mkdir_p(const char *path, mode_t mode) __must_check;
/* path_join - "a" + "b" -> "a/b", heap allocated. */
char *path_join(const char *a, const char *b);

#endif
