/* SPDX-License-Identifier: MIT */
/* path.h: paths as strings (no file system touched). */
#ifndef FSLAB_PATH_H
#define FSLAB_PATH_H

/* path_join - "a" + "b" -> "a/b", heap allocated. */
char *path_join(const char *a, const char *b);

#endif
