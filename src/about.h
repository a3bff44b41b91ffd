/* SPDX-License-Identifier: MIT */
/* about.h: what `fslab version` (and `fslab CMD --version`) prints. */
#ifndef FSLAB_ABOUT_H
#define FSLAB_ABOUT_H

#include <stdio.h>

/*
 * The version and the git hash on the first line ("fslab 0.1.0 (0123456789ab)", as the lab's
 * hosts compare it), then "git:" (git describe of the tree built), "back ends:" (the I/O
 * engines), "libraries:" (with their versions) and "system:" (kernel and distribution, or
 * Windows' build).  0, or -1 when f could not be written.
 */
int fslab_print_version(FILE *f);

#endif
